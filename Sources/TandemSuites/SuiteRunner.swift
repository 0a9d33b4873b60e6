import Dispatch
import Foundation
import Synchronization
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession
import TandemVocabulary

/// Runs a plan's cases on a fixed pool of threads, each running whole cases: a catalog is
/// loaded once for all its cases, each case replays its scenario on the virtual clock (so its
/// transcript is the same whatever runs beside it) and is compared with its golden file, or
/// writes it with `update`.
///
/// Results reach `progress` in plan order, each as soon as it and all before it are done, so a
/// log reads the same on every run.
public struct SuiteRunner: Sendable {
    /// Threads running cases.
    public var jobs: Int
    /// Write new and changed golden files instead of failing on them.
    public var update = false
    /// Keep transcripts in the results (for the HTML report).
    public var keepTranscripts = false
    /// With `keepTranscripts`, keep passing cases' too (`false`: failures only, which keeps a
    /// report of thousands of passing cases small).
    public var keepPassingTranscripts = true
    public var profiles: ProfileStore
    public var makeTranslator: @Sendable (Profile) -> any BrailleTranslator

    public init(jobs: Int, profiles: ProfileStore, makeTranslator: @escaping @Sendable (Profile) -> any BrailleTranslator) {
        self.jobs = max(1, jobs)
        self.profiles = profiles
        self.makeTranslator = makeTranslator
    }

    /// A loaded catalog, or why it did not load.
    typealias Loaded = Result<Catalog, Diagnostic>

    public func run(_ plan: TestPlan, progress: @escaping @Sendable (CaseResult) -> Void = { _ in }) -> RunSummary {
        let start = ContinuousClock.now
        let problems = plan.problems.map { p in
            CaseResult(name: p.name, file: p.name, catalog: nil, profile: nil, outcome: .error(p.diagnostic))
        }
        let total = problems.count + plan.cases.count
        let order = Ordered(count: total, progress: progress)
        for (i, r) in problems.enumerated() { order.done(i, r) }

        // Catalogs first (each once), then profiles, then the cases.
        let scenarioCases = plan.cases.filter { !$0.isRecording && !$0.isApp }
        let needed = Array(Set(scenarioCases.map(\.suite))).sorted()
        let catalogs = Mutex<[Int: Loaded]>([:])
        parallel(needed.count) { k in
            let suite = plan.suites[needed[k]]
            let loaded = Self.loadCatalog(suite.catalog)
            catalogs.withLock { $0[needed[k]] = loaded }
        }
        let loadedCatalogs = catalogs.withLock { $0 }
        var loadedProfiles: [String: Result<Profile, Diagnostic>] = [:]
        for name in Set(scenarioCases.map(\.profile)) {
            do { loadedProfiles[name] = .success(try profiles.load(name).0) } catch { loadedProfiles[name] = .failure(error) }
        }
        let profileTable = loadedProfiles
        parallel(plan.cases.count) { i in
            let c = plan.cases[i]
            let result = c.isRecording ? runRecording(c) : c.isApp ? runApp(c)
                : runCase(c, suite: plan.suites[c.suite], catalog: loadedCatalogs[c.suite]!, profile: profileTable[c.profile]!)
            order.done(problems.count + i, result)
        }
        return RunSummary(results: order.results, seconds: Self.seconds(since: start))
    }

