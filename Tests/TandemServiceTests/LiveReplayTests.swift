import Foundation
import Synchronization
import TandemVocabulary
import Testing
import TandemModel
import TandemOutputs
import TandemService
import TandemSession
import TandemTestSupport

/// `LiveReplay` (`tandem replay --speech/--braille`) around its outputs: bad input stops it
/// before anything runs, and time 0 waits for the outputs to settle their first connection.
@Suite("live replay and its outputs")
struct LiveReplayTests {
    /// A live output that settles when the test says: it records whether it ran and what it
    /// was sent, and reports `settle` from its own thread after `settleAfter` ms.
    final class ScriptedOutput: LiveOutput, Sendable {
        let kind: OutputKind
        let settle: [LiveOutputEvent]
        let settleAfter: Int?
        private let state = Mutex<(started: Bool, stopped: Bool, settledAt: ContinuousClock.Instant?,
                                   received: [(time: Int, at: ContinuousClock.Instant, record: Record)])>((false, false, nil, []))

        init(_ kind: OutputKind, settle: [LiveOutputEvent], after ms: Int?) {
            self.kind = kind; self.settle = settle; self.settleAfter = ms
        }

        func start(report: @escaping @Sendable (LiveOutputEvent) -> Void) {
            state.withLock { $0.started = true }
            guard let ms = settleAfter else { return }
            let events = settle
            Thread.detachNewThread { [self] in
                Thread.sleep(forTimeInterval: Double(ms) / 1000)
                state.withLock { $0.settledAt = .now }
                for e in events { report(e) }
            }
        }

        func stop() { state.withLock { $0.stopped = true } }
        func emit(_ record: Record, at time: Int) { state.withLock { $0.received.append((time, .now, record)) } }

        var started: Bool { state.withLock { $0.started } }
        var stopped: Bool { state.withLock { $0.stopped } }
        var settledAt: ContinuousClock.Instant? { state.withLock { $0.settledAt } }
        /// The frames it was sent: session time, when it got them, the frame.
        var frames: [(time: Int, at: ContinuousClock.Instant, frame: BrailleFrame)] {
            state.withLock { $0.received.compactMap { r in if case .braille(let f) = r.record { (r.time, r.at, f) } else { nil } } }
        }
    }

    /// A title longer than 20 cells, then a button.
    static let catalog = #"""
        { "format": "tandem.catalog/1", "language": "en", "screens": [ { "id": "home", "focus": "title", "root": { "id": "root", "children": [
          { "id": "title", "label": "A title long enough for two windows of twenty cells", "traits": ["header"] },
          { "id": "go", "label": "Go", "traits": ["button"] } ] } } ] }
        """#

    static func replay(_ scenario: String, profiles: ProfileStore = .shipped) throws -> LiveReplay {
        let catalog = try decodeCatalog(Self.catalog)
        let parsed = try Scenario.parse(scenario, file: "live.scenario", catalog: catalog, profileExists: profiles.exists)
        var replay = LiveReplay(catalog: catalog, scenario: parsed, profile: try ReplayHarness.profile(), profiles: profiles,
                                makeTranslator: louisTranslator(for:))
        replay.speed = 10
        return replay
    }

    @Test("a profile that fails to load mid-scenario stops the run before any output or thread is started")
    func brokenProfileStartsNothing() throws {
        let folder = try temporaryDirectory(prefix: "tandem-profiles-")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"{ "format": "tandem.profile/1", "speech": { "rate": "fast" } }"#.write(toFile: folder + "/broken.json", atomically: true, encoding: .utf8)
        let replay = try Self.replay("next\nwait 100\nprofile broken\nnext\n", profiles: ProfileStore(searchPath: [folder]))
        let output = ScriptedOutput(.speech, settle: [], after: nil)
        #expect(throws: Diagnostic.self) { try replay.run(transcript: RecordingSink(), outputs: [output]) }
        #expect(!output.started, "nothing was started for a run that cannot go on")
    }

    @Test("time 0 waits for the display to settle: the opening frame reaches it after, cut to its size, at time 0")
    func timeZeroWaitsForTheDisplay() throws {
        let output = ScriptedOutput(.braille, settle: [.status(OutputStatus(.braille, available: true, message: "connected")),
                                                      .displaySize(columns: 20)], after: 300)
        let transcript = RecordingSink()
        let failures = try Self.replay("wait 200\nnext\nwait 200\n").run(transcript: transcript, outputs: [output])
        #expect(failures.isEmpty)
        let first = try #require(output.frames.first)
        let settled = try #require(output.settledAt)
        #expect(first.at > settled, "the opening frame was sent once the display was there")
        #expect(first.time == 0 && first.frame.text.hasPrefix("A title long"), "the opening frame, at time 0: \(first.frame.text)")
        #expect(first.frame.cells.count <= 20 && first.frame.windowCount > 1, "cut to the 20 cells reported: \(first.frame.cells.count)")
        // The scenario's waits keep the session's clock: `next` after `wait 200` is at 200 or later.
        let moved = try #require(output.frames.first { $0.frame.text.hasPrefix("Go") })
        #expect(moved.time >= 200, "next came at \(moved.time) ms, before its wait of 200 was over")
        #expect(output.stopped)
    }

    @Test("a thread feeding the run keeps time from the run's own time 0, however late its thread started")
    func feederSharesTheRunsOrigin() throws {
        let session = Session(catalog: try decodeCatalog(Self.catalog), profile: try ReplayHarness.profile(), sink: RecordingSink(),
                              timing: .virtual, makeTranslator: louisTranslator(for:))
        let runner = LiveRunner(session: session)
        let made = ContinuousClock.now
        let thread = Thread {
            Thread.sleep(forTimeInterval: 0.15)
            runner.run()
        }
        thread.start()
        let origin = runner.waitForStart()
        #expect(origin - made >= .milliseconds(150), "time 0 is when run began, not when the runner was made")
        runner.send(.quit)
    }

    @Test("an output that never settles delays time 0 by the start timeout only")
    func unsettledOutputIsWaitedForBoundedly() throws {
        let output = ScriptedOutput(.braille, settle: [], after: nil)
        var replay = try Self.replay("next\nwait 100\n")
        replay.startTimeout = 300
        let began = ContinuousClock.now
        #expect(try replay.run(transcript: RecordingSink(), outputs: [output]).isEmpty)
        let took = ContinuousClock.now - began
        #expect(took >= .milliseconds(300) && took < .seconds(10), "\(took)")
        #expect(output.frames.first?.frame.text.hasPrefix("A title long") == true)
    }
}
