import Foundation
import Testing
import TandemTestSupport

/// Examples/ci's GitHub Actions and GitLab CI files, run as written: every `run:` step and
/// `script:` line executed in a scratch app repository against a small suite (the bank
/// fixture and the jobs sample), the hosted actions played by the test (CIRunners.swift).
/// The build job really builds Tandem with the static Swift runtime (once a test run, into
/// `.build/ci-static`); the lint and shard jobs run it with Debian's folders only on PATH.
@Suite("Examples/ci, run as written", .serialized)
struct CIExamplesTests {
    /// The cases of the small suite: what the four shards must cover between them.
    static let cases = ["accessibility/bank/bank.scenario", "accessibility/bank/bank.transfer.scenario",
                        "accessibility/jobs/jobs.deafblind.scenario", "accessibility/jobs/jobs.scenario"]

    /// The test cases in a JUnit report, as their folder (`classname`) and scenario (`name`).
    static func junitCases(_ path: String) throws -> [String] {
        let xml = try String(contentsOfFile: path, encoding: .utf8)
        return xml.matches(of: /<testcase name="([^"]*)" classname="([^"]*)"/).map { "\($0.output.2)/\($0.output.1)" }
    }

    static func log(_ r: CIJobResult) -> String {
        r.log.joined(separator: "\n") + (r.failed.map { "\nFAILED \($0.status): \($0.stdout)\($0.stderr)" } ?? "")
    }

