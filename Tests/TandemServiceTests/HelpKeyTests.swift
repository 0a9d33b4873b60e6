import Testing
import TandemService

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
}
