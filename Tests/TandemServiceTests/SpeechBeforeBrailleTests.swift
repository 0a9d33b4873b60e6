import Synchronization
import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemService
import TandemSession
import TandemTestSupport

/// A key press's speech leaves before its braille is worked out: the focus line is
/// translated after the speech decision is handed to the outputs, so speech-dispatcher never
/// waits for liblouis (Docs/architecture.md#latency).
@Suite struct SpeechBeforeBrailleTests {
    /// Writes down, in order, each text it translates and each record it is given.
    final class Log: OutputSink, BrailleTranslator, Sendable {
        let entries = Mutex<[String]>([])
        func translate(_ text: String, language: String, cursor: Int?, editing: Bool) -> (cells: [Cell], cursor: Int?) {
            entries.withLock { $0.append("translate \(text)") }
            return (Array(repeating: Cell(0), count: text.count), cursor)
        }
        func emit(_ record: Record, at time: Int) {
            switch record {
            case .speech(.speak(let s)): entries.withLock { $0.append("speak \(s.utterance.text)") }
            case .braille(let f): entries.withLock { $0.append("braille \(f.text)") }
            default: break
            }
        }
    }

    @Test("next: the new focus is spoken, then its braille line is translated and written")
    func speechGoesOutFirst() throws {
        let log = Log()
        let catalog = try Example("grocery").catalog()
        var session = Session(catalog: catalog, profile: Profile(), sink: log, timing: .virtual, makeTranslator: { _ in log })
        session.start(at: 0)
        session.settle()
        log.entries.withLock { $0.removeAll() }

        session.perform(.next, at: 1000)
        session.settle()

        let entries = log.entries.withLock { $0 }
        let speak = try #require(entries.firstIndex { $0.hasPrefix("speak ") }, "\(entries)")
        let translate = try #require(entries.firstIndex { $0.hasPrefix("translate ") }, "\(entries)")
        let written = try #require(entries.firstIndex { $0.hasPrefix("braille ") }, "\(entries)")
        #expect(speak < translate && translate < written, "\(entries)")
        // The focus line was translated once, not once when shown and again when written.
        #expect(entries.filter { $0.hasPrefix("translate ") }.count == 1, "\(entries)")
    }
}
