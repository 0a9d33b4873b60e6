import Foundation
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession
import TandemSuites

/// `tandem-bench suites [CATALOGS SCENARIOS]`: a generated suite of CATALOGS × SCENARIOS cases
/// (100 × 100 by default) run as `tandem test` runs it — golden files recorded once, then the
/// whole suite with one thread and with two, then split with `--shard k/4` — each run in a
/// process of its own so that its peak memory is its own. Checks that the four shards are
/// disjoint and that their union is exactly the suite.
enum SuiteBenchmark {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// What one run reports (printed by `tandem-bench suite-run` as one JSON line).
    struct RunResult: Codable {
        var cases: Int
        var passed: Int
        var failed: Int
        var errors: Int
        var seconds: Double
        /// User and system CPU time of the process.
        var cpuSeconds: Double
        /// The 1-minute load average when the run ended (other work on the machine).
        var loadAverage: Double?
        var peakBytes: Int?
        /// Case names, when asked for (to check the shards' union).
        var names: [String]?
    }

    static let shards = 4

    static func run(catalogs: Int, scenarios: Int) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-bench-suite-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        printErr("tandem-bench: writing \(catalogs) catalogs × \(scenarios) scenarios under \(root)…")
        var (written, generateSeconds) = try generate(root: root, catalogs: catalogs, scenarios: scenarios)

        printErr("tandem-bench: recording \(written.cases) golden files (-j2)…")
        let record = try child(root, jobs: 2, extra: ["--update"])
        written.transcriptLines = goldenLines(root)
        printErr("tandem-bench: the suite with -j1…")
        let one = try child(root, jobs: 1)
        printErr("tandem-bench: the suite with -j2…")
        let two = try child(root, jobs: 2)
        var parts: [RunResult] = []
        for k in 1...shards {
            printErr("tandem-bench: shard \(k)/\(shards) with -j2…")
            parts.append(try child(root, jobs: 2, extra: ["--shard", "\(k)/\(shards)", "--names"]))
        }
        let all = try child(root, jobs: 2, extra: ["--names"])

        // The shards: disjoint, and together exactly the suite.
        let suite = Set(all.names ?? [])
        var union: Set<String> = []
        var overlap = 0
        for p in parts {
            for n in p.names ?? [] where !union.insert(n).inserted { overlap += 1 }
        }
        let exact = union == suite && overlap == 0 && suite.count == written.cases

