import Foundation
import TandemTestSupport

/// What a job did, for the tests to check.
struct CIJobResult {
    var name: String
    var workspace: String
    /// Each step or script as run: its output, or why it was skipped.
    var log: [String] = []
    var failed: ProcessResult?
    var skipped: [String] = []
}

/// Runs the jobs of Examples/ci/github-actions.yml as GitHub would, in order, each in a fresh
/// workspace under `root`: `run:` steps through bash (`bash --noprofile --norc -eo pipefail`,
/// GitHub's default), `${{ }}` expressions and `if:` conditions evaluated, and the actions the
/// workflow uses played by the test: the checkouts, the cache (a key a saved binary), the
/// artifacts (whose files lose their mode, as GitHub's do) and the JUnit report (its file read).
final class GitHubRunner {
    let file: CIFile
    let root: String
    let commit: String
    var cache: [String: String] = [:]
    var artifacts: [String: String] = [:]
    var event = ["github.event_name": "push", "github.repository": "your-org/app",
                 "github.event.pull_request.head.repo.full_name": ""]
    /// Each `swift` call a job made, through the shim.
    let swiftCalls: String
    /// JUnit files the report step read.
    var reports: [String] = []
    private var runs = 0

    init(_ file: CIFile, root: String) throws {
        self.file = file
        self.root = root
        commit = try CIWorkspace.commit()
        swiftCalls = root + "/swift-calls.log"
        _ = FileManager.default.createFile(atPath: swiftCalls, contents: nil)
    }

    var jobs: [String: [String: Any]] { file.root["jobs"] as? [String: [String: Any]] ?? [:] }
    var env: [String: String] { (file.root["env"] as? [String: Any] ?? [:]).mapValues { "\($0)" } }

    /// The matrix's values for `job` (one empty set when it has none).
    func matrix(_ job: String) -> [[String: String]] {
        guard let m = (jobs[job]?["strategy"] as? [String: Any])?["matrix"] as? [String: [Any]], let (key, values) = m.first else { return [[:]] }
        return values.map { ["matrix.\(key)": "\($0)"] }
    }

    func run(job name: String, matrix: [String: String] = [:]) throws -> CIJobResult {
        runs += 1
        let workspace = root + "/\(name)-\(runs)"
        try FileManager.default.createDirectory(atPath: workspace, withIntermediateDirectories: true)
        var result = CIJobResult(name: name, workspace: workspace)
        var context = GitHubContext(values: event.merging(matrix) { $1 }.merging(["runner.os": "Linux"]) { $1 })
        for (k, v) in env { context.values["env.\(k)"] = v }
        var jobEnv = env.merging(CIWorkspace.path(image: jobs[name]?["container"] as? String ?? "")) { $1 }
        jobEnv["SWIFT_CALLS"] = swiftCalls
        jobEnv["CI"] = "true"
        var toSave: [(key: String, path: String)] = []
        let steps = jobs[name]?["steps"] as? [[String: Any]] ?? []
        for step in steps {
            let label = try (step["name"] as? String).map { try context.expand($0) } ?? (step["uses"] as? String ?? step["run"] as? String ?? "?")
            if let condition = step["if"] as? String, !(try context.holds(condition)) {
                result.skipped.append(label)
                continue
            }
            let id = step["id"] as? String
            let with = try (step["with"] as? [String: Any] ?? [:]).mapValues { try context.expand("\($0)") }
            if let uses = step["uses"] as? String {
                switch uses {
                case "actions/checkout@v4":
                    if with["repository"] == "your-org/tandem" {
                        try CIWorkspace.tandem(in: workspace)
                        if let id { context.values["steps.\(id).outputs.commit"] = commit }
                    } else {
                        try CIWorkspace.app(at: workspace)
                    }
                case "actions/cache@v4":
                    let key = try require2(with["key"], "cache without a key")
                    let path = try require2(with["path"], "cache without a path")
                    if let saved = cache[key] {
                        try CIWorkspace.copy(saved, into: workspace + "/" + (path as NSString).deletingLastPathComponent)
                        if let id { context.values["steps.\(id).outputs.cache-hit"] = "true" }
                        result.log.append("cache hit \(key)")
                    } else {
                        if let id { context.values["steps.\(id).outputs.cache-hit"] = "false" }
                        toSave.append((key, path))
                        result.log.append("cache miss \(key)")
                    }
                case "actions/upload-artifact@v4":
                    let store = root + "/artifacts/" + (try require2(with["name"], "artifact without a name"))
                    try CIWorkspace.copy(workspace + "/" + (try require2(with["path"], "artifact without a path")), into: store)
                    artifacts[with["name"]!] = store
                case "actions/download-artifact@v4":
                    let name = try require2(with["name"], "download without a name")
                    let store = try require2(artifacts[name], "no artifact \(name) uploaded before")
                    // GitHub's artifacts keep no file mode: an executable comes back as 0644.
                    try CIWorkspace.copy(store, into: workspace + "/" + (with["path"] ?? "."), mode: 0o644)
                case "mikepenz/action-junit-report@v4":
                    let report = workspace + "/" + (try require2(with["report_paths"], "no report_paths"))
                    guard FileManager.default.fileExists(atPath: report) else { throw TestSupportError("\(label): no \(report)") }
                    reports.append(report)
                    result.log.append("check \(with["check_name"] ?? "?")")
                default:
                    throw TestSupportError("the workflow uses \(uses), which this test does not play")
                }
                continue
            }
            guard let script = step["run"] as? String else { throw TestSupportError("a step with neither uses nor run: \(step)") }
            let output = workspace + "/.github-output"
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            let r = try StaticTandem.sh(try context.expand(script), in: workspace, jobEnv.merging(["GITHUB_OUTPUT": output]) { $1 }, timeout: .seconds(3600))
            result.log.append("$ \(label)\n\(r.stdout)\(r.stderr)")
            if let id {
                for line in (try String(contentsOfFile: output, encoding: .utf8)).split(separator: "\n") {
                    let kv = line.split(separator: "=", maxSplits: 1)
                    if kv.count == 2 { context.values["steps.\(id).outputs.\(kv[0])"] = String(kv[1]) }
                }
            }
            if r.status != 0 {
                result.failed = r
                return result
            }
        }
        for (key, path) in toSave {  // the cache's post step: saved when the job succeeded
            let store = root + "/cache/\(cache.count)"
            try CIWorkspace.copy(workspace + "/" + path, into: store)
            cache[key] = store + "/" + (path as NSString).lastPathComponent
        }
        return result
    }
}