    /// Runs `body(0..<count)` on `jobs` threads, each taking the next index as it finishes one.
    func parallel(_ count: Int, _ body: @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(jobs, count)) { _ in
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                if i >= count { break }
                body(i)
            }
        }
    }

    static func loadCatalog(_ path: String) -> Loaded {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(Diagnostic(file: path, line: nil, path: "", message: FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file"))
        }
        var decoder = CatalogDecoder(file: path)
        do { return .success(try decoder.decode(Array(data))) } catch { return .failure(error) }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    func runCase(_ c: TestCase, suite: Suite, catalog loaded: Loaded, profile: Result<Profile, Diagnostic>) -> CaseResult {
        let start = ContinuousClock.now
        var result = CaseResult(name: c.name, file: c.scenario, catalog: suite.catalog, profile: c.profile, outcome: .passed)
        do throws(Diagnostic) {
            let catalog = try loaded.get()
            let profile = try profile.get()
            result.language = c.language ?? profile.language ?? catalog.language
            let golden = c.goldenPath(catalogLanguage: catalog.language)
            result.golden = golden
            let (scenario, source) = try Self.scenario(c.scenario, catalog: catalog, profiles: profiles)
            var replay = Replay(catalog: catalog, scenario: scenario, profile: profile, profiles: profiles, makeTranslator: makeTranslator)
            replay.language = c.language
            let sink = LineSink()
            let run = try replay.run(sink: sink)
            let got = sink.lines
            var failures: [CaseResult.Failure] = run.failures.map { .expectFailed($0) }
            if run.cutShort { failures.append(.cutShort) }

            try compare(got, recordable: sink.recordable, golden: golden, failures: &failures, result: &result) { expected, changes in
                HeardDiff(changes: changes, expected: expected, got: got, scenario: scenario, source: source)
            }
            if !failures.isEmpty { result.outcome = .failed(failures) }
        } catch {
            result.outcome = .error(error)
        }
        result.milliseconds = Self.seconds(since: start) * 1000
        return result
    }

    /// Compares a case's transcript with its golden file (or writes it with `update`), adding
    /// what failed to `failures`; `heard` tells a difference in words. `recordable` is what
    /// `update` writes: the transcript without the events of failed `expect` lines (recorded,
    /// the next run would expect the failure); nil: all of `got`.
    func compare(_ got: [String], recordable: [String]? = nil, golden: String, failures: inout [CaseResult.Failure], result: inout CaseResult,
                 heard: ([String], [TranscriptDiff.Change]) -> HeardDiff) throws(Diagnostic) {
        let recordable = recordable ?? got
        let expected = try Self.golden(golden)
        if let expected {
            let changes = TranscriptDiff.changes(expected: expected, got: update ? recordable : got)
            if !changes.isEmpty {
                if update {
                    try Self.write(recordable, to: golden)
                    result.written = .updated(golden, changedLines: changes.count)
                } else {
                    failures.append(.differs(golden: golden, changes: changes, heard: heard(expected, changes)))
                }
            }
        } else if update {
            try Self.write(recordable, to: golden)
            result.written = .recorded(golden)
        } else {
            failures.append(.missingGolden(golden))
        }
        if keepTranscripts && (keepPassingTranscripts || !failures.isEmpty) {
            result.transcript = got
            if !failures.isEmpty { result.expected = expected }
        }
    }

    /// A recorded `tandem serve` session: replayed in the profile and with the catalog it was
    /// recorded with, compared with `NAME.session.golden.jsonl`. A difference is told after
    /// the recorded key it followed, by the recording's line.
    func runRecording(_ c: TestCase) -> CaseResult {
        let start = ContinuousClock.now
        let replay: SessionReplay
        do { replay = try SessionReplay.load(c.scenario, profiles: profiles, makeTranslator: makeTranslator) } catch {
            var result = CaseResult(name: c.name, file: c.scenario, catalog: nil, profile: nil, outcome: .error(error))
            result.milliseconds = Self.seconds(since: start) * 1000
            return result
        }
        var profile: String?
        if case .start(let p, _, _, _)? = replay.inputs.first?.input { profile = p }
        var result = CaseResult(name: c.name, file: c.scenario, catalog: nil, profile: profile, outcome: .passed)
        do throws(Diagnostic) {
            let golden = c.goldenPath(catalogLanguage: "")
            result.golden = golden
            let sink = LineSink()
            let run = try replay.run(sink: sink)
            let got = sink.lines
            var failures: [CaseResult.Failure] = run.cutShort ? [.cutShort] : []
            let keys = RecordedKeys(replay.inputs, file: c.scenario)
            try compare(got, golden: golden, failures: &failures, result: &result) { expected, changes in
                HeardDiff(changes: changes, expected: expected, got: got, scenario: keys.scenario, source: keys.source)
            }
            if !failures.isEmpty { result.outcome = .failed(failures) }
        } catch {
            result.outcome = .error(error)
        }
        result.milliseconds = Self.seconds(since: start) * 1000
        return result
    }

    /// The parsed scenario and its lines as written (to name the step behind a change).
    static func scenario(_ path: String, catalog: Catalog, profiles: ProfileStore) throws(Diagnostic) -> (Scenario, [Substring]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Diagnostic(file: path, line: nil, path: "", message: FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw Diagnostic(file: path, line: nil, path: "", message: "not valid UTF-8")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return (try Scenario.parse(text, file: path, catalog: catalog, profileExists: profiles.exists), lines)
    }

    /// The golden file's lines; `nil` when there is none. One that exists but cannot be read
    /// is bad input.
    static func golden(_ path: String) throws(Diagnostic) -> [String]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Diagnostic(file: path, line: nil, path: "", message: "cannot read the golden file")
        }
        // Split on the newline byte, over the raw bytes (a golden has thousands of lines).
        var lines: [String] = []
        var valid = true
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
                guard let line = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self) else {
                    valid = false
                    return
                }
                lines.append(line)
                start = i + 1
            }
        }
        guard valid else {
            throw Diagnostic(file: path, line: lines.count + 1, path: "", message: "the golden file is not valid UTF-8")
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// A transcript as `tandem replay --out` writes it: each line ends with a newline.
    static func write(_ lines: [String], to path: String) throws(Diagnostic) {
        do { try AtomicFile.write(lines.map { $0 + "\n" }.joined(), to: path) } catch {
            throw Diagnostic(file: path, line: nil, path: "", message: "cannot write the golden file (\(error.reason))")
        }
    }
}

/// Transcript lines collected in memory.
final class LineSink: OutputSink, @unchecked Sendable {  // one case's replay, on one thread, fills it; read after the replay returns
    // Used by one case's replay on one thread only.
    private(set) var lines: [String] = []
    /// The lines `--update` records: all but the `expect-failed` events. A golden holds what the
    /// user hears and feels; a failed `expect` is the run's verdict, reported, never recorded
    /// (recorded, the next run would expect the failure).
    private(set) var recordable: [String] = []
    func emit(_ record: Record, at time: Int) {
        let line = Transcript.line(for: record, at: time).json
        lines.append(line)
        if case .event(let e) = record, e.type == "expect-failed" { return }
        recordable.append(line)
    }
}

/// Results stored as they finish, handed on in plan order.
final class Ordered: Sendable {
    private struct State {
        var results: [CaseResult?]
        var next = 0
    }
    private let state: Mutex<State>
    private let progress: @Sendable (CaseResult) -> Void

    init(count: Int, progress: @escaping @Sendable (CaseResult) -> Void) {
        state = Mutex(State(results: Array(repeating: nil, count: count)))
        self.progress = progress
    }

    func done(_ i: Int, _ result: CaseResult) {
        state.withLock { s in
            s.results[i] = result
            while s.next < s.results.count, let r = s.results[s.next] {
                progress(r)
                s.next += 1
            }
        }
    }

    var results: [CaseResult] { state.withLock { $0.results.compactMap { $0 } } }
}
