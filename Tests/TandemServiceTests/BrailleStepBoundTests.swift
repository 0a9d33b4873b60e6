import Synchronization
import TandemVocabulary
import Testing
import TandemNavigator
import TandemOutputs
import TandemPresentation
@testable import TandemService
@testable import TandemSession

/// What liblouis may cost one step of the session thread (Docs/reliability.md#braille-bound):
/// however many huge texts an app sends in one batch, and whatever the user pans, a step
/// hands the translator at most two lines (the focus line and a flash message), each cut to
/// `BrailleText.maxCharacters` and its markers. Counted in calls and characters, never time;
/// `tandem-bench hostile` measures what one such line costs liblouis at most.
@Suite("braille cost per step")
struct BrailleStepBoundTests {
    typealias Counting = BrailleLimitTests.CountingTranslator

    @Test("a batch of 40 megabyte-sized values and announcements, then pans, translates at most two cut lines a step")
    func stepBound() throws {
        let counting = Counting()
        var (session, service) = try BrailleLimitTests.served(profile: "default", counting: counting)
        let huge = String(repeating: "word ", count: 40_000)          // 200,000 characters
        var line = 3
        var seen = counting.given.withLock { $0.count }
        func step(_ what: String) {
            session.settle()
            let given = counting.given.withLock { Array($0[seen...]) }
            seen += given.count
            #expect(given.count <= 2, "\(what): \(given.count) translations in one step")
            #expect(given.allSatisfy { $0 <= BrailleText.maxCharacters + 2 }, "\(what): \(given.max() ?? 0) characters")
        }
        for k in 0..<20 {
            service.received("c1", line: line, bytes: Array(#"{"type":"set","id":"f","value":"\#(k) \#(huge)"}"#.utf8), session: &session, at: 10)
            service.received("c1", line: line + 1, bytes: Array(#"{"type":"notify","notification":"announcement","text":"\#(k) \#(huge)"}"#.utf8),
                             session: &session, at: 10)
            line += 2
        }
        step("the batch")
        for (t, command) in [Command.panRight, .panRight, .panLeft, .next, .panRight, .previous].enumerated() {
            session.perform(command, at: 20 + t)
            step("\(command)")
        }
        #expect(seen > 1, "nothing was translated: the test would show no bound")
    }
}
