import Foundation
import Synchronization
import TandemModel
import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemService
import TandemSession
import TandemVocabulary

/// `tandem-bench soak`: a long live replay through a private speech-dispatcher and BRLTTY
/// while both are SIGKILLed and restarted at seeded random moments (Docs/reliability.md#soak).
///
/// The session runs in this process, as `tandem replay --speech --braille` runs it (a
/// `LiveReplay` with `SpeechDispatcherOutput` and `BrlAPIOutput`), so the memory and
/// descriptors measured are the session's, and its braille frames and the capture share
/// one monotonic clock. What must be said comes from the headless replay of the same scenario.
struct Soak {
    var speechdRestarts = 1000
    var brlttyRestarts = 200
    /// Seconds of scenario in which faults happen; by default long enough that restarts
    /// are about 1.2 s apart for speech-dispatcher and 3 s for BRLTTY.
    var seconds: Int?
    var seed: UInt64 = 1
    var portOffset = 83
    var keep = false
    /// The capture module's speaking time, ms a character (`SPEECHD_MS_PER_CHAR`): long enough
    /// that a kill usually falls while a message is being spoken, so a message cut by it is
    /// told from one heard whole; 0 for the instant module.
    var msPerChar = 5

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Parses `[--speechd N] [--brltty M] [--seconds S] [--seed X] [--port-offset P] [--ms-per-char C] [--keep]`.
    init(arguments: [String]) throws {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--keep" { keep = true; continue }
            guard let value = rest.popFirst(), let n = UInt64(value) else {
                throw Failure(description: "soak: \(flag) takes a whole number")
            }
            switch flag {
            case "--speechd": speechdRestarts = Int(n)
            case "--brltty": brlttyRestarts = Int(n)
            case "--seconds": seconds = Int(n)
            case "--seed": seed = n
            case "--port-offset": portOffset = Int(n)
            case "--ms-per-char": msPerChar = Int(n)
            default: throw Failure(description: "soak: unknown option \(flag)")
            }
        }
    }

    /// One restart: when the kill began, when the daemon answered again, when output was back.
    struct Restart: Sendable {
        var killed: UInt64
        var ready: UInt64
        var back: UInt64?
    }

    func run() throws -> SoakReport {
        guard let root = SoakDaemons.packageRoot() else {
            throw Failure(description: "soak: cannot find scripts/services/ (run it from the package folder)")
        }
        let active = seconds ?? max(60, speechdRestarts * 6 / 5, brlttyRestarts * 3)
        let directory = NSTemporaryDirectory() + "tandem-soak-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let daemons = SoakDaemons(root: root, directory: directory, portOffset: portOffset, msPerChar: msPerChar)
        defer {
            daemons.stop()
            if !keep { try? FileManager.default.removeItem(atPath: directory) }
        }
        try daemons.start()

        let catalogPath = root + "/Examples/grocery/grocery.catalog.json"
        let catalog: Catalog
        let scenario: Scenario
        let store = ProfileStore()
        let profile: Profile
        do {
            catalog = try CatalogLoader.load(path: catalogPath).catalog
            let text = SoakScenario.text(seconds: active)
            try text.write(toFile: directory + "/soak.scenario", atomically: true, encoding: .utf8)
            scenario = try Scenario.parse(text, file: "soak.scenario", catalog: catalog)
            profile = try store.load("default").0
        } catch { throw Failure(description: "soak: \(error)") }
        let translator: @Sendable (Profile) -> any BrailleTranslator = {
            LouisTranslator(contracted: $0.contracted, computerBrailleAtCursor: $0.computerBrailleAtCursor)
        }

        // What must be said: the headless transcript of the same scenario.
        let expected = SoakSessionRecorder()
        do {
            _ = try Replay(catalog: catalog, scenario: scenario, profile: profile, profiles: store, makeTranslator: translator)
                .run(sink: expected)
        } catch { throw Failure(description: "soak: headless replay: \(error)") }

        let live = SoakSessionRecorder()
        let follower = CaptureFollower(path: daemons.capture)
        let outputs: [any LiveOutput] = [
            SpeechDispatcherOutput(address: daemons.speechAddress, voice: profile.voiceSettings),
            BrlAPIOutput(host: daemons.brailleHost, auth: nil, keyMap: profile.keyMap),
        ]
        let replay = LiveReplay(catalog: catalog, scenario: scenario, profile: profile, profiles: store, makeTranslator: translator)
        guard let transcript = FileHandle(forWritingAtPath: directory + "/live.jsonl")
                ?? (FileManager.default.createFile(atPath: directory + "/live.jsonl", contents: nil)
                    ? FileHandle(forWritingAtPath: directory + "/live.jsonl") : nil) else {
            throw Failure(description: "soak: cannot write \(directory)/live.jsonl")
        }
        let transcriptSink = TranscriptSink(handle: transcript)

        printErr("tandem-bench soak: \(active) s of scenario, \(speechdRestarts) speech-dispatcher and \(brlttyRestarts) BRLTTY restarts, seed \(seed), in \(directory)")
        var random = SoakRandom(seed: seed)
        let speechMoments = (0..<speechdRestarts).map { _ in random.moment(within: active) }.sorted()
        let brailleMoments = (0..<brlttyRestarts).map { _ in random.moment(within: active) }.sorted()
        let start = WorkerClock.monotonic.now()
        let running = RunFlag()
        let speechFaults = FaultThread(start: start, moments: speechMoments, running: running,
                                       crash: { try daemons.crashSpeechd() })
        let brailleFaults = FaultThread(start: start, moments: brailleMoments, running: running,
                                        crash: { try daemons.crashBrltty() }) {
            // the frame the session shows now, on the display again
            let deadline = WorkerClock.monotonic.now() + 10_000_000_000
            while WorkerClock.monotonic.now() < deadline {
                if let frame = live.frame, let cells = daemons.displayCells(),
                   cells == SoakDaemons.cells(showing: frame, columns: cells.count) { return WorkerClock.monotonic.now() }
                Thread.sleep(forTimeInterval: 0.002)
            }
            return nil
        }
        let usage = UsageSamples()
        let sampler = Thread {
            Thread.sleep(forTimeInterval: 1.5)
            usage.state.withLock { $0.before = ProcessUsage.now() }
            speechFaults.wait()
            brailleFaults.wait()
            // in the quiet tail: kept messages said, braille back
            Thread.sleep(forTimeInterval: 4)
            usage.state.withLock { $0.after = ProcessUsage.now() }
        }
        sampler.start()

        let failures: [Diagnostic]
        do {
            failures = try replay.run(transcript: MultiplexSink([transcriptSink, live]), outputs: outputs)
        } catch { throw Failure(description: "soak: live replay: \(error)") }
        let ended = WorkerClock.monotonic.now()
        running.stop()
        transcriptSink.flush()
        try? transcript.close()
        speechFaults.wait()
        brailleFaults.wait()
        Thread.sleep(forTimeInterval: 1)
        let captured = follower.finish()
        let sampled = usage.state.withLock { $0 }

        if keep {
            // every restart on the monotonic clock of display.log, to line up with it by hand
            var rows = "daemon\tkilled_ns\tready_ns\tback_ns\n"
            for (name, faults) in [("speech-dispatcher", speechFaults), ("brltty", brailleFaults)] {
                for r in faults.restarts { rows += "\(name)\t\(r.killed)\t\(r.ready)\t\(r.back.map(String.init) ?? "-")\n" }
            }
            try? rows.write(toFile: directory + "/restarts.tsv", atomically: true, encoding: .utf8)
        }
        return SoakReport(
            seconds: active, seed: seed, msPerChar: msPerChar, elapsed: Double(ended - start) / 1e9,
            expected: expected.said, live: live.said, captured: captured,
            speechRestarts: speechFaults.restarts, speechPlanned: speechdRestarts, speechErrors: speechFaults.errors,
            brailleRestarts: brailleFaults.restarts, braillePlanned: brlttyRestarts, brailleErrors: brailleFaults.errors,
            before: sampled.before, after: sampled.after, failures: failures.count
        )
    }
}