    static func swiftCalls(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("GitHub Actions: one static build a Tandem commit, cached; lint and four shards on Debian with the runtime only")
    func githubActions() throws {
        let file = try CIFile("Examples/ci/github-actions.yml")
        let root = CLITests.temporaryPath("github")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let gh = try GitHubRunner(file, root: root)
        #expect(Set(gh.jobs.keys) == ["tandem", "lint", "suites"])

        let build = try gh.run(job: "tandem")
        #expect(build.failed == nil, "\(Self.log(build))")
        #expect(build.log.first == "cache miss tandem-Linux-\(gh.commit)")
        #expect(try Self.swiftCalls(gh.swiftCalls).contains("swift build -c release --static-swift-stdlib --package-path tandem --product tandem"))
        #expect(build.log.contains { $0.hasPrefix("$ bin/tandem --version\ntandem \(CIVersion.expected)\n") }, "\(Self.log(build))")

        let lint = try gh.run(job: "lint")
        #expect(lint.failed == nil, "\(Self.log(lint))")
        var covered: [String] = []
        for (k, matrix) in gh.matrix("suites").enumerated() {
            let shard = try gh.run(job: "suites", matrix: matrix)
            #expect(shard.failed == nil, "\(Self.log(shard))")
            #expect(shard.log.contains("check accessibility (shard \(k + 1)/4)"))
            #expect(FileManager.default.fileExists(atPath: shard.workspace + "/reports/html-\(k + 1)/index.html"))
            covered += try Self.junitCases(shard.workspace + "/reports/junit-\(k + 1).xml")
        }
        #expect(gh.matrix("suites").count == 4)
        #expect(covered.sorted() == Self.cases, "the four shards run every case once")

        // The next run, same Tandem commit: the binary comes from the cache, nothing is built.
        try Data().write(to: URL(fileURLWithPath: gh.swiftCalls))
        let again = try gh.run(job: "tandem")
        #expect(again.failed == nil, "\(Self.log(again))")
        #expect(again.log.first == "cache hit tandem-Linux-\(gh.commit)")
        #expect(again.skipped.count == 1)
        #expect(try Self.swiftCalls(gh.swiftCalls).isEmpty)

        // A fork's pull request: everything runs but the check, which its token cannot write.
        gh.event = ["github.event_name": "pull_request", "github.repository": "your-org/app",
                    "github.event.pull_request.head.repo.full_name": "someone/app"]
        let fork = try gh.run(job: "suites", matrix: gh.matrix("suites")[0])
        #expect(fork.failed == nil, "\(Self.log(fork))")
        #expect(fork.skipped == ["mikepenz/action-junit-report@v4"])
    }

    @Test("GitLab CI: the submodule fetched, one static build a Tandem commit kept in the cache; lint and four parallel shards")
    func gitlabCI() throws {
        let file = try CIFile("Examples/ci/gitlab-ci.yml")
        let root = CLITests.temporaryPath("gitlab")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let gl = try GitLabRunner(file, root: root)
        #expect(gl.jobNames == ["tandem", "accessibility-lint", "accessibility-suites"])

        let build = try gl.run(job: "tandem")
        #expect(build.count == 1 && build[0].failed == nil, "\(build.map(Self.log))")
        #expect(try Self.swiftCalls(gl.swiftCalls).contains("swift build -c release --static-swift-stdlib --package-path tandem --product tandem"))
        #expect(build[0].log[0].hasSuffix("tandem \(CIVersion.expected)\n"), "\(Self.log(build[0]))")
        let commit = try CIWorkspace.commit()
        #expect(CIWorkspace.files(gl.caches["tandem-binary"] ?? "/nonexistent") == [".tandem-cache/\(commit)/tandem"])

        let lint = try gl.run(job: "accessibility-lint")
        #expect(lint.count == 1 && lint[0].failed == nil, "\(lint.map(Self.log))")
        let shards = try gl.run(job: "accessibility-suites")
        #expect(shards.count == 4)
        var covered: [String] = []
        for shard in shards {
            #expect(shard.failed == nil, "\(Self.log(shard))")
            covered += try Self.junitCases(shard.workspace + "/junit.xml")
            #expect(FileManager.default.fileExists(atPath: shard.workspace + "/report/index.html"))
        }
        #expect(covered.sorted() == Self.cases, "the four nodes run every case once")

        // The next pipeline, same Tandem commit: from the cache, nothing built.
        try Data().write(to: URL(fileURLWithPath: gl.swiftCalls))
        let again = try gl.run(job: "tandem")
        #expect(again[0].failed == nil, "\(Self.log(again[0]))")
        #expect(try Self.swiftCalls(gl.swiftCalls).isEmpty)

        // A cache left by another Tandem commit is not used: the job builds, and keeps only its own.
        let stale = root + "/stale"
        try FileManager.default.createDirectory(atPath: stale + "/.tandem-cache/0123456789abcdef", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: stale + "/.tandem-cache/0123456789abcdef/tandem", contents: Data("#!/bin/sh\necho stale\n".utf8),
                                       attributes: [.posixPermissions: 0o755])
        gl.caches["tandem-binary"] = stale
        try Data().write(to: URL(fileURLWithPath: gl.swiftCalls))
        let rebuilt = try gl.run(job: "tandem")
        #expect(rebuilt[0].failed == nil, "\(Self.log(rebuilt[0]))")
        #expect(!(try Self.swiftCalls(gl.swiftCalls)).isEmpty)
        #expect(rebuilt[0].log[0].hasSuffix("tandem \(CIVersion.expected)\n"))
        #expect(CIWorkspace.files(gl.caches["tandem-binary"] ?? "/nonexistent") == [".tandem-cache/\(commit)/tandem"])
    }

    @Test("without GIT_SUBMODULE_STRATEGY GitLab has no tandem/ and the build job fails: the variable is what fetches it")
    func gitlabNeedsTheSubmodule() throws {
        let file = try CIFile("Examples/ci/gitlab-ci.yml")
        var plain = file.root
        plain["variables"] = [String: Any]()
        let root = CLITests.temporaryPath("gitlab-nosub")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let gl = try GitLabRunner(CIFile(path: file.path, root: plain), root: root)
        let build = try gl.run(job: "tandem")
        #expect(build[0].failed != nil)
    }
}

/// What `tandem --version` prints, the version the caches and pins name.
enum CIVersion {
    static var expected: String {
        let cli = (try? String(contentsOfFile: PackageRoot.path("Sources/tandem/CLI.swift"), encoding: .utf8)) ?? ""
        return cli.firstMatch(of: /static let version = "([^"]+)"/).map { String($0.output.1) } ?? "?"
    }
}

