import CSpeechd
import Foundation
import Synchronization
import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPolicy
import TandemService
import TandemSession
import TandemVocabulary

/// How long a navigation command takes to reach speech-dispatcher, against the floor.
///
/// Tandem: a 100 000-element catalog in a live session (`LiveRunner`, the real policy, braille
/// through liblouis, `SpeechDispatcherOutput`); each step is `send(.command(.next))` while the
/// previous focus speech still speaks, so the step writes `CANCEL SELF`, then `SPEAK` and the
/// text. Times come from `SSIPTrace` (written right after each write and read) on the same
/// monotonic clock as the send. Tandem's own share of a step is its time to `SPEAK` minus the
/// time speech-dispatcher took to answer the `CANCEL`.
///
/// Floor: the same step with a bare libspeechd client (`spd_cancel` then `spd_say`, which also
/// sets the priority), and from Python through python3-speechd (`cancel()` then `speak()`).
///
/// Run it against a daemon whose speech lasts (so each step has something to cut):
/// `SPEECHD_SPEAK_SECONDS=5 scripts/services/speechd.sh start DIR` and the address it prints.
/// `TANDEM_SPEECH_STEPS` sets the number of Tandem steps (default 2000; the floors take half).
enum SpeechLatencyBenchmark {
    static func run(address: String) -> String {
        let steps = Int(ProcessInfo.processInfo.environment["TANDEM_SPEECH_STEPS"] ?? "") ?? 2000
        var out = "speech latency against \(address)\n"
        let tandem = measureTandem(address: address, steps: steps)
        out += tandem.report
        let floor = measureSpdSay(address: address, steps: max(100, steps / 2))
        out += floor
        out += measurePython(address: address, steps: max(100, steps / 2))
        return out
    }

    // MARK: Tandem

    struct Step {
        var cancel: Double?      // ms from send to CANCEL SELF written
        var speak: Double        // … to SPEAK written
        var data: Double         // … to the text and its end line written
        var queued: Double       // … to speech-dispatcher's 225 reply
        var cancelAnswer: Double // CANCEL SELF → its reply
        var own: Double          // speak − cancelAnswer
    }

    /// What the trace saw of the current step.
    final class StepProbe: Sendable {
        struct State {
            var since: UInt64 = 0
            var cancelWrote: UInt64?
            var cancelReplied: UInt64?
            var speakWrote: UInt64?
            var dataWrote: UInt64?
            var queued: UInt64?
        }
        let state = Mutex(State())
        let done = DispatchSemaphore(value: 0)
        /// When speech-dispatcher last reported a begin.
        let lastBegin = Mutex<UInt64>(0)

        func trace(_ t: SSIPTrace) {
            guard t.component == .focus else { return }
            let signal: Bool = state.withLock { s in
                guard t.time >= s.since else { return false }
                switch (t.kind, t.command) {
                case (.wrote, "CANCEL SELF"): s.cancelWrote = s.cancelWrote ?? t.time
                case (.replied, "CANCEL SELF"): s.cancelReplied = s.cancelReplied ?? t.time
                case (.wrote, "SPEAK"): s.speakWrote = t.time
                case (.wrote, "DATA"): s.dataWrote = t.time
                case (.replied, "DATA"):
                    s.queued = t.time
                    return true
                default: break
                }
                return false
            }
            if signal { done.signal() }
        }
    }

    static func measureTandem(address: String, steps: Int) -> (report: String, steps: [Step]) {
        let generated = CatalogGenerator.generate(elements: 100_000)
        var decoder = CatalogDecoder(file: "generated.catalog.json")
        guard let catalog = try? decoder.decode(generated.json) else { return ("tandem: the generated catalog does not load\n", []) }
        var profile = Profile()
        profile.hintDelay = 60_000            // no hints in between: each step is one utterance
        let probe = StepProbe()
        let output = SpeechDispatcherOutput(address: address, voice: .init())
        output.trace = { probe.trace($0) }
        let session = Session(catalog: catalog, profile: profile, sink: MultiplexSink([output]), timing: .virtual,
                              makeTranslator: { p in LouisTranslator(contracted: p.contracted, computerBrailleAtCursor: p.computerBrailleAtCursor) })
        let runner = LiveRunner(session: session)
        let forward = runner.reporter
        output.start(report: { event in
            if case .speechBegan = event { probe.lastBegin.withLock { $0 = WorkerClock.monotonic.now() } }
            forward(event)
        })
        let finished = runner.startThread()
        Thread.sleep(forTimeInterval: 0.3)
        var results: [Step] = []
        let warmup = 50
        var timeouts = 0
        var late = 0
        for i in 0..<(steps + warmup) {
            // Let the previous utterance begin, and its output module settle (`Timing.startSettle`),
            // so that this step cuts speech and waits for nothing but Tandem and the daemon.
            // (On a busy machine the capture module may take long to start a message.)
            let sent = probe.state.withLock { $0.since }
            let waitEnd = Date().addingTimeInterval(3)
            while probe.lastBegin.withLock({ $0 }) < sent && Date() < waitEnd { Thread.sleep(forTimeInterval: 0.001) }
            if probe.lastBegin.withLock({ $0 }) < sent { late += 1 }
            let settled = probe.lastBegin.withLock { $0 } &+ 35_000_000
            while WorkerClock.monotonic.now() < settled { Thread.sleep(forTimeInterval: 0.001) }
            while probe.done.wait(timeout: .now()) == .success {}
            let t0 = WorkerClock.monotonic.now()
            probe.state.withLock { $0 = StepProbe.State(since: t0) }
            runner.send(.command(.next))
            guard probe.done.wait(timeout: .now() + .seconds(2)) == .success else { timeouts += 1; continue }
            let s = probe.state.withLock { $0 }
            guard i >= warmup, let speak = s.speakWrote, let data = s.dataWrote, let queued = s.queued else { continue }
            func ms(_ t: UInt64) -> Double { Double(t - t0) / 1e6 }
            let answer = s.cancelWrote.flatMap { w in s.cancelReplied.map { Double($0 - w) / 1e6 } } ?? 0
            results.append(Step(cancel: s.cancelWrote.map(ms), speak: ms(speak), data: ms(data), queued: ms(queued),
                                cancelAnswer: answer, own: ms(speak) - answer))
        }
        runner.send(.quit)
        _ = finished.wait(timeout: .now() + 5)
        output.stop()
        var r = "tandem: \(results.count) steps of `next` on a 100000-element catalog (\(timeouts) timed out, "
        r += "\(late) began while the previous speech had not begun after 3 s); "
        r += "\(results.filter { $0.cancel != nil }.count) cut speech\n"
        r += line("  send -> CANCEL SELF written", results.compactMap(\.cancel))
        r += line("  send -> SPEAK written", results.map(\.speak))
        r += line("  send -> text written", results.map(\.data))
        r += line("  send -> 225 (queued)", results.map(\.queued))
        r += line("  CANCEL answer (daemon)", results.map(\.cancelAnswer))
        r += line("  Tandem's own share", results.map(\.own))
        return (r, results)
    }

