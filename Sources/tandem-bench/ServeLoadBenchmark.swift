import Foundation
import Synchronization
import TandemOutputs
import TandemPOSIX

/// `tandem-bench serve-load`: a real `tandem serve` (the `tandem` built beside this binary, in
/// a process of its own) under an app's stream of changes and many clients, over its socket
/// (Docs/benchmarks.md#serve-load).
///
/// - an app publishes an `AppScreen` of `elements` elements (a `screen` and, past the service's
///   line limit, `update`s that add the rest) and then sends `updatesPerSecond`
///   `set`s of a stepper's value a second (rotating over every product), reading what it gets;
/// - `readers` controllers subscribe to the whole transcript and read it;
/// - one controller navigates (`next` ×40 then `previous` ×40, again and again, a command every
///   `commandGapMs` once the last one was said) and times, from writing each command, the
///   transcript's `key` event for it and then its focus speech line (`"ch":"speech"`,
///   `"src":"focus"`): client → socket → runner → policy → transcript → socket → client;
/// - after the first quarter of the measured time, one more controller subscribes, asks for
///   `status` 100 times a second and never reads again. The latencies before and after it
///   came are reported side by side;
/// - `tandem serve`'s resident memory (`VmRSS`) is read once a second.
///
/// Speech goes to `speechAddress` (default: a socket nobody listens on, so speech is timed by
/// estimate as in headless runs); the profile is `headless`. With `pin`, `tandem serve` has
/// CPU 0 to itself and the benchmark runs on the others.
enum ServeLoadBenchmark {
    struct Options {
        var elements = 10_000
        var updatesPerSecond = 1_000
        var readers = 8
        /// Measured time, after `warmUpSeconds`.
        var seconds = 60.0
        var warmUpSeconds = 5.0
        var commandGapMs = 20
        var speechAddress: String?
        /// `tandem serve` on CPU 0 alone, every thread of the benchmark on the others: its
        /// latency apart from the load generator's (which a machine of two cores otherwise
        /// shares with it).
        var pin = false
        /// A folder to keep the SSIP trace (`ssip-trace.txt`) and each command's time
        /// (`commands.tsv`) in, to take a run's slowest commands apart afterwards.
        var keep: String?
        /// `tandem serve --realtime` (its threads SCHED_FIFO: the benchmark runs as root, or
        /// with an rtprio limit).
        var realtime = false
    }

    /// A flag and counters the client threads share with the main one.
    final class Shared: Sendable {
        let stop = Atomic<Bool>(false)
        let updatesSent = Atomic<Int>(0)
        let appErrors = Atomic<Int>(0)
        let readersClosed = Atomic<Int>(0)
        let readerBytes = Atomic<Int>(0)
        let stalledStatuses = Atomic<Int>(0)
        /// When the stalled client found its connection closed (monotonic ns), 0 while open.
        let stalledClosedAt = Atomic<UInt64>(0)
    }

    /// One timed command.
    struct Sample {
        var phase: Int
        /// Where in the walk (`next` ×40, `previous` ×40) the command was: 0…79.
        var position = 0
        var key: UInt64?
        var speech: UInt64?
        /// With an SSIP proxy: to the focus connection's `SPEAK` passing it, and that less the
        /// time speech-dispatcher took to answer the commands before it (Tandem's own share).
        var speak: UInt64?
        var own: UInt64?
        /// When the command was written (monotonic ns).
        var sent: UInt64 = 0
        /// Tandem's own share on its own clock (`ownShare(sent:focus:)`).
        var ownTraced: UInt64?
    }

