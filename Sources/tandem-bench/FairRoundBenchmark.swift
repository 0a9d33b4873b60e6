import Foundation
import Synchronization
import TandemModel
import TandemOutputs
import TandemPOSIX
import TandemPresentation
import TandemService
import TandemSession
import TandemVocabulary

/// `tandem-bench hostile fair`: how long a key waits behind one client's round of 256 costly
/// lines, through the live runner as `tandem serve` runs it (Docs/reliability.md#fair-rounds),
/// and what the costliest single lines cost the session thread, in wall time and in the
/// thread's own CPU time (`CLOCK_THREAD_CPUTIME_ID`: what another process takes from the core
/// is not the service's work).
///
/// Each round: a screen at the element limit (`HostileBenchmark.bigScreen`'s), the runner held
/// in a mark while the 256 lines are queued (so they are one round, as one read of the socket
/// hands them on), then released. When the round's first line has been handled, a display key
/// and a controller's `command` line are sent: the key's wait is from then to its handling's
/// start (its `key` event), the command's to its handling's end; the round's, from the release
/// to its last line handled.
enum FairRoundBenchmark {
    /// The rounds measured: the costliest of `tandem-bench hostile modal`, and four sections
    /// hidden in rotation (each line re-forms 12,498 rows: a shape the kept orders do not cover).
    enum Shape: CaseIterable {
        case hiddenModal, twoSectionsOverlapping, farRows, fourSections

        var name: String {
            switch self {
            case .hiddenModal: "set hidden on a modal (its first closing builds 50,000)"
            case .twoSectionsOverlapping: "set hidden, two sections overlapping"
            case .farRows: "update, the first and the last row moved"
            case .fourSections: "set hidden, four sections in rotation"
            }
        }

        var lines: [String] {
            switch self {
            case .hiddenModal: HostileBenchmark.roundLines(.hiddenModal)
            case .twoSectionsOverlapping: HostileBenchmark.roundLines(.twoSectionsOverlapping)
            case .farRows: HostileBenchmark.roundLines(.farRows)
            // s0 hidden, s1 hidden, s2 hidden, s3 hidden, s0 shown, …, s3 shown, s0 hidden, …
            case .fourSections: (0..<256).map { k in #"{"type":"set","id":"s\#(k % 4)","hidden":\#((k / 4) % 2 == 0)}"# }
            }
        }
    }

    /// The calling thread's CPU time, ns.
    static func threadCPU() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Wall and CPU ns.
    struct Cost {
        var wall: UInt64 = 0
        var cpu: UInt64 = 0
    }

    struct Round {
        var round = Cost()
        /// A display key sent at the end of the round's first line: from its sending to its
        /// handling's start (its `key` event).
        var keyWait = Cost()
        /// The round's lines handled before the key.
        var linesBeforeKey = 0
        /// A controller's `command` line sent at the same moment: from its sending to its
        /// handling's end.
        var commandWait = Cost()
        var linesBeforeCommand = 0
        /// The costliest of the round's lines (the key's and the command's own work left out,
        /// but for what the key does after its event).
        var costliestLine = Cost()
    }

    /// What the runner thread notes: each line's end, the key's handling.
    final class Watch: OutputSink, Sendable {
        struct State {
            var flooding = false
            var lines = 0
            var last = Cost()
            var costliest = Cost()
            var sent: Cost?
            var keyHandled: Cost?
            var linesBeforeKey = 0
            var commandHandled: Cost?
            var linesBeforeCommand = 0
            var start = Cost()
            var roundEnd = Cost()
        }
        let state = Mutex(State())

        func emit(_ record: Record, at time: Int) {
            guard case .event(let e) = record, e.type == "key" else { return }
            let now = Cost(wall: Monotonic.now(), cpu: FairRoundBenchmark.threadCPU())
            state.withLock { s in
                guard s.flooding, s.keyHandled == nil else { return }
                s.keyHandled = now
                s.linesBeforeKey = s.lines
                // The next line is timed from here: what the key did before its event is not
                // the line's (what it does after is counted in it, a few ms at most).
                s.last = now
            }
        }

        /// After each line; true when the key and the command are to be sent (the round's first line).
        func lineHandled(_ client: ClientID) -> Bool {
            let now = Cost(wall: Monotonic.now(), cpu: FairRoundBenchmark.threadCPU())
            return state.withLock { s in
                guard s.flooding else { return false }
                if client == FairRoundBenchmark.controller {
                    s.commandHandled = now
                    s.linesBeforeCommand = s.lines
                    s.last = now
                    return false
                }
                s.lines += 1
                s.costliest.wall = max(s.costliest.wall, now.wall - s.last.wall)
                s.costliest.cpu = max(s.costliest.cpu, now.cpu - s.last.cpu)
                s.last = now
                s.roundEnd = now
                if s.lines == 1 {
                    s.sent = now
                    return true
                }
                return false
            }
        }
    }

    static let controller: ClientID = "ctl"

