import Foundation
import TandemPOSIX
import TandemProcess
#if canImport(Glibc)
import Glibc
import Synchronization
#endif

/// `tandem-bench atspi`: the AT-SPI bridge on a private accessibility desktop
/// (scripts/services/atspi.sh) with the real GTK test app and a real Chromium (Docs/atspi.md#speed):
///
/// - an AT-SPI focus event (the GTK app moving its focus) to the speech line of `tandem serve`'s
///   transcript and to the `SPEAK` it writes to a private speech-dispatcher (through the
///   timing relay, `SSIPProxy`), side by side with the same move sent by an app on the
///   protocol (`layoutChanged`);
/// - the time to read a 1,000-node web page (`tandem atspi --snapshot`, a whole process);
/// - the bridge's work for one changed node of that page, per 16 ms frame (its trace).
enum AtspiBenchmark {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func run(samples: Int) throws -> String {
        guard let root = SoakDaemons.packageRoot() else { throw Failure(description: "atspi: cannot find scripts/services/ (run it from the package folder)") }
        let tandem = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("tandem").path
        let dir = try temporaryDirectory(prefix: "tandem-bench-atspi")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = root + "/scripts/services/atspi.sh"
        var base = ProcessInfo.processInfo.environment
        base["ATSPI_WATCH_PID"] = String(getpid())
        let start = try ProcessRunner.run(["/bin/bash", script, "start", dir + "/desktop"], environment: base)
        guard start.status == 0 else { throw Failure(description: "atspi.sh start: \(start.output)") }
        defer { _ = try? ProcessRunner.run(["/bin/bash", script, "stop", dir + "/desktop"]) }
        var env = ProcessInfo.processInfo.environment
        for line in try ProcessRunner.run(["/bin/bash", script, "env", dir + "/desktop"]).stdout.split(separator: "\n") where line.hasPrefix("export ") {
            let pair = line.dropFirst(7).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { env[String(pair[0])] = String(pair[1]) }
        }
        // a private speech-dispatcher (scripts/services/speechd.sh), reached through the relay
        let daemons = SoakDaemons(root: root, directory: dir, portOffset: 0)
        try daemons.script("speechd.sh", "start", daemons.speechdDirectory)
        defer { try? daemons.script("speechd.sh", "stop", daemons.speechdDirectory) }
        let proxy = try SSIPProxy(path: dir + "/ssip.sock", upstream: daemons.speechdDirectory + "/speechd.sock")
        env["SPEECHD_ADDRESS"] = "unix_socket:\(dir)/ssip.sock"
        env["BRLAPI_HOST"] = "127.0.0.1:4999"
        env["TANDEM_PROFILES"] = root + "/Profiles"
        var out = "tandem-bench atspi (\(samples) samples each)\n"