        var out: [String] = []
        out.append("Tandem suite benchmark on \(Machine.current().summary)")
        out.append("\(catalogs) catalogs × \(scenarios) scenarios = \(written.cases) cases; catalogs of \(written.minElements)–\(written.maxElements) elements, scenarios of \(written.minCommands)–\(written.maxCommands) commands; \(written.transcriptLines) transcript lines in all")
        out.append("generated in \(format(generateSeconds)) s; each run below is `tandem test` in a process of its own (wall time, user + system CPU time, VmHWM, the 1-minute load average as it ended)")
        out.append("")
        out.append("| run | cases | passed | wall time (s) | cases/s | CPU time (s) | cases per CPU-s | peak memory (MB) | load average |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        func row(_ name: String, _ r: RunResult) {
            out.append("| \(name) | \(r.cases) | \(r.passed) | \(format(r.seconds)) | \(format(Double(r.cases) / r.seconds, digits: 0)) | \(format(r.cpuSeconds)) | \(format(Double(r.cases) / r.cpuSeconds, digits: 0)) | \(r.peakBytes.map { format(Double($0) / 1e6, digits: 0) } ?? "?") | \(r.loadAverage.map { format($0) } ?? "?") |")
        }
        row("record goldens (--update, -j2)", record)
        row("-j1", one)
        row("-j2", two)
        for (k, p) in parts.enumerated() { row("--shard \(k + 1)/\(shards) (-j2)", p) }
        let shardTotal = parts.reduce(0.0) { $0 + $1.seconds }
        out.append("")
        out.append("-j2 / -j1 speed-up: \(format(one.seconds / two.seconds))×")
        out.append("shards: sizes \(parts.map { String($0.cases) }.joined(separator: ", ")) (sum \(parts.reduce(0) { $0 + $1.cases })); slowest \(format(parts.map(\.seconds).max() ?? 0)) s, all four one after another \(format(shardTotal)) s")
        out.append("shards disjoint and their union exactly the suite: \(exact ? "yes" : "NO") (\(union.count) distinct of \(suite.count), \(overlap) in two shards)")
        let failures = [record, one, two] + parts
        if failures.contains(where: { $0.failed > 0 || $0.errors > 0 }) || record.cases != written.cases {
            out.append("note: some runs had failures or errors: \(failures.map { "\($0.failed)/\($0.errors)" }.joined(separator: " "))")
        }
        if !exact { throw Failure(description: out.joined(separator: "\n") + "\nthe shards do not partition the suite") }
        return out.joined(separator: "\n")
    }

    struct Written {
        var cases = 0
        var minElements = Int.max, maxElements = 0
        var minCommands = Int.max, maxCommands = 0
        var transcriptLines = 0
    }

    /// `appNNN/appNNN.catalog.json` and `appNNN/appNNN.sMMM.scenario`: catalogs of a few
    /// hundred elements (each a little different), scenarios of 20 to 60 commands that start
    /// at different places (the walk is the generator's, begun after a different number of
    /// `next`s).
    static func generate(root: String, catalogs: Int, scenarios: Int) throws -> (Written, Double) {
        let start = Date()
        var w = Written()
        for c in 0..<catalogs {
            let folder = "\(root)/app\(pad(c))"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let size = CatalogGenerator.smallest + 150 + (c % 10) * 17
            let generated = CatalogGenerator.generate(elements: size)
            try Data(generated.json).write(to: URL(fileURLWithPath: "\(folder)/app\(pad(c)).catalog.json"))
            var decoder = CatalogDecoder(file: "generated")
            let catalog = try decoder.decode(generated.json)
            w.minElements = min(w.minElements, generated.elements)
            w.maxElements = max(w.maxElements, generated.elements)
            for s in 0..<scenarios {
                let commands = 20 + (c * 7 + s * 13) % 41
                let skip = (c + s * 3) % 30
                let walk = ScenarioGenerator.text(commands: commands, catalog: catalog)
                let lines = walk.split(separator: "\n").map(String.init)
                let text = ([lines[0]] + Array(repeating: "next", count: skip) + lines.dropFirst()).joined(separator: "\n") + "\n"
                try text.write(toFile: "\(folder)/app\(pad(c)).s\(pad(s)).scenario", atomically: false, encoding: .utf8)
                w.minCommands = min(w.minCommands, commands + skip)
                w.maxCommands = max(w.maxCommands, commands + skip)
                w.cases += 1
            }
        }
        return (w, Date().timeIntervalSince(start))
    }

    /// Lines in every golden file under `root`.
    static func goldenLines(_ root: String) -> Int {
        var n = 0
        for folder in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] {
            for f in (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(folder)")) ?? [] where f.hasSuffix(GoldenName.suffix) {
                n += (FileManager.default.contents(atPath: "\(root)/\(folder)/\(f)") ?? Data()).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            }
        }
        return n
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func pad(_ n: Int) -> String { n < 10 ? "00\(n)" : n < 100 ? "0\(n)" : "\(n)" }

    static func format(_ d: Double, digits: Int = 2) -> String { String(format: "%.\(digits)f", d) }

    /// `tandem-bench suite-run ROOT --jobs N …` in a child process.
    static func child(_ root: String, jobs: Int, extra: [String] = []) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["suite-run", root, "--jobs", String(jobs)] + extra
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit else { throw Failure(description: "suite-run \(extra) crashed") }
        do { return try JSONDecoder().decode(RunResult.self, from: data) } catch {
            throw Failure(description: "suite-run \(extra) printed no result: \(error)")
        }
    }

    /// The child's side: the suite under `root` as `tandem test` runs it; one JSON line out.
    static func runChild(_ args: [String]) throws {
        guard let root = args.first else { throw Failure(description: "suite-run takes a folder") }
        var jobs = 2, update = false, names = false
        var shard: Shard?
        var i = 1
        while i < args.count {
            switch args[i] {
            case "--jobs": i += 1; jobs = Int(args[i]) ?? 2
            case "--shard": i += 1; shard = try Shard.parse(args[i])
            case "--update": update = true
            case "--names": names = true
            default: throw Failure(description: "suite-run: unknown option \(args[i])")
            }
            i += 1
        }
        let start = Date()
        let profiles = ProfileStore()
        var plan = try SuiteFinder(profileExists: profiles.exists).plan([root])
        if let shard { plan = plan.keeping(shard.contains) }
        var runner = SuiteRunner(jobs: jobs, profiles: profiles) { p in
            LouisTranslator(contracted: p.contracted, computerBrailleAtCursor: p.computerBrailleAtCursor)
        }
        runner.update = update
        let summary = runner.run(plan)
        let result = RunResult(cases: summary.results.count, passed: summary.passed, failed: summary.failed, errors: summary.errors,
                               seconds: Date().timeIntervalSince(start), cpuSeconds: cpuSeconds(),
                               loadAverage: ProcessMemory.read("/proc/loadavg")?.split(separator: " ").first.flatMap { Double($0) },
                               peakBytes: ProcessMemory.peak,
                               names: names ? summary.results.map(\.name) : nil)
        FileHandle.standardOutput.write(try JSONEncoder().encode(result))
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}
