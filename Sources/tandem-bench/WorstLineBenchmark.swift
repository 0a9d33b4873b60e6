import Foundation
import Glibc
import TandemModel
import TandemSession
import TandemPOSIX

/// `tandem-bench hostile worst [SHAPE]`: the single lines within the limits (a line of
/// `maxLine`, 1 MiB; `maxUpdateNodes` 8,192; `maxElements` 50,000; `maxDepth` 250 —
/// Docs/protocol.md#limits; each line filled to the first it meets) that cost
/// the session thread most, each sent once to a service set up for it, in-process as `tandem
/// serve`'s session thread applies it (Docs/reliability.md#line-bound). For each shape: the
/// wall time and the thread's own CPU time (`CLOCK_THREAD_CPUTIME_ID`: the service's work, not
/// other processes' load) of that one line, median and max of the runs, and the load average
/// beside each run.
enum WorstLineBenchmark {
    /// The longest line a client may send (`maxLine`, without its newline).
    static let maxLine = 1 << 20
    static let rows = 49_990
    /// The most nodes plus edited ids an update may carry.
    static let cap = Screen.maxUpdateNodes

    /// One line each, on the screen its setup leaves.
    enum Shape: String, CaseIterable {
        /// 32 chains 249 deep under one element (the chains of `tandem-bench hostile`).
        case chains
        /// As many new rows with frames as fit, added to a sorted screen already holding the
        /// rest of the element limit with frames: the update is also a whole build.
        case addRows
        /// Every row of a 49,990-row sorted screen relabelled in one update (as many as fit).
        case relabel
        /// As many rows as fit given a new frame (each to another place in the order).
        case moveRows
        /// A `screen` of as many labelled rows with frames as fit, replacing a small one.
        case screen
        /// A `screen` of as many minimal elements as fit (`maxElements`).
        case screenBare
        /// `set` `hidden` false on the container of 49,990 rows, hidden until then.
        case showAll
        /// One edit removing as many of a 49,990-child list's children as fit, the last first.
        case removeMany
        /// As many edits as fit, each moving one child of a 49,990-child list to its front.
        case editsToFront
        /// The 49,990-child list sent whole, reversed.
        case wholeListReversed
        /// As many chains 248 deep as fit, under a row of a screen holding the rest of the limit.
        case chainsOnBig
        /// One row added (an edit) to the 49,990 rows: a small line, for what an update that
        /// adds an element costs on a full screen whatever its size.
        case addOneRow
        /// A whole 1 MiB line relabelling 32,447 of the 49,990 rows, refused by
        /// `maxUpdateNodes`: what the refusal costs (its parsing).
        case refusedNodes
        /// A whole 1 MiB line of 13,796 edits moving a row each, refused by `maxUpdateNodes`.
        case refusedEdits

        /// Whether the line is over a limit: measured for its refusal.
        var refused: Bool { self == .refusedNodes || self == .refusedEdits }
    }

    static func run(only name: String?, runs: Int = 5) -> String {
        var lines = ["hostile worst: one line within the limits, wall and the session thread's CPU (ms; median and max of \(runs))"]
        for shape in Shape.allCases where name == nil || shape.rawValue == name {
            var wall: [UInt64] = [], cpu: [UInt64] = [], loads: [String] = []
            var bytes = 0
            for _ in 0..<runs {
                let r = measure(shape)
                wall.append(r.wall); cpu.append(r.cpu); loads.append(r.load); bytes = r.bytes
            }
            let w = wall.sorted(), c = cpu.sorted()
            lines.append("  \(shape.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)) wall \(ms(w[w.count / 2])) (max \(ms(w.last!))), cpu \(ms(c[c.count / 2])) (max \(ms(c.last!))) — \(bytes) bytes; load \(loads.joined(separator: " / "))")
        }
        return lines.joined(separator: "\n")
    }

    /// The calling thread's CPU time in ns.
    static func threadCPU() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    static func loadAverage() -> String {
        guard let s = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "?" }
        return s.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// Sets `shape` up in a new service, then sends its line once.
    static func measure(_ shape: Shape) -> (wall: UInt64, cpu: UInt64, load: String, bytes: Int) {
        var app = HostileBenchmark.App()
        let line = Array(setUp(shape, &app).utf8)
        precondition(line.count <= maxLine, "the \(shape) line is \(line.count) bytes, over maxLine")
        let load = loadAverage()
        app.line += 1
        let perf = PerfControl()
        perf?.send("enable")
        let c0 = threadCPU(), w0 = Monotonic.now()
        app.core.apply(.clientLine("app", line: app.line, bytes: line), at: app.now)
        let w1 = Monotonic.now(), c1 = threadCPU()
        perf?.send("disable")
        var refusal: String?
        for item in app.core.takeOutbox() {
            if case .send(_, .error(let e)) = item {
                guard shape.refused, e.message.contains("(maxUpdateNodes)") else { fatalError("the \(shape) line was refused: \(e)") }
                refusal = e.message
            }
        }
        precondition(!shape.refused || refusal != nil, "the \(shape) line was not refused")
        return (w1 - w0, c1 - c0, load, line.count)
    }