    // MARK: floors

    static func measureSpdSay(address: String, steps: Int) -> String {
        setenv("SPEECHD_ADDRESS", address, 1)
        var error: UnsafeMutablePointer<CChar>?
        guard let addr = spd_get_default_address(&error) else { return "spd_say: bad address\n" }
        defer { SPDConnectionAddress__free(addr) }
        guard let c = spd_open2("tandem-bench", "floor", nil, SPD_MODE_SINGLE, addr, 0, &error) else {
            return "spd_say: cannot connect: \(error.map { String(cString: $0) } ?? "?")\n"
        }
        defer { spd_close(c) }
        spd_set_language(c, "pt-br")
        var cancel: [Double] = [], say: [Double] = [], both: [Double] = []
        for i in 0..<(steps + 20) {
            Thread.sleep(forTimeInterval: 0.035)
            let text = "Produto \(i), 1 kg, R$ 5,99, botão"
            let t0 = WorkerClock.monotonic.now()
            spd_cancel(c)
            let t1 = WorkerClock.monotonic.now()
            _ = spd_say(c, SPD_TEXT, text)
            let t2 = WorkerClock.monotonic.now()
            guard i >= 20 else { continue }
            cancel.append(Double(t1 - t0) / 1e6); say.append(Double(t2 - t1) / 1e6); both.append(Double(t2 - t0) / 1e6)
        }
        spd_cancel(c)
        var r = "libspeechd floor: \(both.count) steps\n"
        r += line("  spd_cancel", cancel)
        r += line("  spd_say (priority, SPEAK, text, 225)", say)
        r += line("  spd_cancel + spd_say", both)
        return r
    }

    static func measurePython(address: String, steps: Int) -> String {
        let script = """
        import speechd, sys, time, json
        c = speechd.SSIPClient('tandem-bench', component='python', address=sys.argv[1], autospawn=False)
        c.set_language('pt-br'); c.set_priority('text')
        out = []
        for i in range(int(sys.argv[2]) + 20):
            time.sleep(0.035)
            t0 = time.perf_counter_ns(); c.cancel(); t1 = time.perf_counter_ns()
            c.speak('Produto %d, 1 kg, R$ 5,99, botão' % i); t2 = time.perf_counter_ns()
            if i >= 20: out.append(((t1 - t0) / 1e6, (t2 - t1) / 1e6, (t2 - t0) / 1e6))
        c.cancel(); c.close()
        print(json.dumps(out))
        """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", script, address, String(steps)]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return "python3-speechd: cannot run /usr/bin/python3\n" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard let rows = try? JSONDecoder().decode([[Double]].self, from: data), !rows.isEmpty else {
            return "python3-speechd: no result (is python3-speechd installed? scripts/install-deps.sh)\n"
        }
        var r = "python3-speechd: \(rows.count) steps\n"
        r += line("  cancel()", rows.map { $0[0] })
        r += line("  speak()", rows.map { $0[1] })
        r += line("  cancel() + speak()", rows.map { $0[2] })
        return r
    }

    static func line(_ what: String, _ values: [Double]) -> String {
        guard !values.isEmpty else { return "\(what): no samples\n" }
        let s = values.sorted()
        func p(_ q: Double) -> Double { s[min(s.count - 1, Int(Double(s.count) * q))] }
        return what.padding(toLength: 40, withPad: " ", startingAt: 0)
            + String(format: "median %7.3f ms  p90 %7.3f  p99 %7.3f  max %7.3f", p(0.5), p(0.9), p(0.99), s[s.count - 1]) + "\n"
    }
}