/// Runs the jobs of Examples/ci/gitlab-ci.yml as a GitLab runner would: stage by stage, each
/// job's `script` lines as one bash script, `parallel: N` as N jobs with `CI_NODE_INDEX` and
/// `CI_NODE_TOTAL`, the job's `cache` restored before and saved after, the `artifacts` of the
/// jobs it `needs` copied in (modes kept, as GitLab keeps them), and the Tandem submodule
/// present only when `GIT_SUBMODULE_STRATEGY` fetches it.
final class GitLabRunner {
    let file: CIFile
    let root: String
    /// Per cache key, a folder holding the cached paths.
    var caches: [String: String] = [:]
    var artifacts: [String: String] = [:]
    let swiftCalls: String
    private var runs = 0

    init(_ file: CIFile, root: String) throws {
        self.file = file
        self.root = root
        swiftCalls = root + "/swift-calls.log"
        _ = FileManager.default.createFile(atPath: swiftCalls, contents: nil)
    }

    static let reserved: Set<String> = ["variables", "stages", "default", "include", "workflow", "image", "services", "cache", "before_script", "after_script"]
    var variables: [String: String] { (file.root["variables"] as? [String: Any] ?? [:]).mapValues { "\($0)" } }
    func job(_ name: String) -> [String: Any] { file.root[name] as? [String: Any] ?? [:] }
    /// The jobs, stage by stage, in the file's order within a stage.
    var jobNames: [String] {
        let stages = file.root["stages"] as? [String] ?? ["build", "test", "deploy"]
        let names = file.root.keys.filter { !Self.reserved.contains($0) && !$0.hasPrefix(".") }
        let order = file.text.split(separator: "\n").compactMap { line -> String? in
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix(" ") else { return nil }
            return String(line[..<colon])
        }
        return names.sorted { a, b in
            let sa = stages.firstIndex(of: job(a)["stage"] as? String ?? "test") ?? 0, sb = stages.firstIndex(of: job(b)["stage"] as? String ?? "test") ?? 0
            return sa != sb ? sa < sb : (order.firstIndex(of: a) ?? 0) < (order.firstIndex(of: b) ?? 0)
        }
    }

    /// The job `name`, once per `parallel` node; each result in order.
    func run(job name: String) throws -> [CIJobResult] {
        let spec = job(name)
        let nodes = spec["parallel"] as? Int
        return try (nodes.map { Array(1...$0) } ?? [0]).map { index in
            try run(name, spec, node: nodes.map { (index, $0) })
        }
    }

    private func run(_ name: String, _ spec: [String: Any], node: (Int, Int)?) throws -> CIJobResult {
        runs += 1
        let workspace = root + "/\(name)-\(runs)"
        try CIWorkspace.app(at: workspace)
        let strategy = variables["GIT_SUBMODULE_STRATEGY"] ?? "none"
        if strategy == "recursive" || strategy == "normal" { try CIWorkspace.tandem(in: workspace) }
        var result = CIJobResult(name: name, workspace: workspace)
        for need in spec["needs"] as? [String] ?? [] {
            let store = try require2(artifacts[need], "\(name) needs \(need), which kept no artifacts")
            try CIWorkspace.copy(store, into: workspace)
        }
        let cache = spec["cache"] as? [String: Any]
        let cacheKey = cache?["key"] as? String
        if let cacheKey, let saved = caches[cacheKey] { try CIWorkspace.copy(saved, into: workspace) }
        var env = variables.merging(CIWorkspace.path(image: spec["image"] as? String ?? "")) { $1 }
        env["SWIFT_CALLS"] = swiftCalls
        env["CI"] = "true"
        if let node { env["CI_NODE_INDEX"] = String(node.0); env["CI_NODE_TOTAL"] = String(node.1) }
        let lines = spec["script"] as? [String] ?? []
        let r = try StaticTandem.sh(lines.joined(separator: "\n"), in: workspace, env, timeout: .seconds(3600))
        result.log.append(r.stdout + r.stderr)
        if r.status != 0 { result.failed = r; return result }
        if let cacheKey {
            let store = root + "/cache-\(runs)"
            for path in cache?["paths"] as? [String] ?? [] where FileManager.default.fileExists(atPath: workspace + "/" + path) {
                try CIWorkspace.copy(workspace + "/" + path, into: store + "/" + path)
            }
            caches[cacheKey] = store
        }
        if let paths = (spec["artifacts"] as? [String: Any])?["paths"] as? [String], node == nil {
            let store = root + "/artifacts-\(name)"
            for path in paths { try CIWorkspace.copy(workspace + "/" + path, into: store + "/" + (path as NSString).deletingLastPathComponent) }
            artifacts[name] = store
        }
        return result
    }
}

/// A value the CI file must have, else a clear error (Testing's #require is for test bodies).
func require2<T>(_ value: T?, _ message: String) throws -> T {
    guard let value else { throw TestSupportError(message) }
    return value
}