        // 1. focus event → speech, and the protocol app's layoutChanged → speech
        let socket = dir + "/tandem.sock"
        let serve = try Child([tandem, "serve", "--profile", "headless", "--socket", socket, "--speech", "unix_socket:\(dir)/ssip.sock"], environment: env)
        defer { serve.stop() }
        guard waitFor(seconds: 20, { FileManager.default.fileExists(atPath: socket) && (try? SocketClient(path: socket)) != nil }) else {
            throw Failure(description: "tandem serve did not start")
        }
        let app = try Child(["/usr/bin/python3", root + "/Tests/Fixtures/atspi/pantry.py", "--app-name", "bench-pantry"], environment: env)
        defer { app.stop() }
        guard waitFor(seconds: 20, { (try? ProcessRunner.run([tandem, "atspi", "--snapshot", "--app", "bench-pantry"], environment: env))?.status == 0 }) else {
            throw Failure(description: "the GTK test app did not appear on the accessibility bus")
        }
        let bridge = try Child([tandem, "atspi", "--app", "bench-pantry", "--socket", socket], environment: env)
        defer { bridge.stop() }
        let listener = try SocketClient(path: socket)
        _ = listener.send(#"{"type":"hello","v":1,"role":"controller"}"#)
        _ = listener.send(#"{"type":"subscribe","channels":["speech"]}"#)
        Thread.sleep(forTimeInterval: 1.5)
        _ = listener.discardAvailable()
        var atspi: [Double] = []
        var atspiSpeak: [Double] = []
        let targets = ["Add to basket", "Organic only"]
        for i in 0..<(samples + 2) {
            let target = targets[i % 2]
            Thread.sleep(forTimeInterval: 0.1)  // one move at a time, as a user's
            let sent = Monotonic.now()
            let t0 = DispatchTime.now().uptimeNanoseconds
            app.write("focus \(target)")
            guard let t1 = spoken(listener, prefix: target) else { throw Failure(description: "no speech for the focus on \(target)") }
            let speak = speakWritten(proxy, since: sent)
            if i >= 2 {  // the first two present the window
                atspi.append(Double(t1 - t0) / 1e6)
                if let speak { atspiSpeak.append(Double(speak - sent) / 1e6) }
            }
        }
        let proto = try SocketClient(path: socket)
        _ = proto.send(#"{"type":"hello","v":1,"role":"app","name":"bench-protocol"}"#)
        _ = proto.send(#"{"type":"screen","screen":{"id":"s","title":"Pantry","root":{"id":"r","children":[{"id":"a","label":"Add to basket","traits":["button"],"frame":[12,109,456,34]},{"id":"o","label":"Organic only","value":"0","traits":["button","switchButton"],"frame":[12,79,456,22]}]}}}"#)
        Thread.sleep(forTimeInterval: 0.5)
        _ = listener.discardAvailable()
        var protocolPath: [Double] = []
        var protocolSpeak: [Double] = []
        for i in 0..<samples {
            let (id, target) = i % 2 == 0 ? ("a", "Add to basket") : ("o", "Organic only")
            Thread.sleep(forTimeInterval: 0.1)
            let sent = Monotonic.now()
            let t0 = DispatchTime.now().uptimeNanoseconds
            _ = proto.send(#"{"type":"notify","notification":"layoutChanged","focus":"\#(id)"}"#)
            guard let t1 = spoken(listener, prefix: target) else { throw Failure(description: "no speech for the protocol app's focus") }
            protocolPath.append(Double(t1 - t0) / 1e6)
            if let speak = speakWritten(proxy, since: sent) { protocolSpeak.append(Double(speak - sent) / 1e6) }
        }
        out += row("focus event → speech line, AT-SPI (GTK app → bridge → serve)", Summary(atspi), unit: "ms")
        out += row("focus event → speech line, protocol app (layoutChanged)", Summary(protocolPath), unit: "ms")
        guard !atspiSpeak.isEmpty, !protocolSpeak.isEmpty else { throw Failure(description: "no SPEAK reached speech-dispatcher through the relay") }
        out += row("focus event → SSIP SPEAK at speech-dispatcher, AT-SPI", Summary(atspiSpeak), unit: "ms")
        out += row("focus event → SSIP SPEAK at speech-dispatcher, protocol app", Summary(protocolSpeak), unit: "ms")

        // 2. a 1,000-node page: its snapshot; 3. one changed node a frame
        let page = dir + "/thousand.html"
        var html = "<!doctype html><title>Thousand</title><ul>"
        for i in 0..<998 { html += "<li>Item \(i)</li>" }
        html += "</ul><script>if (location.hash == '#tick') { let n = 0; setInterval(() => document.querySelectorAll('li')[500].textContent = 'Item 500 ' + n++, 40); }</script>"
        try html.write(toFile: page, atomically: true, encoding: .utf8)
        let browser = try Child(["/usr/bin/chromium", "--no-sandbox", "--force-renderer-accessibility", "--user-data-dir=" + dir + "/profile",
                                 "--no-first-run", "--disable-gpu", "--window-size=1000,800", "file://" + page + "#tick"], environment: env)
        defer { browser.stop() }
        guard waitFor(seconds: 40, { ((try? ProcessRunner.run([tandem, "atspi", "--snapshot", "--pid", String(browser.pid)], environment: env))?.stdout ?? "").contains("Item 997") }) else {
            throw Failure(description: "Chromium did not publish the 1,000-node page")
        }
        var snapshots: [Double] = []
        var nodes = 0
        for _ in 0..<3 {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let r = try ProcessRunner.run([tandem, "atspi", "--snapshot", "--pid", String(browser.pid)], environment: env)
            snapshots.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            nodes = r.stdout.components(separatedBy: "\"id\":").count - 1
        }
        out += row("read a \(nodes)-element web page (tandem atspi --snapshot, whole process)", Summary(snapshots), unit: "ms")
        var traced = env
        traced["TANDEM_ATSPI_TRACE"] = "1"
        let pageBridge = try Child([tandem, "atspi", "--pid", String(browser.pid), "--socket", socket], environment: traced)
        // it reads the page first (as a snapshot does), then sends one change a frame
        _ = waitFor(seconds: 60) { pageBridge.errorText.components(separatedBy: "frame: ").count > 40 }
        pageBridge.stop()
        let frames = pageBridge.errorText.split(separator: "\n").compactMap { line -> Double? in
            guard line.contains("frame: "), let r = line.range(of: " in "), let end = line.range(of: " µs") else { return nil }
            return Double(line[r.upperBound..<end.lowerBound])
        }
        if frames.isEmpty { throw Failure(description: "the page bridge sent nothing: \(pageBridge.errorText.suffix(300))") }
        out += row("one changed node of that page: the bridge's frame (read + send)", Summary(frames.map { $0 / 1000 }), unit: "ms")
        return out
    }

    static func row(_ what: String, _ s: Summary, unit: String) -> String {
        String(format: "  %@\n      median %.2f %@, p99 %.2f %@ (n=%d)\n", what, s.median, unit, s.p99, unit, s.count)
    }

    /// When (Monotonic) `tandem serve` wrote the first `SPEAK` of its focus connection since
    /// `since`, as the relay saw it; nil when none passed within 2 s.
    static func speakWritten(_ proxy: SSIPProxy, since: UInt64) -> UInt64? {
        let until = Monotonic.now() + 2_000_000_000
        while Monotonic.now() < until {
            if let speak = proxy.commands(since: since, component: "focus").first(where: { $0.verb == "SPEAK" }) {
                proxy.forget(before: since)
                return speak.wrote
            }
            usleep(200)
        }
        return nil
    }

    /// The time (uptime ns) a speech line whose text starts with `prefix` arrives, or nil after 5 s.
    static func spoken(_ client: SocketClient, prefix: String) -> UInt64? {
        let end = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
        while DispatchTime.now().uptimeNanoseconds < end {
            guard let bytes = client.readLine(timeoutMs: 100) else { continue }
            let line = String(decoding: bytes, as: UTF8.self)
            if ProcessInfo.processInfo.environment["TANDEM_BENCH_DEBUG"] != nil { printErr(line) }
            if line.contains("\"speech\""), line.contains("\"text\":\"" + prefix) { return DispatchTime.now().uptimeNanoseconds }
        }
        return nil
    }

    static func waitFor(seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return false
    }

    /// A process of the benchmark's, its standard input a pipe, its standard error kept.
    final class Child: @unchecked Sendable {  // Process and Pipe are not Sendable; used from the benchmark's thread and the pipe's handler, which touches only errorBytes
        let process = Process()
        let input = Pipe()
        let errors = Pipe()
        let errorBytes = Mutex<[UInt8]>([])

        init(_ arguments: [String], environment: [String: String]) throws {
            process.executableURL = URL(fileURLWithPath: arguments[0])
            process.arguments = Array(arguments.dropFirst())
            process.environment = environment
            process.standardInput = input
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            process.standardError = errors
            errors.fileHandleForReading.readabilityHandler = { [weak self] h in
                let d = h.availableData
                guard let self, !d.isEmpty else { return }
                self.errorBytes.withLock { $0 += d }
            }
            try process.run()
        }

        var pid: Int32 { process.processIdentifier }
        var errorText: String { errorBytes.withLock { String(decoding: $0, as: UTF8.self) } }
        func write(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            let end = Date().addingTimeInterval(3)
            while process.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }
}