    /// `prefix` + as many of `item(0)`, `item(1)`, … joined by commas as keep the line within
    /// `maxLine` (at most `limit`) + `suffix`.
    static func fill(_ prefix: String, _ suffix: String, limit: Int, _ item: (Int) -> String) -> String {
        var out = prefix
        var size = prefix.utf8.count + suffix.utf8.count
        for k in 0..<limit {
            let s = item(k)
            let add = s.utf8.count + (k == 0 ? 0 : 1)
            if size + add > maxLine { break }
            if k > 0 { out += "," }
            out += s
            size += add
        }
        return out + suffix
    }

    static func row(_ k: Int, label: String? = nil, y: Int? = nil) -> String {
        #"{"id":"r\#(k)","label":"\#(label ?? "Row \(k)")","frame":[0,\#((y ?? k) * 44),390,44]}"#
    }

    /// A screen whose root holds one container "list" of `count` rows with frames (one sorted
    /// scope), sent as a `screen` and updates of 8,000 rows (within `maxUpdateNodes`).
    static func bigList(_ app: inout HostileBenchmark.App, count: Int, hidden: Bool = false, more: Bool = false) {
        app.send(#"{"type":"screen","screen":{"id":"big","root":{"id":"root","children":[{"id":"top","label":"Top","frame":[0,0,390,44]},{"id":"list","hidden":\#(hidden)}\#(more ? #",{"id":"more"}"# : "")]}}}"#)
        var ids: [String] = []
        for start in stride(from: 0, to: count, by: 8_000) {
            let end = min(count, start + 8_000)
            ids += (start..<end).map { "\"r\($0)\"" }
            let nodes = (start..<end).map { row($0) }
            app.send(#"{"type":"update","nodes":[{"id":"list","hidden":\#(hidden),"children":["# + ids.joined(separator: ",") + "]}," + nodes.joined(separator: ",") + "]}")
        }
        precondition(app.session.navigator.screen.liveCount == count + (more ? 4 : 3), "the benchmark's screen was refused")
    }

    static func setUp(_ shape: Shape, _ app: inout HostileBenchmark.App) -> String {
        switch shape {
        case .chains:
            app.send(#"{"type":"screen","screen":{"id":"deep","root":{"id":"root","children":[{"id":"top","label":"T"}]}}}"#)
            return HostileBenchmark.updateLine(chains: HostileBenchmark.cappedChains, depth: 249)
        case .addRows:
            // As many new rows as fit in one line decide how many the screen holds already.
            let base = 100_000
            var size = #"{"type":"update","nodes":[{"id":"more","children":[]}]}"#.utf8.count
            var n = 0
            while n < cap - 1 {  // "more" is a node too
                let add = "\"r\(base + n)\"".utf8.count + row(base + n).utf8.count + 2
                if size + add > maxLine { break }
                size += add; n += 1
            }
            bigList(&app, count: Screen.maxElements - 4 - n, more: true)
            let ids = (base..<(base + n)).map { "\"r\($0)\"" }.joined(separator: ",")
            // The new rows fall between the old ones.
            let nodes = (0..<n).map { #"{"id":"r\#(base + $0)","label":"Row \#(base + $0)","frame":[0,\#($0 * 44 + 22),390,44]}"# }
            return #"{"type":"update","nodes":[{"id":"more","children":["# + ids + "]}," + nodes.joined(separator: ",") + "]}"
        case .relabel:
            bigList(&app, count: rows)
            return fill(#"{"type":"update","nodes":["#, "]}", limit: cap) { k in #"{"id":"r\#(k)","label":"N\#(k)"}"# }
        case .refusedNodes:
            bigList(&app, count: rows)
            return fill(#"{"type":"update","nodes":["#, "]}", limit: rows) { k in #"{"id":"r\#(k)","label":"N\#(k)"}"# }
        case .moveRows:
            bigList(&app, count: rows)
            // Row k goes where row rows-1-k was: the order reverses for the rows given.
            return fill(#"{"type":"update","nodes":["#, "]}", limit: cap) { k in row(k, y: rows - 1 - k) }
        case .screen:
            app.send(#"{"type":"screen","screen":{"id":"big","root":{"id":"root","children":[{"id":"top","label":"T"}]}}}"#)
            return fill(#"{"type":"screen","screen":{"id":"big","root":{"id":"root","children":["#, "]}}}", limit: Screen.maxElements - 1) { k in
                #"{"id":"\#(k)","label":"\#(k)","frame":[0,\#(k),1,1]}"#
            }
        case .screenBare:
            app.send(#"{"type":"screen","screen":{"id":"big","root":{"id":"root","children":[{"id":"top","label":"T"}]}}}"#)
            return fill(#"{"type":"screen","screen":{"id":"big","root":{"id":"root","children":["#, "]}}}", limit: Screen.maxElements - 1) { k in
                #"{"id":"\#(k)","label":"x"}"#
            }
        case .showAll:
            bigList(&app, count: rows, hidden: true)
            return #"{"type":"set","id":"list","hidden":false}"#
        case .removeMany:
            bigList(&app, count: rows)
            return fill(#"{"type":"update","edits":[{"parent":"list","remove":["#, "]}]}", limit: cap) { k in "\"r\(rows - 1 - k)\"" }
        case .editsToFront, .refusedEdits:
            bigList(&app, count: rows)
            // Each edit moves the last row to the front: every one scans and shifts the list.
            return fill(#"{"type":"update","edits":["#, "]}", limit: shape == .refusedEdits ? rows - 1 : cap / 2) { k in
                #"{"parent":"list","remove":["r\#(rows - 1 - k)"],"insert":["r\#(rows - 1 - k)"],"before":"r\#(k == 0 ? 0 : rows - k)"}"#
            }
        case .wholeListReversed:
            bigList(&app, count: rows)
            return #"{"type":"update","nodes":[{"id":"list","children":["# + (0..<rows).reversed().map { "\"r\($0)\"" }.joined(separator: ",") + "]}]}"
        case .addOneRow:
            bigList(&app, count: rows)
            return #"{"type":"update","nodes":[\#(row(60_000, y: 3))],"edits":[{"parent":"list","insert":["r60000"],"after":"r0"}]}"#
        case .chainsOnBig:
            // As many chains as deep as allowed (the row is 2 below the root) as fit in the
            // line, under a row of a screen holding the rest of the element limit.
            let depth = Screen.maxDepth - 2
            var kids: [String] = [], nodes: [String] = []
            var size = #"{"type":"update","nodes":[{"id":"r5","label":"Row 5","frame":[0,220,390,44],"children":[]}]}"#.utf8.count
            var chains = 0
            while (chains + 1) * depth + 1 <= cap {
                let c = chains
                let chain = (0..<depth).map { i in
                    #"{"id":"c\#(c)x\#(i)","label":"D"\#(i < depth - 1 ? #","children":["c\#(c)x\#(i + 1)"]"# : "")}"#
                }
                let add = chain.reduce(0) { $0 + $1.utf8.count + 1 } + "\"c\(c)x0\"".utf8.count + 1
                if size + add > maxLine { break }
                size += add; chains += 1
                kids.append("\"c\(c)x0\""); nodes += chain
            }
            bigList(&app, count: Screen.maxElements - 3 - chains * depth)
            return #"{"type":"update","nodes":[{"id":"r5","label":"Row 5","frame":[0,220,390,44],"children":["# + kids.joined(separator: ",") + "]}," + nodes.joined(separator: ",") + "]}"
        }
    }

    static func ms(_ ns: UInt64) -> String { String(format: "%.1f", Double(ns) / 1e6) }
}

/// `perf record -D -1 --control=fifo:CTL,ACK` sampling only the measured line: with
/// `TANDEM_BENCH_PERF_CTL` and `TANDEM_BENCH_PERF_ACK` naming those fifos, the benchmark
/// enables the events just before the line and disables them after it (the setups, which
/// cost more than the line, stay out of the profile).
struct PerfControl {
    let ctl: Int32, ack: Int32

    init?() {
        guard let c = ProcessInfo.processInfo.environment["TANDEM_BENCH_PERF_CTL"],
              let a = ProcessInfo.processInfo.environment["TANDEM_BENCH_PERF_ACK"] else { return nil }
        ctl = open(c, O_WRONLY)
        ack = open(a, O_RDONLY)
        guard ctl >= 0, ack >= 0 else { return nil }
    }

    func send(_ command: String) {
        let bytes = Array((command + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(ctl, $0.baseAddress, $0.count) }
        var buffer = [UInt8](repeating: 0, count: 16)
        _ = buffer.withUnsafeMutableBytes { read(ack, $0.baseAddress, $0.count) }
    }
}