/// The keys the hosted services need, which running the commands cannot show: permissions,
/// the fork guard, a check name a shard, the submodule, the cache keyed on the Tandem commit,
/// the pinned Tandem; and Docs/ci.md showing the files as they are.
@Suite("Examples/ci carry what the services need")
struct CIExampleKeysTests {
    @Test("Docs/ci.md shows both files word for word")
    func docsShowTheFiles() throws {
        let blocks = try DocBlock.all("Docs/ci.md", language: "yaml", after: "### GitHub Actions")
        #expect(blocks.count >= 2)
        #expect(blocks.first == (try CIFile("Examples/ci/github-actions.yml")).text)
        #expect(blocks.dropFirst().first == (try CIFile("Examples/ci/gitlab-ci.yml")).text)
        let build = try DocBlock.first("Docs/ci.md", language: "sh", after: "<a id=\"static\"></a>")
        #expect(build == "swift build -c release --static-swift-stdlib --package-path tandem --product tandem\n")
        for file in ["Examples/ci/github-actions.yml", "Examples/ci/gitlab-ci.yml"] { #expect((try CIFile(file)).text.contains(build)) }
    }

    @Test("GitHub: checks: write for the JUnit check, skipped on forks, one check name a shard, cache keyed on the Tandem commit, Tandem pinned")
    func github() throws {
        let file = try CIFile("Examples/ci/github-actions.yml")
        let github = file.text
        #expect(github.contains("permissions:\n  contents: read\n  checks: write"))
        #expect(github.contains("github.event.pull_request.head.repo.full_name == github.repository"))
        #expect(github.contains("check_name: accessibility (shard ${{ matrix.shard }}/4)"))
        #expect(github.contains("report_paths: reports/junit-${{ matrix.shard }}.xml"))
        #expect((file.root["env"] as? [String: Any])?["TANDEM_REF"] as? String == "v\(CIVersion.expected)")
        #expect((file.root["env"] as? [String: Any])?["TANDEM_PROFILES"] as? String == "tandem/Profiles")
        let steps = ((file.root["jobs"] as? [String: Any])?["tandem"] as? [String: Any])?["steps"] as? [[String: Any]] ?? []
        let checkout = try #require(steps.first { $0["id"] as? String == "tandem" })
        #expect(checkout["uses"] as? String == "actions/checkout@v4")
        #expect((checkout["with"] as? [String: Any])?["repository"] as? String == "your-org/tandem")
        #expect((checkout["with"] as? [String: Any])?["ref"] as? String == "${{ env.TANDEM_REF }}")
        let cache = try #require(steps.first { $0["uses"] as? String == "actions/cache@v4" })
        #expect((cache["with"] as? [String: Any])?["key"] as? String == "tandem-${{ runner.os }}-${{ steps.tandem.outputs.commit }}")
        #expect((cache["with"] as? [String: Any])?["path"] as? String == "bin/tandem")
    }

    @Test("GitLab: the Tandem submodule is fetched; the cached binary sits under the Tandem commit")
    func gitlab() throws {
        let file = try CIFile("Examples/ci/gitlab-ci.yml")
        #expect(file.text.contains("variables:\n  GIT_SUBMODULE_STRATEGY: recursive"))
        #expect((file.root["variables"] as? [String: Any])?["TANDEM_PROFILES"] as? String == "tandem/Profiles")
        let script = (file.root["tandem"] as? [String: Any])?["script"] as? [String] ?? []
        #expect(script.first == "commit=$(git -C tandem rev-parse HEAD)")
        #expect(script.contains { $0.contains("if [ ! -x \".tandem-cache/$commit/tandem\" ]; then") })
        #expect(((file.root["tandem"] as? [String: Any])?["cache"] as? [String: Any])?["paths"] as? [String] == [".tandem-cache/"])
    }

    @Test("tandem --version is one stable line, the same every run, naming the version the examples pin")
    func versionIsStable() throws {
        let first = try CLITests.tandem(["--version"])
        let second = try CLITests.tandem(["--version"])
        #expect(first.status == 0 && first.stdout == second.stdout && first.stderr.isEmpty)
        #expect(first.stdout == "tandem \(CIVersion.expected)\n")
        #expect(first.stdout.wholeMatch(of: /tandem \d+\.\d+\.\d+\n/) != nil)
    }
}
