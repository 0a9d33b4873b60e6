import Foundation
import Synchronization
import Testing
import TandemModel
import TandemServer
import TandemService
import TandemSession
import TandemTestSupport
import TandemVocabulary

/// Issue 27's "done when" for a round of one client's lines (Docs/reliability.md#fair-rounds):
/// the live runner takes keys before any client's lines and clients in turn, one line each, and
/// looks at its inbox (and its host's clients) between lines, so a key or another client waits
/// for about one line of a flooding client's, not for its whole round. Counted in the order the
/// runner applied its input (its recording) and in lines handled, never in time.
@Suite("hostile clients: fair rounds", .serialized)
struct FairRoundTests {
    /// A served session on a clock moved by hand, as `tandem serve` runs it, recorded as
    /// `--record` writes it: an app "a" on a screen of three rows, a controller "b".
    final class Runner: Sendable {
        let runner: LiveRunner
        let clock = SteppedClock()
        let records = RecordingSink()
        let recordPath: String
        let folder: String
        let done = DispatchSemaphore(value: 0)
        let log = LineLog()

        init() throws {
            folder = try temporaryDirectory(prefix: "tandem-fair")
            recordPath = folder + "/fair.session.record"
            _ = FileManager.default.createFile(atPath: recordPath, contents: nil)
            let profile = try ProfileStore.shipped.load("default").0
            let (session, service) = Service.start(profile: profile, catalog: nil, sink: records, timing: .virtual,
                                                   makeTranslator: louisTranslator(for:))
            runner = LiveRunner(session: session, keyMap: profile.keyMap, clock: clock)
            runner.service = service
            let recorder = SessionRecorder(handle: try FileHandle(forWritingTo: URL(fileURLWithPath: recordPath)))
            recorder.record(.start(profile: "default", catalog: nil, userActionWindow: nil, speechNotices: true), at: 0)
            runner.hooks.recorder = recorder
            let log = self.log
            runner.hooks.lineHandled = { c in
                log.lines.withLock { $0.append(c) }
                log.onLine.withLock { $0 }?(c)
            }
            runner.startThread(signalling: done)
            _ = runner.waitForStart()
            runner.send(.clientConnected("a"))
            runner.send(.clientConnected("b"))
            line("a", 1, #"{"type":"hello","v":1,"role":"app","name":"Mail"}"#)
            line("b", 1, #"{"type":"hello","v":1,"role":"controller"}"#)
            line("a", 2, #"{"type":"screen","screen":{"id":"s","root":{"id":"r","children":[{"id":"x","label":"Inbox"},{"id":"y","label":"Sent"},{"id":"z","label":"Drafts"}]}}}"#)
            _ = barrier()
            clock.advance(milliseconds: 1_000)
            _ = barrier()
        }

        func line(_ client: ClientID, _ number: Int, _ json: String) {
            runner.send(.clientLine(client, line: number, bytes: Array(json.utf8)))
        }

        /// App "a"'s lines `first…` `first + count - 1`: each relabels a row.
        func flood(from first: Int, count: Int) {
            for k in first..<(first + count) {
                line("a", k, #"{"type":"set","id":"y","label":"Sent \#(k)"}"#)
            }
        }

        /// Everything sent so far handled; the session's state then.
        func barrier() -> SessionSnapshot? {
            let box = Mutex<SessionSnapshot?>(nil)
            let handled = DispatchSemaphore(value: 0)
            runner.send(.mark { s in
                box.withLock { $0 = s }
                handled.signal()
            })
            guard handled.wait(timeout: .now() + 10) == .success else { return nil }
            return box.withLock { $0 }
        }

        /// Holds the runner (in a mark, at the end of a round) while `body` sends, so that all
        /// it sends is taken into one round.
        func oneRound(_ body: () -> Void) {
            let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
            runner.send(.mark { _ in
                held.signal()
                release.wait()
            })
            held.wait()
            body()
            release.signal()
        }

        /// Sends `input` from a thread of its own and returns once it is sent (a display's key
        /// reader, the terminal).
        func sendFromAnotherThread(_ input: LiveInput) {
            let sent = DispatchSemaphore(value: 0)
            Thread { [runner] in
                runner.send(input)
                sent.signal()
            }.start()
            sent.wait()
        }

        func stop() {
            runner.send(.quit)
            _ = done.wait(timeout: .now() + 10)
        }

        /// What the runner applied, in its order, with its times (the recording).
        func recorded() throws -> [(time: Int, input: RecordedInput)] {
            try RecordedInput.read(try String(contentsOfFile: recordPath, encoding: .utf8), file: recordPath)
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }
    }

    final class LineLog: Sendable {
        /// Called on the runner thread after each client line is handled.
        let onLine = Mutex<(@Sendable (ClientID) -> Void)?>(nil)
        /// The clients whose lines were handled, in order.
        let lines = Mutex<[ClientID]>([])
    }

    /// The lines of app "a" numbered `range` in `recorded`, and where each is.
    static func positions(of range: Range<Int>, client: ClientID = "a",
                          in recorded: [(time: Int, input: RecordedInput)]) -> [(index: Int, number: Int)] {
        recorded.enumerated().compactMap { i, r in
            if case .line(client, let n, _) = r.input, range.contains(n) { (i, n) } else { nil }
        }
    }

    @Test("a key sent from another thread while a round of 256 lines is applied is applied after at most two of them (all 256 before)")
    func keyWhileARoundIsApplied() throws {
        let r = try Runner()
        defer { r.stop() }
        r.log.onLine.withLock {
            $0 = { [r] c in
                // While the round's first line is handled, the user presses a key.
                guard c == "a", r.log.lines.withLock({ $0.count(where: { $0 == "a" }) }) == 3 else { return }
                r.sendFromAnotherThread(.session(.command(.next)))
            }
        }
        r.oneRound { r.flood(from: 10, count: 256) }
        let isKey: ((time: Int, input: RecordedInput)) -> Bool = { if case .key(.next, _) = $0.input { true } else { false } }
        #expect(waitUntil { ((try? r.recorded()) ?? []).contains(where: isKey) }, "the key was applied")
        // Sent once the key is applied, the barrier comes after every line of the round.
        #expect(r.barrier() != nil)
        let recorded = try r.recorded()
        let flood = Self.positions(of: 10..<266, in: recorded)
        try #require(flood.count == 256)
        let key = try #require(recorded.firstIndex(where: isKey))
        let before = flood.count { $0.index < key }
        #expect(before >= 1 && before <= 2, "the key was applied after \(before) of the round's 256 lines")
        #expect(flood.map(\.number) == Array(10..<266), "the app's lines in their order")
    }

    @Test("another client's line read in the same round as 256 of one app's is applied within the first two; the app's keep their order")
    func clientsTakeTurns() throws {
        let r = try Runner()
        defer { r.stop() }
        r.oneRound {
            r.flood(from: 10, count: 256)
            r.line("b", 2, #"{"type":"command","command":"next"}"#)
        }
        #expect(r.barrier()?.focus == "y", "the controller's next moved focus")
        let recorded = try r.recorded()
        let flood = Self.positions(of: 10..<266, in: recorded)
        let b = Self.positions(of: 2..<3, client: "b", in: recorded)
        try #require(flood.count == 256 && b.count == 1)
        let before = flood.count { $0.index < b[0].index }
        #expect(before <= 1, "the controller's line was applied after \(before) of the app's lines")
        #expect(flood.map(\.number) == Array(10..<266), "the app's lines in their order")
    }

    @Test("a mark, a quit: each takes effect once everything sent before it is applied, however the rounds are ordered")
    func barriersSeeEverythingBefore() throws {
        let r = try Runner()
        let atMarks = Mutex<[Int]>([])
        let floodHandled: @Sendable () -> Int = { [r] in r.log.lines.withLock { $0.count(where: { $0 == "a" }) } - 2 }
        let mark = LiveInput.mark { _ in atMarks.withLock { $0.append(floodHandled()) } }
        r.log.onLine.withLock {
            $0 = { [r] c in
                // While the round's first line is handled, another thread sends 128 more lines
                // and a mark: they are not the round's, and the mark waits for those lines too,
                // not only for the round.
                guard c == "a", floodHandled() == 1 else { return }
                let sent = DispatchSemaphore(value: 0)
                Thread { [r] in
                    r.flood(from: 138, count: 128)
                    r.runner.send(mark)
                    sent.signal()
                }.start()
                sent.wait()
            }
        }
        r.oneRound {
            r.flood(from: 10, count: 128)
            r.runner.send(mark)
            r.runner.send(.command(.next))
        }
        #expect(waitUntil { atMarks.withLock { $0.count } == 2 }, "both marks were called")
        #expect(atMarks.withLock { $0 } == [128, 256], "the marks saw \(atMarks.withLock { $0 }) of the app's lines")

        r.log.onLine.withLock { $0 = nil }
        r.oneRound {
            r.flood(from: 300, count: 128)
            r.runner.send(.command(.next))
            r.runner.send(.quit)
            r.flood(from: 428, count: 10)
        }
        #expect(r.done.wait(timeout: .now() + 10) == .success, "the runner stopped")
        let recorded = try r.recorded()
        let stop = try #require(recorded.firstIndex { $0.input == .stop })
        let before = Self.positions(of: 300..<438, in: recorded).filter { $0.index < stop }
        #expect(before.map(\.number) == Array(300..<428), "the quit came after 128 lines: all of them are applied, none after")
        #expect(Self.positions(of: 300..<438, in: recorded).count == 128)
    }

    @Test("the recording of a fair round keeps its order and its times, never going back, and replays to the live transcript")
    func recordingReplays() throws {
        let r = try Runner()
        r.log.onLine.withLock {
            $0 = { [r] c in
                guard c == "a", r.log.lines.withLock({ $0.count(where: { $0 == "a" }) }) == 3 else { return }
                // Time passes while the round is applied; the key that comes meanwhile is
                // applied at the round's time, as its recording says.
                r.clock.advance(milliseconds: 5)
                r.sendFromAnotherThread(.session(.command(.next)))
            }
        }
        r.oneRound {
            r.flood(from: 10, count: 64)
            r.line("b", 2, #"{"type":"command","command":"next"}"#)
            r.flood(from: 74, count: 64)
        }
        _ = r.barrier()
        r.clock.advance(milliseconds: 500)
        _ = r.barrier()
        r.stop()
        let recorded = try r.recorded()
        let times = recorded.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "times go back: \(times)")
        let key = try #require(recorded.first { if case .key(.next, _) = $0.input { true } else { false } })
        let flood = Self.positions(of: 10..<138, in: recorded)
        #expect(key.time == recorded[flood[0].index].time, "the key has its round's time")

        let sink = RecordingSink()
        _ = try SessionReplay(inputs: recorded, file: r.recordPath, profiles: .shipped, makeTranslator: louisTranslator(for:))
            .run(sink: sink) { (p) throws(Diagnostic) in throw Diagnostic(file: p, line: nil, path: "", message: "no catalog") }
        let live = r.records.records.map { Transcript.line(for: $0.record, at: $0.time).json }
        let replayed = sink.records.map { Transcript.line(for: $0.record, at: $0.time).json }
        #expect(replayed == live, "the replay differs from the live session")
        #expect(live.contains { $0.contains(#""ch":"braille""#) && $0.contains("Drafts") }, "the two keys' focus reached the display")
    }
}

/// The same through `tandem serve`'s stack: a real socket, the hosted server, the runner.
@Suite("hostile clients: fair rounds over the socket", .serialized)
struct FairServeTests {
    @Test("a controller's command sent while a flood of 256 lines is applied is read and applied before the flood's round ends")
    func commandDuringAFlood() throws {
        let folder = try temporaryDirectory(prefix: "tandem-fair-serve")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let profile = try ProfileStore.shipped.load("headless").0
        let (session, service) = Service.start(profile: profile, catalog: nil, sink: RecordingSink(), timing: .virtual,
                                               makeTranslator: louisTranslator(for:))
        let runner = LiveRunner(session: session, keyMap: profile.keyMap)
        runner.service = service
        let host = try ServeHost(runner: runner, options: ControlSocket.Options(path: folder + "/tandem.sock"))
        let app = try RawSocketClient(path: host.socket.path)
        let controller = try RawSocketClient(path: host.socket.path)

        // Every line handled, in order; at the flood's first, the controller sends its command
        // and the line takes a few milliseconds more (a line that costs that much), so the host
        // is read before the next.
        let handled = Mutex<[ClientID]>([])
        let flooding = Atomic<Bool>(false)
        let processed = runner.hooks.lineHandled
        runner.hooks.lineHandled = { c in
            processed?(c)
            handled.withLock { $0.append(c) }
            if c == ClientID(1) && flooding.exchange(false, ordering: .sequentiallyConsistent) {
                controller.send(#"{"type":"command","command":"next"}"#)
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        let done = runner.startThread()
        defer {
            runner.send(.quit)
            _ = done.wait(timeout: .now() + 10)
            host.finish()
        }

        app.send(#"{"type":"hello","v":1,"role":"app","name":"Flood"}"#)
        #expect(app.readLine()?.contains("welcome") == true)
        controller.send(#"{"type":"hello","v":1,"role":"controller"}"#)
        #expect(controller.readLine()?.contains("welcome") == true)
        app.send(#"{"type":"screen","id":1,"screen":{"id":"s","root":{"id":"r","children":[{"id":"x","label":"Inbox"},{"id":"y","label":"Sent"}]}}}"#)
        #expect(app.readLine { $0.contains(#""type":"ack""#) } != nil)
        let setUp = handled.withLock { $0.count }

        // 256 lines in one write: one read of the socket, one round.
        flooding.store(true, ordering: .sequentiallyConsistent)
        let flood = (0..<256).map { #"{"type":"set","id":"y","label":"Sent \#($0)"}"# + "\n" }.joined()
        #expect(app.write(Array(flood.utf8)))
        #expect(waitUntil(timeout: .seconds(20)) { handled.withLock { $0.count } == setUp + 257 }, "every line handled")
        let order = Array(handled.withLock { $0 }[setUp...])
        let command = try #require(order.firstIndex(of: ClientID(2)))
        #expect(command <= 2, "the controller's command was applied after \(command) of the flood's 256 lines")
    }
}
