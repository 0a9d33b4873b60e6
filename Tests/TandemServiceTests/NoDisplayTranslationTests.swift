import TandemVocabulary
import Testing
import TandemModel
import TandemPresentation
import TandemService
@testable import TandemSession
import TandemTestSupport

/// With no braille output (a profile with `braille.enabled` false: the speech-only profile) no
/// record holds cells, so liblouis is never called — not for a focus line, a value, a message,
/// nor for panning, a routing key, read-all, a width or a profile change (issue 27;
/// Docs/braille.md#long-lines). Counted in translator calls, never in time.
@Suite("no display, no translation")
struct NoDisplayTranslationTests {
    typealias Counting = BrailleLimitTests.CountingTranslator

    static let commands: [Command] = [
        .next, .panRight, .panRight, .panLeft, .panLeft, .route(0), .route(3), .spell, .repeat,
        .readAll, .stop, .readFromTop, .stop, .historyPrevious, .historyNext, .mark, .help,
        .next, .activate, .panRight, .last, .panRight, .first, .panLeft,
    ]

    @Test("the speech-only profile: every output command, a width and a profile change call the translator 0 times")
    func speechOnlyNeverTranslates() throws {
        let counting = Counting()
        let records = RecordingSink()
        let profile = try ProfileStore.shipped.load("speech-only").0
        #expect(!profile.braille)
        var session = Session(catalog: try Example("grocery").catalog(), profile: profile, sink: records, timing: .virtual,
                              makeTranslator: { _ in counting })
        session.start(at: 0, helpHint: true)
        session.settle()
        var t = 1_000
        for command in Self.commands {
            session.perform(command, at: t)
            session.advance(to: t + 500)
            session.settle()
            t += 1_000
        }
        session.setDisplayWidth(12)
        session.setProfile(profile)
        session.perform(.panRight, at: t)
        session.settle()
        #expect(counting.given.withLock { $0 }.isEmpty, "translated \(counting.given.withLock { $0.count }) lines")
        #expect(!records.records.contains { if case .braille = $0.record { true } else { false } })
    }

    @Test("with no display a pan has no window to move within: pan-right moves on to the next element, not to a hint")
    func panMovesOn() throws {
        let counting = Counting()
        let records = RecordingSink()
        let profile = try ProfileStore.shipped.load("speech-only").0
        var session = Session(catalog: try Example("grocery").catalog(), profile: profile, sink: records, timing: .virtual,
                              makeTranslator: { _ in counting })
        session.start(at: 0, helpHint: true)
        session.settle()
        func focusEvents() -> Int {
            records.records.count { if case .event(let e) = $0.record { e.type == "focus" } else { false } }
        }
        for k in 0..<3 {
            let before = focusEvents()
            session.perform(.panRight, at: 1_000 * (k + 1))
            session.settle()
            #expect(focusEvents() == before + 1, "pan-right \(k + 1) did not move focus")
        }
    }
}
