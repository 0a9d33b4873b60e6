import CBrlAPI
import Foundation
import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession
import TandemVocabulary
import Synchronization

/// `tandem-bench braille HOST`: the braille output against a real BRLTTY (Docs/braille.md).
///
/// 1. A bare `brlapi__write` of a 40-cell window, N times: what one write costs by itself.
/// 2. Key → write: a `.brailleCommand("LNDN")` handed to `LiveRunner.send` (what the output's
///    key reader does) until the output calls `brlapi__write` with the new window; keys 60 ms
///    apart, so the pacing interval never holds a write back.
/// 3. A flood of value changes (increment as fast as the runner takes them, for 2 s): writes
///    a second, and whether the last state is the one written last.
enum BrailleLatencyBenchmark {
    static let catalogJSON = """
    {
      "format": "tandem.catalog/1", "name": "Braille bench", "language": "en", "start": "list",
      "screens": [ { "id": "list", "title": "List", "focus": "counter", "root": { "id": "root", "children": [
        { "id": "counter", "label": "Counter", "traits": ["adjustable"],
          "adjust": { "value": 0, "min": 0, "max": 1000000, "step": 1, "format": "%@ items" } },
        { "id": "a", "label": "Apples, 2 kg, 4.99", "traits": ["button"] },
        { "id": "b", "label": "Bread, wholemeal, 2.49", "traits": ["button"] }
      ] } } ]
    }
    """

    /// Runs all three against the BRLTTY at `host` (as in `BRLAPI_HOST`; `BRLAPI_AUTH` from the
    /// environment) and returns a readable report.
    static func run(host: String) -> String {
        var out = "Braille output against BRLTTY at \(host)\n"
        let auth = ProcessInfo.processInfo.environment["BRLAPI_AUTH"]
        guard let bare = bareWrites(host: host, auth: auth, count: 500) else {
            return out + "error: cannot connect to BRLTTY at \(host) (start one: scripts/services/brltty.sh start)\n"
        }
        out += line("bare brlapi__write call (40 cells)", bare)
        let (keyToWrite, callInside) = keyLatency(host: host, auth: auth, keys: 150)
        out += line("key event -> brlapi__write starts", keyToWrite)
        out += line("  the write call inside Tandem", callInside)
        out += flood(host: host, auth: auth, seconds: 2)
        return out
    }

    // MARK: 1. bare writes

    static func bareWrites(host: String, auth: String?, count: Int) -> [Double]? {
        guard let memory = malloc(brlapi_getHandleSize()) else { return nil }
        defer { free(memory) }
        let h = OpaquePointer(memory)
        let hostC = strdup(host), authC = auth.map { strdup($0) } ?? nil
        defer { free(hostC); free(authC) }
        var settings = brlapi_connectionSettings_t(auth: authC, host: hostC)
        guard brlapi__openConnection(h, &settings, nil) >= 0 else { return nil }
        defer { brlapi__closeConnection(h) }
        _ = brlapi__setExceptionHandler(h) { _, _, _, _, _ in }
        guard brlapi__enterTtyModeWithPath(h, nil, 0, nil) >= 0 else { return nil }
        var x: UInt32 = 0, y: UInt32 = 0
        brlapi__getDisplaySize(h, &x, &y)
        let columns = Int(max(1, min(x, 40)))
        var samples: [Double] = []
        for i in 0..<count {
            let cells = (0..<columns).map { UInt8(truncatingIfNeeded: ($0 * 7 + i) & 0x3F) }
            let text = String(String.UnicodeScalarView(cells.map { Unicode.Scalar(0x2800 + UInt32($0))! }))
            let and = [UInt8](repeating: 0, count: columns)
            let t0 = WorkerClock.monotonic.now()
            _ = text.withCString { t in
                "UTF-8".withCString { cs in
                    and.withUnsafeBufferPointer { a in
                        cells.withUnsafeBufferPointer { o in
                            var w = brlapi_writeArguments_t()
                            w.displayNumber = -1; w.regionBegin = 1; w.regionSize = Int32(columns)
                            w.text = t; w.textSize = -1; w.andMask = a.baseAddress; w.orMask = o.baseAddress
                            w.cursor = 1; w.charset = cs
                            return brlapi__write(h, &w)
                        }
                    }
                }
            }
            samples.append(microseconds(WorkerClock.monotonic.now() - t0))
            usleep(2_000)
        }
        _ = brlapi__leaveTtyMode(h)
        return samples
    }

    // MARK: 2. key -> write

    /// A live session whose braille output reports every write to `onWrite`.
    final class Bench: @unchecked Sendable {  // LiveRunner's settings are set before its thread starts; the rest is let
        let runner: LiveRunner
        let output: BrlAPIOutput
        let records = RecordingSink()
        let done = DispatchSemaphore(value: 0)