    /// Tandem's own share of one command, from `tandem serve`'s SSIP trace (`TANDEM_SSIP_TRACE`,
    /// CLOCK_MONOTONIC as the benchmark's): from the command's write to the focus connection's
    /// next `SPEAK` written, less the time Tandem waited for that connection's replies
    /// meanwhile. No relay hop is in it. `focus`: the focus connection's entries, in order.
    static func ownShare(sent: UInt64, focus: [SSIPTrace]) -> UInt64? {
        var waits: UInt64 = 0
        var wrote: UInt64?
        // the first entry at or after `sent`, and the write before it if a reply was awaited
        var low = 0, high = focus.count
        while low < high {
            let mid = (low + high) / 2
            if focus[mid].time < sent { low = mid + 1 } else { high = mid }
        }
        var i = low
        if i > 0, focus[i - 1].kind == .wrote { i -= 1 }
        while i < focus.count {
            let t = focus[i]
            i += 1
            switch t.kind {
            case .wrote:
                if t.command == "SPEAK", t.time >= sent { return t.time - sent - min(waits, t.time - sent) }
                wrote = max(t.time, sent)
            case .replied:
                if let w = wrote, t.time > w { waits += t.time - w }
                wrote = nil
            }
        }
        return nil
    }

    /// `--keep DIR`: the SSIP trace as `tandem serve` wrote it, and one line a command —
    /// phase, position, written (monotonic ns), µs to its `key` event, focus speech line and
    /// own share on Tandem's clock (`-` where there is none).
    static func keepRecords(_ samples: [Sample], trace: String, in dir: String) throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        if FileManager.default.fileExists(atPath: trace) {
            try? FileManager.default.removeItem(atPath: dir + "/ssip-trace.txt")
            try FileManager.default.copyItem(atPath: trace, toPath: dir + "/ssip-trace.txt")
        }
        func us(_ v: UInt64?) -> String { v.map { String($0 / 1000) } ?? "-" }
        var text = "phase\tposition\tsent_ns\tkey_us\tspeech_us\town_us\n"
        for s in samples {
            text += "\(s.phase)\t\(s.position)\t\(s.sent)\t\(us(s.key))\t\(us(s.speech))\t\(us(s.ownTraced))\n"
        }
        try text.write(toFile: dir + "/commands.tsv", atomically: true, encoding: .utf8)
    }

    static func run(_ o: Options) throws -> String {
        let tandem = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("tandem").path
        guard FileManager.default.isExecutableFile(atPath: tandem) else {
            throw BenchFailure("no tandem beside tandem-bench (\(tandem)); build it: swift build -c release --product tandem")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-serve-load-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let socketPath = dir + "/control.sock"

        // Pinned: this thread, and every thread it starts from here on, off CPU 0.
        let loadCPUs = Array(1..<max(2, CPUPinning.online))
        if o.pin {
            guard CPUPinning.online >= 2 else { throw BenchFailure("--pin needs two CPUs or more") }
            try CPUPinning.pinCurrentThread(to: loadCPUs)
        }

        // A real speech-dispatcher at a Unix socket is reached through the relay that times SSIP.
        var proxy: SSIPProxy?
        var speech = o.speechAddress ?? "unix_socket:\(dir)/nobody.sock"
        if let address = o.speechAddress, address.hasPrefix("unix_socket:") {
            proxy = try SSIPProxy(path: dir + "/ssip.sock", upstream: String(address.dropFirst("unix_socket:".count)))
            speech = "unix_socket:\(dir)/ssip.sock"
        }

        // tandem serve, its log in a file.
        let serve = Process()
        let tracePath = dir + "/ssip-trace.txt"
        if proxy != nil {
            var environment = ProcessInfo.processInfo.environment
            environment["TANDEM_SSIP_TRACE"] = tracePath
            serve.environment = environment
        }
        serve.executableURL = URL(fileURLWithPath: tandem)
        serve.arguments = ["serve", "--socket", socketPath, "--profile", "headless", "--speech", speech] + (o.realtime ? ["--realtime"] : [])
        _ = FileManager.default.createFile(atPath: dir + "/serve.log", contents: nil)
        serve.standardError = FileHandle(forWritingAtPath: dir + "/serve.log")
        // The child takes the affinity of the thread that starts it.
        if o.pin { try CPUPinning.pinCurrentThread(to: [0]) }
        try serve.run()
        if o.pin { try CPUPinning.pinCurrentThread(to: loadCPUs) }
        defer {
            if serve.isRunning { serve.terminate() }
            serve.waitUntilExit()
        }
        let pid = serve.processIdentifier

        func connect() throws -> SocketClient {
            let until = Monotonic.now() + 10_000_000_000
            while true {
                do { return try SocketClient(path: socketPath) } catch {
                    if Monotonic.now() > until || !serve.isRunning { throw error }
                    usleep(20_000)
                }
            }
        }
        func expect(_ c: SocketClient, _ what: String, timeoutMs: Int = 30_000) throws {
            let until = Monotonic.now() + UInt64(timeoutMs) * 1_000_000
            while Monotonic.now() < until {
                guard let line = c.readLine(timeoutMs: 100) else { if c.closed { break } else { continue } }
                let text = String(decoding: line, as: UTF8.self)
                if text.contains(#""type":"error""#) { throw BenchFailure("tandem serve answered an error: \(text)") }
                if text.contains(what) { return }
            }
            throw BenchFailure("no \(what) from tandem serve")
        }
        func controller(subscribe channels: String?) throws -> SocketClient {
            let c = try connect()
            c.send(#"{"type":"hello","v":1,"role":"controller"}"#)
            try expect(c, #""type":"welcome""#)
            if let channels {
                c.send(#"{"type":"subscribe","id":"s"\#(channels)}"#)
                try expect(c, #""type":"ack""#)
            }
            return c
        }

        // The app and its screen.
        printErr("tandem-bench: serve-load: publishing \(Report.sizeName(o.elements)) elements…")
        let screen = AppScreen(elements: o.elements, layout: .sections)
        let app = try connect()
        app.send(#"{"type":"hello","v":1,"role":"app","name":"Mercado","language":"pt-BR"}"#)
        try expect(app, #""type":"welcome""#)
        // A screen line over the service's maxLine would be refused: the rest comes in updates.
        for line in screen.published(maxBytes: 1_000_000) { app.send(line + [10]) }
        app.send(#"{"type":"status","id":"published"}"#)
        try expect(app, #""type":"status""#)
        let rssWithScreen = memory(pid)

        let shared = Shared()
        var lines: [[UInt8]] = []
        for k in 0..<screen.products {
            for n in [1, 2] { lines.append(AppScreen.set("\(screen.product(k).id).stepper", "value", #""\#(n) no carrinho""#) + [10]) }
        }
        let updateLines = lines
        let appThread = Thread {
            // Every 10 ms, as many lines as are due by then.
            let start = Monotonic.now()
            var sent = 0
            while !shared.stop.load(ordering: .relaxed) {
                let due = Int(Double(Monotonic.now() - start) / 1e9 * Double(o.updatesPerSecond))
                while sent < due {
                    app.send(updateLines[sent % updateLines.count])
                    sent += 1
                }
                shared.updatesSent.store(sent, ordering: .relaxed)
                while let line = app.readLine(timeoutMs: 0) {
                    if String(decoding: line, as: UTF8.self).contains(#""type":"error""#) { shared.appErrors.add(1, ordering: .relaxed) }
                }
                usleep(10_000)
            }
        }
        appThread.start()

        var readerClients: [SocketClient] = []
        for _ in 0..<o.readers { readerClients.append(try controller(subscribe: "")) }
        for r in readerClients {
            Thread {
                var last = 0
                while !shared.stop.load(ordering: .relaxed) {
                    if !r.discard(timeoutMs: 100) { shared.readersClosed.add(1, ordering: .relaxed); return }
                    shared.readerBytes.add(r.bytesRead - last, ordering: .relaxed)
                    last = r.bytesRead
                }
            }.start()
        }

        // The navigating controller, the phases and memory, on this thread.
        let nav = try controller(subscribe: #","channels":["event","speech"]"#)
        printErr("tandem-bench: serve-load: \(o.readers) readers, \(o.updatesPerSecond) updates/s, \(Int(o.warmUpSeconds)) s warm-up and \(Int(o.seconds)) s measured…")
        var samples: [Sample] = []
        var memorySamples: [(seconds: Double, bytes: Int)] = []
        var stalled: SocketClient?
        let begin = Monotonic.now()
        let measureFrom = begin + UInt64(o.warmUpSeconds * 1e9)
        let stallAt = measureFrom + UInt64(o.seconds / 4 * 1e9)
        let end = measureFrom + UInt64(o.seconds * 1e9)
        let cpuAtStart = cpuSeconds(pid)
        var nextMemory = measureFrom
        var step = 0
        var cpuFrom: Double?
        while Monotonic.now() < end {
            let now = Monotonic.now()
            if now >= measureFrom && cpuFrom == nil { cpuFrom = cpuSeconds(pid) }
            if now >= nextMemory, let rss = memory(pid) {
                memorySamples.append((Double(now - measureFrom) / 1e9, rss))
                nextMemory += 1_000_000_000
            }
            if now >= stallAt && stalled == nil {
                let s = try controller(subscribe: "")
                stalled = s
                Thread {
                    while !shared.stop.load(ordering: .relaxed) {
                        if !s.send(#"{"type":"status"}"#) {
                            shared.stalledClosedAt.store(Monotonic.now(), ordering: .relaxed)
                            return
                        }
                        shared.stalledStatuses.add(1, ordering: .relaxed)
                        usleep(10_000)
                    }
                }.start()
            }
            if let proxy {
                // As in speech-latency: every message on the focus connection has begun and
                // settled (Docs/speech.md's start gate holds a CANCEL until then), so only Tandem
                // and the daemon's answers count. Every message: the last command's, and any
                // value the app's sets changed on the focused element meanwhile.
                let until = Monotonic.now() + 2_000_000_000
                while Monotonic.now() < until {
                    guard let begun = proxy.allBegun(component: "focus") else {
                        usleep(500)
                        continue
                    }
                    let settled = begun + 30_000_000, at = Monotonic.now()
                    if at >= settled { break }
                    usleep(UInt32((settled - at) / 1000))
                }
            }
            let phase = now < measureFrom ? 0 : stalled == nil ? 1 : 2
            let command = (step / 40) % 2 == 0 ? "next" : "previous"
            step += 1
            let sent = Monotonic.now()
            guard nav.send(#"{"type":"command","command":"\#(command)"}"#) else { throw BenchFailure("tandem serve closed the controller") }
            var sample = Sample(phase: phase, position: (step - 1) % 80)
            sample.sent = sent
            while sample.speech == nil, let line = nav.readLine(timeoutMs: 2_000) {
                let text = String(decoding: line, as: UTF8.self)
                if sample.key == nil {
                    if text.contains(#""type":"key""#) { sample.key = Monotonic.now() - sent }
                } else if text.contains(#""ch":"speech""#) && text.contains(#""src":"focus""#) && !text.contains(#""op":"cancel""#) {
                    sample.speech = Monotonic.now() - sent
                }
            }
            if nav.closed { throw BenchFailure("tandem serve closed the navigating controller") }
            if let proxy, sample.speech != nil {
                // The SPEAK may pass the relay a little after the transcript line reached us.
                let until = Monotonic.now() + 500_000_000
                while Monotonic.now() < until {
                    let seen = proxy.commands(since: sent, component: "focus")
                    if let speak = seen.first(where: { $0.verb == "SPEAK" }) {
                        let daemon = seen.filter { $0.wrote < speak.wrote }.reduce(UInt64(0)) { sum, c in
                            sum + (c.replied.map { $0 > c.wrote ? $0 - c.wrote : 0 } ?? 0)
                        }
                        sample.speak = speak.wrote - sent
                        sample.own = sample.speak! > daemon ? sample.speak! - daemon : 0
                        break
                    }
                    usleep(200)
                }
                proxy.forget(before: sent)
            }
            samples.append(sample)
            usleep(UInt32(o.commandGapMs * 1000))
        }
        let cpuAtEnd = cpuSeconds(pid)
        shared.stop.store(true, ordering: .relaxed)
        appThread.cancel()
        usleep(200_000)

        // What the stalled client's connection came to: read what was left for it.
        var stalledClosed = false
        var stalledLeft = 0
        if let s = stalled {
            while s.readLine(timeoutMs: 500) != nil {}
            stalledClosed = s.closed
            stalledLeft = s.bytesRead
        }
        let alive = serve.isRunning
        // With speech: stop tandem serve now, so that it writes its SSIP trace.
        var traced = false
        if proxy != nil {
            if serve.isRunning { serve.terminate() }
            serve.waitUntilExit()
            if let text = try? String(contentsOfFile: tracePath, encoding: .utf8), case .success(let trace) = SSIPTraceLog.parse(text) {
                let focus = trace.filter { $0.component == .focus }.sorted { $0.time < $1.time }
                for i in samples.indices where samples[i].speech != nil {
                    samples[i].ownTraced = ownShare(sent: samples[i].sent, focus: focus)
                }
                traced = true
            }
        }
        if let keep = o.keep { try keepRecords(samples, trace: tracePath, in: keep) }

        // The report.
        var out = "serve-load: tandem serve (\(tandem)) over its socket\n"
        out += "on \(Machine.current().summary); load average at the end \(UpdatesBenchmark.loadAverage())\n"
        out += "app screen \(Report.sizeName(o.elements)) elements (sections), \(o.updatesPerSecond) set/s asked, "
        out += "\(shared.updatesSent.load(ordering: .relaxed)) sent in \(Report.number((Double(Monotonic.now() - begin) / 1e9).rounded())) s, "
        out += "\(shared.appErrors.load(ordering: .relaxed)) answered with an error\n"
        out += "\(o.readers) controllers reading the whole transcript (\(Report.number(Double(shared.readerBytes.load(ordering: .relaxed)) / 1_048_576)) MiB read, "
        out += "\(shared.readersClosed.load(ordering: .relaxed)) closed); speech: \(o.speechAddress ?? "none (timed by estimate)")\n"
        let settled = o.speechAddress != nil ? ", once every message on the focus connection had begun and settled" : ""
        out += "measured \(Int(o.seconds)) s after \(Int(o.warmUpSeconds)) s of warm-up; a command \(o.commandGapMs) ms after the last was said\(settled)\n"
        if o.realtime {
            let log = (try? String(contentsOfFile: dir + "/serve.log", encoding: .utf8)) ?? ""
            out += log.contains("real-time scheduling: SCHED_FIFO") ? "tandem serve --realtime: its threads SCHED_FIFO, priority 1\n"
                : "tandem serve --realtime was refused real-time scheduling (see its log): it ran at normal priority\n"
        }
        out += o.pin ? "tandem serve pinned to CPU 0, the benchmark's threads (app, readers, relay) to CPUs \(loadCPUs.map(String.init).joined(separator: ","))\n\n"
                     : "not pinned: tandem serve shares every CPU with the benchmark's threads\n\n"
        out += "command → transcript line at the navigating controller, µs (p99 by nearest rank)\n"
        out += "phase".padding(toLength: 44, withPad: " ", startingAt: 0) + "commands".leftPadded(to: 10)
            + "key event: median / p99".leftPadded(to: 26) + "focus speech: median / p99".leftPadded(to: 30) + "max".leftPadded(to: 10) + "lost".leftPadded(to: 6) + "\n"
        var summaries: [Int: Summary] = [:]
        for (phase, name) in [(1, "all clients reading"), (2, "and one client that stopped reading")] {
            let s = samples.filter { $0.phase == phase }
            let keys = s.compactMap(\.key), speech = s.compactMap(\.speech)
            guard !keys.isEmpty, !speech.isEmpty else { out += "\(name): no samples\n"; continue }
            let k = Summary(nanoseconds: keys), sp = Summary(nanoseconds: speech)
            summaries[phase] = sp
            out += name.padding(toLength: 44, withPad: " ", startingAt: 0) + "\(s.count)".leftPadded(to: 10)
                + "\(Report.number(k.median / 1e3)) / \(Report.number(k.p99 / 1e3))".leftPadded(to: 26)
                + "\(Report.number(sp.median / 1e3)) / \(Report.number(sp.p99 / 1e3))".leftPadded(to: 30)
                + Report.number(sp.max / 1e3).leftPadded(to: 10) + "\(s.count - speech.count)".leftPadded(to: 6) + "\n"
        }
        // Whether a tail belongs to some commands of the walk (an element whose speech or
        // frame costs more) or falls anywhere (the machine).
        let slowest = samples.filter { $0.phase > 0 && $0.speech != nil }.sorted { $0.speech! > $1.speech! }.prefix(8)
        if !slowest.isEmpty {
            out += "slowest focus speech (position in the walk, 0–39 next, 40–79 previous: µs): "
            out += slowest.map { "\($0.position): \(Report.number(Double($0.speech!) / 1e3))" }.joined(separator: ", ") + "\n"
        }
        if let a = summaries[1], let b = summaries[2] {
            out += "focus speech with the stalled client ÷ without: median \(Report.ratio(b.median / a.median)), p99 \(Report.ratio(b.p99 / a.p99))\n"
        }
        if proxy != nil {
            func p90(_ x: [UInt64]) -> String { Report.number(Summary.percentile(90, ofSorted: x.map { Double($0) }.sorted()) / 1e3) }
            out += "\ncommand → SPEAK written to speech-dispatcher (through the timing relay), µs (p99 by nearest rank)\n"
            out += "phase".padding(toLength: 44, withPad: " ", startingAt: 0) + "SPEAK: median / p90 / p99".leftPadded(to: 30)
                + "Tandem's own share: median / p90 / p99".leftPadded(to: 42) + "max own".leftPadded(to: 10) + "no SPEAK".leftPadded(to: 10) + "\n"
            for (phase, name) in [(1, "all clients reading"), (2, "and one client that stopped reading")] {
                let s = samples.filter { $0.phase == phase && $0.speech != nil }
                let speak = s.compactMap(\.speak), own = s.compactMap(\.own)
                guard !speak.isEmpty else { out += "\(name): no SPEAK seen\n"; continue }
                let a = Summary(nanoseconds: speak), b = Summary(nanoseconds: own)
                out += name.padding(toLength: 44, withPad: " ", startingAt: 0)
                    + "\(Report.number(a.median / 1e3)) / \(p90(speak)) / \(Report.number(a.p99 / 1e3))".leftPadded(to: 30)
                    + "\(Report.number(b.median / 1e3)) / \(p90(own)) / \(Report.number(b.p99 / 1e3))".leftPadded(to: 42)
                    + Report.number(b.max / 1e3).leftPadded(to: 10) + "\(s.count - speak.count)".leftPadded(to: 10) + "\n"
            }
            out += "own share: command → SPEAK less speech-dispatcher's time answering the focus connection's commands before it (CANCEL, SET …)\n"
            if traced {
                out += "\nTandem's own share on its own clock (tandem serve's SSIP trace: command written → SPEAK written, less Tandem's waits\n"
                out += "for the focus connection's replies; the relay's hops are not in it), µs\n"
                out += "phase".padding(toLength: 44, withPad: " ", startingAt: 0) + "median / p90 / p99".leftPadded(to: 30) + "max".leftPadded(to: 10) + "found".leftPadded(to: 10) + "\n"
                for (phase, name) in [(1, "all clients reading"), (2, "and one client that stopped reading")] {
                    let s = samples.filter { $0.phase == phase && $0.speech != nil }
                    let own = s.compactMap(\.ownTraced)
                    guard !own.isEmpty else { out += "\(name): no SPEAK in the trace\n"; continue }
                    let b = Summary(nanoseconds: own)
                    out += name.padding(toLength: 44, withPad: " ", startingAt: 0)
                        + "\(Report.number(b.median / 1e3)) / \(p90(own)) / \(Report.number(b.p99 / 1e3))".leftPadded(to: 30)
                        + Report.number(b.max / 1e3).leftPadded(to: 10) + "\(own.count) of \(s.count)".leftPadded(to: 10) + "\n"
                }
            }
        }
        if stalled != nil {
            out += "the stalled client: \(shared.stalledStatuses.load(ordering: .relaxed)) status requests sent, "
            let closedAt = shared.stalledClosedAt.load(ordering: .relaxed)
            let when = closedAt > 0 ? " \(Int(Double(closedAt - stallAt) / 1e9)) s after it stopped reading" : ""
            let got = "reading again at the end, it got \(Report.number(Double(stalledLeft) / 1024)) KiB"
            out += stalledClosed ? "closed by tandem serve\(when); \(got) and the end of the connection\n"
                                 : "still connected at the end (tandem serve's queue for it is under its 4 MiB); \(got)\n"
        }
        out += "\ntandem serve memory (VmRSS), MiB: with the screen \(mib(rssWithScreen))"
        if let first = memorySamples.first, let last = memorySamples.last {
            let peak = memorySamples.map(\.bytes).max()!
            out += ", at the start of measuring \(mib(first.bytes)), at the end \(mib(last.bytes)), peak \(mib(peak))\n"
            let step = max(1, memorySamples.count / 10)
            let series = stride(from: 0, to: memorySamples.count, by: step).map { "\(Int(memorySamples[$0].seconds)) s \(mib(memorySamples[$0].bytes))" }
            out += "  every \(step) s: " + series.joined(separator: ", ") + "\n"
            out += "  slope over the measured time (least squares): \(String(format: "%+.3f", slope(memorySamples) * 60 / 1_048_576)) MiB a minute\n"
            let half = memorySamples.count / 2
            if half > 0 {
                let firstHalf = Summary(memorySamples[..<half].map { Double($0.bytes) }), secondHalf = Summary(memorySamples[half...].map { Double($0.bytes) })
                out += "  median of the first half \(mib(Int(firstHalf.median))), of the second half \(mib(Int(secondHalf.median)))\n"
            }
        } else {
            out += "\n"
        }
        if let from = cpuFrom, let endCPU = cpuAtEnd, let startCPU = cpuAtStart {
            out += "tandem serve CPU: \(String(format: "%.0f", (endCPU - from) / o.seconds * 100))% of one core while measured"
            out += " (\(String(format: "%.1f", endCPU - startCPU)) s in all)\n"
        }
        out += alive ? "tandem serve was still running at the end\n" : "tandem serve had ended by itself\n"
        if !alive { throw BenchFailure("tandem serve ended during the run; its log: \(dir)/serve.log") }
        return out
    }

    /// `VmRSS` of process `pid`, in bytes.
    static func memory(_ pid: Int32) -> Int? {
        guard let text = ProcessMemory.read("/proc/\(pid)/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    /// User and system CPU seconds of process `pid` so far (`/proc/PID/stat`).
    static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let text = ProcessMemory.read("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, utime 14 and stime 15 (1-based in proc(5)).
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func slope(_ points: [(seconds: Double, bytes: Int)]) -> Double {
        guard points.count > 1 else { return 0 }
        let n = Double(points.count)
        let mx = points.map(\.seconds).reduce(0, +) / n, my = points.map { Double($0.bytes) }.reduce(0, +) / n
        let sxy = points.map { ($0.seconds - mx) * (Double($0.bytes) - my) }.reduce(0, +)
        let sxx = points.map { ($0.seconds - mx) * ($0.seconds - mx) }.reduce(0, +)
        return sxx == 0 ? 0 : sxy / sxx
    }

    static func mib(_ bytes: Int?) -> String {
        bytes.map { String(format: "%.1f", Double($0) / 1_048_576) } ?? "?"
    }
}