/// The process's usage early in the run and in its quiet tail.
final class UsageSamples: Sendable {
    let state = Mutex<(before: ProcessUsage?, after: ProcessUsage?)>((nil, nil))
}

/// Whether the live run still goes on.
final class RunFlag: Sendable {
    private let value = Atomic<Bool>(true)
    var isRunning: Bool { value.load(ordering: .relaxed) }
    func stop() { value.store(false, ordering: .relaxed) }
}

/// Runs `crash` at each moment (ms after `start`), one after the other, then `settled` to see
/// when output is back; keeps each restart's times. Stops early once the run has ended.
final class FaultThread: Sendable {
    private let state = Mutex<(restarts: [Soak.Restart], errors: [String])>(([], []))
    private let done = DispatchSemaphore(value: 0)

    init(start: UInt64, moments: [Int], running: RunFlag, crash: @escaping @Sendable () throws -> Void,
         settled: @escaping @Sendable () -> UInt64? = { nil }) {
        let thread = Thread { [self] in
            for moment in moments {
                let due = start + UInt64(moment) * 1_000_000
                while WorkerClock.monotonic.now() < due, running.isRunning { Thread.sleep(forTimeInterval: 0.001) }
                guard running.isRunning else { break }
                let killed = WorkerClock.monotonic.now()
                do { try crash() } catch {
                    state.withLock { $0.errors.append("\(error)") }
                    continue
                }
                let ready = WorkerClock.monotonic.now()
                let back = settled()
                state.withLock { $0.restarts.append(Soak.Restart(killed: killed, ready: ready, back: back)) }
            }
            done.signal()
        }
        thread.start()
    }

    /// Waits until every moment has passed (or the run ended); may be called again.
    func wait() {
        done.wait()
        done.signal()
    }

    var restarts: [Soak.Restart] { state.withLock { $0.restarts } }
    var errors: [String] { state.withLock { $0.errors } }
}

/// SplitMix64: the soak's seeded randomness (the same moments for the same seed).
struct SoakRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A moment in ms between 2 s after the start and the end of the active part.
    mutating func moment(within seconds: Int) -> Int {
        let span = UInt64(max(1, seconds * 1000 - 2000))
        return 2000 + Int(next() % span)
    }
}