    static func round(_ shape: Shape) -> Round {
        let watch = Watch()
        let (session, service) = Service.start(profile: Profile(), catalog: nil, sink: watch, timing: .virtual,
                                               makeTranslator: SizeBenchmark.translator)
        let runner = LiveRunner(session: session)
        runner.service = service
        let refused = Mutex<[String]>([])
        runner.hooks.deliver = { items in
            for item in items { if case .send(_, .error(let e)) = item { refused.withLock { $0.append("\(e)") } } }
        }
        runner.hooks.lineHandled = { [weak runner] c in
            if watch.lineHandled(c) {
                runner?.send(.command(.next))
                runner?.send(.clientLine(controller, line: 2, bytes: Array(#"{"type":"command","command":"next"}"#.utf8)))
            }
        }
        let done = runner.startThread(stackSize: 16 << 20)
        _ = runner.waitForStart()

        // The screen, through the runner (`bigScreen` on a session of its own gives the lines).
        var line = 1
        func send(_ json: String) {
            runner.send(.clientLine("app", line: line, bytes: Array(json.utf8)))
            line += 1
        }
        func barrier() {
            let handled = DispatchSemaphore(value: 0)
            runner.send(.mark { _ in handled.signal() })
            handled.wait()
        }
        runner.send(.clientConnected("app"))
        send(#"{"type":"hello","v":1,"role":"app","name":"Flood"}"#)
        runner.send(.clientConnected(controller))
        runner.send(.clientLine(controller, line: 1, bytes: Array(#"{"type":"hello","v":1,"role":"controller"}"#.utf8)))
        for l in HostileBenchmark.bigScreenLines(sheetModal: shape == .hiddenModal) { send(l) }
        barrier()

        // The runner held at the end of a round while the lines are queued; on its release,
        // on its own thread, the round's start is noted (its CPU clock is that thread's).
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        runner.send(.mark { _ in
            held.signal()
            release.wait()
            let now = Cost(wall: Monotonic.now(), cpu: threadCPU())
            watch.state.withLock {
                $0.flooding = true
                $0.start = now
                $0.last = now
            }
        })
        held.wait()
        for l in shape.lines { send(l) }
        release.signal()
        barrier()
        runner.send(.quit)
        done.wait()

        let s = watch.state.withLock { $0 }
        _ = line
        precondition(refused.withLock { $0.isEmpty }, "the benchmark's lines were refused: \(refused.withLock { $0.prefix(3) })")
        precondition(s.lines == 256 && s.keyHandled != nil && s.commandHandled != nil, "the round, its key or its command was not handled")
        var r = Round()
        r.round = Cost(wall: s.roundEnd.wall - s.start.wall, cpu: s.roundEnd.cpu - s.start.cpu)
        r.keyWait = Cost(wall: s.keyHandled!.wall - s.sent!.wall, cpu: s.keyHandled!.cpu - s.sent!.cpu)
        r.linesBeforeKey = s.linesBeforeKey
        r.commandWait = Cost(wall: s.commandHandled!.wall - s.sent!.wall, cpu: s.commandHandled!.cpu - s.sent!.cpu)
        r.linesBeforeCommand = s.linesBeforeCommand
        r.costliestLine = s.costliest
        return r
    }

    /// The largest update of chains allowed (`maxUpdateNodes`; `HostileBenchmark.time(chains:depth:)`'s),
    /// wall and the session thread's CPU.
    static func largestUpdate() -> Cost {
        var app = HostileBenchmark.App()
        app.send(#"{"type":"screen","screen":{"id":"deep","root":{"id":"root","children":[{"id":"top","label":"T"}]}}}"#)
        let line = HostileBenchmark.updateLine(chains: HostileBenchmark.cappedChains, depth: 249)
        let cpu = threadCPU()
        let wall = app.send(line)
        return Cost(wall: wall, cpu: threadCPU() - cpu)
    }

    static func run(runs: Int = 3) -> String {
        var out = ["hostile fair: a key behind one client's round of 256 lines on 50,000 elements, through the live runner (\(runs) runs: median / max; wall, then the session thread's CPU)"]
        func mm(_ xs: [UInt64]) -> String {
            let s = xs.sorted()
            return "\(HostileBenchmark.ms(s[s.count / 2])) / \(HostileBenchmark.ms(s.last!))"
        }
        let updates = (0..<5).map { _ in largestUpdate() }
        out.append("  the largest update (\(HostileBenchmark.cappedChains) chains × 249, 5 runs)  wall \(mm(updates.map(\.wall))) ms, cpu \(mm(updates.map(\.cpu))) ms")
        for shape in Shape.allCases {
            let rs = (0..<runs).map { _ in round(shape) }
            out.append("  \(shape.name)")
            out.append("    round          wall \(mm(rs.map(\.round.wall))) ms, cpu \(mm(rs.map(\.round.cpu))) ms")
            out.append("    a display key  wall \(mm(rs.map(\.keyWait.wall))) ms, cpu \(mm(rs.map(\.keyWait.cpu))) ms to its handling, after \(rs.map(\.linesBeforeKey).map(String.init).joined(separator: ", ")) of the round's lines")
            out.append("    a controller's command  wall \(mm(rs.map(\.commandWait.wall))) ms, cpu \(mm(rs.map(\.commandWait.cpu))) ms to its end, after \(rs.map(\.linesBeforeCommand).map(String.init).joined(separator: ", ")) of the round's lines")
            out.append("    costliest line wall \(mm(rs.map(\.costliestLine.wall))) ms, cpu \(mm(rs.map(\.costliestLine.cpu))) ms")
        }
        return out.joined(separator: "\n")
    }
}
