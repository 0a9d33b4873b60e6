import Foundation
import Synchronization
import TandemVocabulary
import Testing
import TandemPresentation
import TandemTestSupport
@testable import TandemOutputs
@testable import TandemService
@testable import TandemSession

/// Issue 27's first "done when" for a whole round of the socket's loop
/// (Docs/reliability.md#round-bound): the server reads up to 64 KiB from a client per round and
/// the runner applies each line as an instant of its own, at the batch's time. However many
/// long announcements one round holds, a key or another client's line behind them waits for
/// at most one display frame's translation, not one per line. Counted in the translator's
/// calls and the frames written, never in time (`tandem-bench hostile` times it).
@Suite("hostile clients: one round of one client")
struct RoundBoundTests {
    typealias Counting = BrailleLimitTests.CountingTranslator

    /// Every record, and at each key the session logs, how many lines the translator had been
    /// given by then (what the key waited behind).
    final class KeyWatch: OutputSink, Sendable {
        let counting: Counting
        let atKeys = Mutex<[Int]>([])
        init(counting: Counting) { self.counting = counting }
        func emit(_ record: Record, at time: Int) {
            guard case .event(let e) = record, e.type == "key" else { return }
            let given = counting.given.withLock { $0.count }
            atKeys.withLock { $0.append(given) }
        }
    }

    /// A served session as `tandem serve` has it (each input an instant, live timing), an app in
    /// front on a screen of three elements and a controller, translating through `counting`.
    struct Round {
        var core: SessionCore
        let counting = Counting()
        let watch: KeyWatch
        let records = RecordingSink()
        var line = 1