        init(host: String, auth: String?, onWrite: @escaping @Sendable (BrailleWriteEvent) -> Void) throws {
            var decoder = CatalogDecoder(file: "bench.catalog.json")
            let catalog = try decoder.decode(Array(catalogJSON.utf8))
            var settings = BrlAPIOutput.Settings()
            settings.onWrite = onWrite
            output = BrlAPIOutput(host: host, auth: auth, keyMap: .default, settings: settings)
            var profile = Profile()
            profile.speech = false
            let session = Session(catalog: catalog, profile: profile, sink: MultiplexSink([records, output]), timing: .virtual,
                                  makeTranslator: { _ in LouisTranslator() })
            runner = LiveRunner(session: session)
            output.start(report: runner.reporter)
            runner.startThread(signalling: done)
        }

        func finish() {
            runner.send(.quit)
            _ = done.wait(timeout: .now() + 5)
            output.stop()
        }

        var lastFrame: BrailleFrame? {
            for r in records.records.reversed() { if case .braille(let f) = r.record { return f } }
            return nil
        }
    }

    /// Collects write events across threads.
    final class WriteLog: Sendable {
        private let events = Mutex<[BrailleWriteEvent]>([])
        let signal = DispatchSemaphore(value: 0)
        func add(_ e: BrailleWriteEvent) {
            events.withLock { $0.append(e) }
            signal.signal()
        }
        var all: [BrailleWriteEvent] { events.withLock { $0 } }
        func drain() { while signal.wait(timeout: .now()) == .success {} }
    }

    static func keyLatency(host: String, auth: String?, keys: Int) -> ([Double], [Double]) {
        let log = WriteLog()
        guard let bench = try? Bench(host: host, auth: auth, onWrite: log.add) else { return ([], []) }
        defer { bench.finish() }
        _ = log.signal.wait(timeout: .now() + 5)   // connected, first frame shown
        Thread.sleep(forTimeInterval: 0.2)
        log.drain()
        var latency: [Double] = [], call: [Double] = []
        for i in 0..<keys {
            let name = i % 4 < 2 ? "LNDN" : "LNUP"
            let t0 = WorkerClock.monotonic.now()
            bench.runner.send(.output(.brailleCommand(name: name, argument: nil)))
            guard log.signal.wait(timeout: .now() + 1) == .success, let e = log.all.last else { continue }
            latency.append(microseconds(e.started - t0))
            call.append(microseconds(e.callDuration))
            Thread.sleep(forTimeInterval: 0.06)
            log.drain()
        }
        return (latency, call)
    }

    // MARK: 3. flood

    static func flood(host: String, auth: String?, seconds: Double) -> String {
        let log = WriteLog()
        guard let bench = try? Bench(host: host, auth: auth, onWrite: log.add) else { return "flood: cannot connect\n" }
        defer { bench.finish() }
        _ = log.signal.wait(timeout: .now() + 5)
        Thread.sleep(forTimeInterval: 0.2)
        let before = log.all.count
        let framesBefore = bench.records.records.count
        let end = WorkerClock.monotonic.now() + UInt64(seconds * 1e9)
        var sent = 0
        while WorkerClock.monotonic.now() < end {
            bench.runner.send(.command(.increment))
            sent += 1
            if sent % 20 == 0 { usleep(1_000) }
        }
        Thread.sleep(forTimeInterval: 0.3)   // let the runner and the last paced write finish
        let writes = log.all.dropFirst(before)
        let inFlood = writes.filter { $0.started < end }
        let frames = bench.records.records.dropFirst(framesBefore).filter { if case .braille = $0.record { return true }; return false }
        let lastOK = writes.last.map { $0.frame == bench.lastFrame } ?? false
        let perSecond = Double(inFlood.count) / seconds
        var gaps: [Double] = []
        for (a, b) in zip(inFlood, inFlood.dropFirst()) { gaps.append(microseconds(b.started - a.started) / 1000) }
        return """
            flood: \(sent) increments in \(String(format: "%.1f", seconds)) s; the session emitted \(frames.count) frames
              writes: \(inFlood.count) during the flood = \(String(format: "%.1f", perSecond)) a second (limit 25), \(writes.count) in all
              shortest gap between writes: \(String(format: "%.1f", gaps.min() ?? 0)) ms
              last frame written == the session's last frame: \(lastOK ? "yes" : "NO") (\(bench.lastFrame?.text ?? "-"))

            """
    }

    // MARK: figures

    /// Nanoseconds (`WorkerClock`) as microseconds.
    static func microseconds(_ ns: UInt64) -> Double { Double(ns) / 1000 }

    static func line(_ what: String, _ samples: [Double]) -> String {
        guard !samples.isEmpty else { return "\(what): no samples\n" }
        let sorted = samples.sorted()
        let median = sorted[sorted.count / 2]
        let p99 = sorted[min(sorted.count - 1, Int((0.99 * Double(sorted.count)).rounded(.up)) - 1)]
        return what.padding(toLength: 38, withPad: " ", startingAt: 0)
            + String(format: "n=%4d  median %8.1f us  p99 %8.1f us  max %8.1f us\n", sorted.count, median, p99, sorted.last!)
    }
}
