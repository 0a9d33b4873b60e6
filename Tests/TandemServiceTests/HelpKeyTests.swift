import TandemVocabulary
import Testing
import TandemModel
import TandemOutputs
@testable import TandemService
@testable import TandemSession
import TandemTestSupport

/// The help key speaks the session's language: a Brazilian tester on the grocery catalog hears
/// what each command does in Portuguese, not in English.
@Suite("the help key")
struct HelpKeyTests {
    @Test("in a pt-BR session the help key says each command in Portuguese")
    func portugueseHelp() throws {
        let run = try ReplayHarness.replay(catalog: "Examples/grocery/grocery.catalog.json", scenarioText: "help\n")
        let help = try #require(run.spoken.first { $0.contains("next:") })
        #expect(help.contains("next: ir para o próximo elemento"))
        #expect(help.contains("read-from-top: ler a partir do topo da tela"))
        #expect(!help.contains("move to the next element"))
    }

    @Test("in an English session it says them in English")
    func englishHelp() throws {
        let run = try ReplayHarness.replay(catalog: "Examples/albums/albums.catalog.json", scenarioText: "help\n")
        let help = try #require(run.spoken.first { $0.contains("next:") })
        #expect(help.contains("next: move to the next element"))
    }

    /// The help shown on the display when `tandem replay --session` plays `key`.
    static func replayedHelp(_ key: String) throws -> String? {
        let text = """
        {"t":0,"start":{"profile":"default","catalog":"grocery.catalog.json"}}
        \(key)
        """
        let inputs = try RecordedInput.read(text, file: "help.record")
        let catalog = try Example("grocery").catalog()
        let sink = RecordingSink()
        _ = try SessionReplay(inputs: inputs, file: "help.record", profiles: .shipped, makeTranslator: louisTranslator(for:))
            .run(sink: sink) { (_) throws(Diagnostic) in catalog }
        return sink.brailleFrames.last { $0.flash }?.text
    }

    @Test("a replayed recording's help key from the display lists the display's keys, one from the terminal does not")
    func replayedDisplayHelp() throws {
        let fromDisplay = try #require(try Self.replayedHelp(#"{"t":500,"key":"help","from":"display"}"#))
        #expect(fromDisplay.contains("LNDN: ir para o próximo elemento") && fromDisplay.contains("HELP: "), "\(fromDisplay)")
        let other = try #require(try Self.replayedHelp(#"{"t":500,"key":"help"}"#))
        #expect(!other.contains("LNDN") && other.contains("next: ir para o próximo elemento"), "\(other)")
    }

    @Test("the recording says which keys came from the display, and reads that back")
    func recordedDisplayKey() throws {
        let key = RecordedInput.key(.help, display: true)
        #expect(key.fields == #""key":"help","from":"display""#)
        #expect(RecordedInput.key(.help).fields == #""key":"help""#)
        let read = try RecordedInput.read("{\"t\":3,\(key.fields)}", file: "k.record")
        #expect(read.map(\.input) == [key])
        #expect(throws: Diagnostic.self) { try RecordedInput.read(#"{"t":3,"key":"help","from":"mouse"}"#, file: "k.record") }
    }
}