        init() throws {
            let profile = try ProfileStore.shipped.load("default").0
            watch = KeyWatch(counting: counting)
            let counting = self.counting
            var (session, service) = Service.start(profile: profile, catalog: nil, sink: MultiplexSink([watch, records]), timing: .virtual,
                                                   makeTranslator: { _ in counting })
            session.timing = .live
            core = SessionCore(session: session, service: service, keyMap: profile.keyMap)
            core.apply(.open(), at: 0)
            core.apply(.clientConnected("app"), at: 0)
            core.apply(.clientConnected("ctl"), at: 0)
            send("app", #"{"type":"hello","v":1,"role":"app","name":"Mail"}"#, at: 1)
            send("ctl", #"{"type":"hello","v":1,"role":"controller"}"#, at: 2)
            send("app", #"{"type":"screen","screen":{"id":"s","root":{"id":"r","children":[{"id":"a","label":"Inbox"},{"id":"b","label":"Sent"},{"id":"c","label":"Drafts"}]}}}"#, at: 3)
            core.advance(to: 100)
        }

        mutating func send(_ client: ClientID, _ json: String, at t: Int) {
            core.apply(.clientLine(client, line: line, bytes: Array(json.utf8)), at: t)
            line += 1
        }

        /// One round as the runner applies a batch: `count` announcements of 2,000 characters
        /// (32 fill the 64 KiB the server reads from a client per round), then a display key and
        /// another client's line, every input at `t` and an instant of its own.
        mutating func flood(_ count: Int, at t: Int) {
            let text = String(String(repeating: "Ab1 C-2.d, EF3g Hi 45% ", count: 100).prefix(2_000))
            for k in 0..<count {
                send("app", #"{"type":"notify","notification":"announcement","text":"\#(k) \#(text)"}"#, at: t)
            }
            core.apply(.command(.next, fromDisplay: true), at: t)
            send("ctl", #"{"type":"command","command":"next"}"#, at: t)
        }

        func frames(at t: Int) -> [BrailleFrame] {
            records.records.compactMap { if case .braille(let f) = $0.record, $0.time == t { f } else { nil } }
        }
    }

    @Test("32 announcements of 2,000 characters in one round: the key behind them waits for one frame's translation, not 32")
    func keyWaitsForOneFrame() throws {
        var round = try Round()
        let before = round.counting.given.withLock { $0.count }
        round.flood(32, at: 1_000)
        // The display's key, then the controller's `next`: each logged as a key when handled.
        let atKeys = round.watch.atKeys.withLock { $0 }.map { $0 - before }
        try #require(atKeys.count == 2, "keys logged: \(atKeys)")
        let atKey = atKeys[0]
        let given = round.counting.given.withLock { Array($0[before...]) }
        #expect(atKeys.allSatisfy { $0 <= 2 }, "the display's key and the other client's line waited behind \(atKeys) translations")
        #expect(given.allSatisfy { $0 <= BrailleText.maxCharacters + 2 }, "\(given.max() ?? 0) characters in one translation")
        #expect(round.frames(at: 1_000).count <= 1, "\(round.frames(at: 1_000).count) frames written in the round's millisecond")
        #expect(atKey >= 1, "the first announcement was not translated: the test would show no bound")
    }

    @Test("only braille changes: the round's speech and events are those of a session writing every frame, and its frames are some of that session's, the newest last")
    func speechUnchanged() throws {
        var held = try Round()
        var every = try Round()
        every.core.session.framePerMillisecond = false
        for t in [1_000, 1_500] {
            held.flood(32, at: t)
            every.flood(32, at: t)
        }
        held.core.advance(to: 6_000)
        every.core.advance(to: 6_000)
        func split(_ r: Round) -> (other: [Record], otherTimes: [Int], frames: [BrailleFrame]) {
            let all = r.records.records
            let other = all.filter { if case .braille = $0.record { false } else { true } }
            return (other.map(\.record), other.map(\.time), all.compactMap { if case .braille(let f) = $0.record { f } else { nil } })
        }
        let h = split(held), e = split(every)
        #expect(h.other == e.other, "speech or events differ")
        #expect(h.otherTimes == e.otherTimes, "speech or events at other times")
        #expect(h.frames.last == e.frames.last, "a different frame last")
        // Each frame written with the hold is one the session writing every frame wrote too,
        // in the same order.
        var rest = e.frames[...]
        for f in h.frames {
            guard let i = rest.firstIndex(of: f) else {
                Issue.record("a frame no session writing every frame wrote: \(f)")
                break
            }
            rest = rest[(i + 1)...]
        }
        #expect(h.frames.count < e.frames.count / 4, "\(h.frames.count) frames held to one a millisecond, \(e.frames.count) written")
    }

    @Test("in a millisecond that has its frame, an input that changes nothing on the display holds nothing; one that does holds one frame")
    func holdsOnlyAChange() throws {
        var round = try Round()
        round.core.apply(.command(.next, fromDisplay: true), at: 2_000)
        #expect(round.frames(at: 2_000).count == 1)
        // A client connecting changes nothing the display shows: no timer, the session quiet
        // as far as braille goes.
        round.core.apply(.clientConnected("other"), at: 2_000)
        #expect(!round.core.session.timers.contains(.heldFrame))
        round.send("app", #"{"type":"notify","notification":"announcement","text":"Sent"}"#, at: 2_000)
        #expect(round.core.session.timers.contains(.heldFrame))
        #expect(round.frames(at: 2_000).count == 1)
        round.core.advance(to: 2_001)
        #expect(round.frames(at: 2_001).map(\.text) == ["Sent"])
        #expect(!round.core.session.timers.contains(.heldFrame))
    }

    @Test("through the live runner on a clock moved by hand: the round writes one frame in its millisecond, and the next one shows the key's line")
    func throughTheRunner() throws {
        let profile = try ProfileStore.shipped.load("default").0
        let counting = Counting()
        let watch = KeyWatch(counting: counting)
        let records = RecordingSink()
        let (session, service) = Service.start(profile: profile, catalog: nil, sink: MultiplexSink([watch, records]), timing: .virtual,
                                               makeTranslator: { _ in counting })
        let clock = SteppedClock()
        let runner = LiveRunner(session: session, keyMap: profile.keyMap, clock: clock)
        runner.service = service
        let done = runner.startThread()
        defer {
            runner.send(.quit)
            _ = done.wait(timeout: .now() + 10)
        }
        func lastFrame() -> (frame: BrailleFrame, time: Int)? {
            records.records.reversed().lazy.compactMap { if case .braille(let f) = $0.record { (f, $0.time) } else { nil } }.first
        }
        var line = 1
        func send(_ client: ClientID, _ json: String) {
            runner.send(.clientLine(client, line: line, bytes: Array(json.utf8)))
            line += 1
        }
        _ = runner.waitForStart()
        runner.send(.clientConnected("app"))
        runner.send(.clientConnected("ctl"))
        send("app", #"{"type":"hello","v":1,"role":"app","name":"Mail"}"#)
        send("ctl", #"{"type":"hello","v":1,"role":"controller"}"#)
        send("app", #"{"type":"screen","screen":{"id":"s","root":{"id":"r","children":[{"id":"a","label":"Inbox"},{"id":"b","label":"Sent"},{"id":"c","label":"Drafts"}]}}}"#)
        // All at time 0, the opening's millisecond: the screen's line is written in the next.
        try #require(waitUntil {
            records.records.contains { if case .event(let e) = $0.record { e.type == "focus" && e.fields.contains(.init("id", "a")) } else { false } }
        }, "the screen never took focus")
        clock.advance(milliseconds: 1)
        try #require(waitUntil { lastFrame()?.frame.text.contains("Inbox") == true }, "the screen's focus line never reached the display")

        clock.advance(milliseconds: 999)
        let before = counting.given.withLock { $0.count }
        let text = String(String(repeating: "Ab1 C-2.d, EF3g Hi 45% ", count: 100).prefix(2_000))
        for k in 0..<32 { send("app", #"{"type":"notify","notification":"announcement","text":"\#(k) \#(text)"}"#) }
        runner.send(.command(.next, fromDisplay: true))
        send("ctl", #"{"type":"command","command":"next"}"#)
        try #require(waitUntil { watch.atKeys.withLock { $0.count } == 2 }, "the keys were not handled")
        let atKeys = watch.atKeys.withLock { $0 }.map { $0 - before }
        #expect(atKeys.allSatisfy { $0 <= 2 }, "the display's key and the other client's line waited behind \(atKeys) translations")
        let inRound = records.records.filter { if case .braille = $0.record { $0.time == 1_000 } else { false } }
        #expect(inRound.count <= 1, "\(inRound.count) frames written in the round's millisecond")

        // The clock's next millisecond: the newest state is what reaches the display. The keys
        // went first (Docs/reliability.md#fair-rounds: a key is not held behind a client's
        // lines, another client's line takes its turn), so focus is on Drafts and the last
        // announcement's message is shown.
        clock.advance(milliseconds: 1)
        #expect(waitUntil { lastFrame()?.time == 1_001 }, "no frame in the next millisecond")
        let next = try #require(lastFrame())
        #expect(next.frame.flash && next.frame.text.hasPrefix("31 "), "the display shows \(next.frame)")
        let state = Mutex<SessionSnapshot?>(nil)
        runner.send(.mark { snapshot in state.withLock { $0 = snapshot } })
        #expect(waitUntil { state.withLock { $0 } != nil })
        #expect(state.withLock { $0?.focus } == "c", "both keys moved focus: \(String(describing: state.withLock { $0 }))")
    }
}
