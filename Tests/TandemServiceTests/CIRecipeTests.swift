import Foundation
import Testing
import TandemTestSupport

/// Docs/ci.md as a CI engineer follows it: the change-list recipe in a scratch git repository,
/// runs that test nothing, and the failure output shown on the page.
@Suite("Docs/ci.md recipes, run as written")
struct CIRecipeTests {
    static let bank = PackageRoot.path("Tests/Fixtures/ci/bank")

    /// `tandem` run in `directory` (not the package root), with `tandem` on the PATH.
    static func tandem(_ args: [String], in directory: String, input: Data? = nil) throws -> ProcessResult {
        try ProcessRunner.run([try TandemBinary.path()] + args, environment: environment(), directory: directory, input: input)
    }

    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_CONFIG_HOME"] = "/nonexistent-tandem-test"
        env["PATH"] = TandemBinary.buildDirectory.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["GIT_AUTHOR_NAME"] = "CI"; env["GIT_AUTHOR_EMAIL"] = "ci@example.org"
        env["GIT_COMMITTER_NAME"] = "CI"; env["GIT_COMMITTER_EMAIL"] = "ci@example.org"
        return env.merging(extra) { _, new in new }
    }

    static func sh(_ script: String, in directory: String, _ extra: [String: String] = [:]) throws -> ProcessResult {
        try ProcessRunner.run(["/bin/sh", "-c", script], environment: environment(extra), directory: directory)
    }

    /// A scratch app repository: `accessibility/bank` committed on `main`.
    static func repository() throws -> String {
        let root = CLITests.temporaryPath("app")
        try FileManager.default.createDirectory(atPath: root + "/accessibility", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: bank, toPath: root + "/accessibility/bank")
        let r = try sh("git init -q -b main && git add -A && git commit -qm app", in: root)
        #expect(r.status == 0, "\(r.stderr)")
        return root
    }

    static func edit(_ path: String, _ change: (String) -> String) throws {
        try change(try String(contentsOfFile: path, encoding: .utf8)).write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("Docs/ci.md#changed: a regression with a deleted scenario and a stray file fails on the change, and notes the rest")
    func changeListRecipe() throws {
        let recipe = try DocBlock.first("Docs/ci.md", language: "sh", after: "<a id=\"changed\"></a>")
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let base = try Self.sh("git rev-parse HEAD", in: root).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try Self.edit(root + "/accessibility/bank/bank.catalog.json") { $0.replacingOccurrences(of: "\"Save changes\"", with: "\"Save\"") }
        let pr = try Self.sh("""
            git checkout -q -b pr && git rm -q accessibility/bank/bank.transfer.scenario accessibility/bank/bank.transfer.golden.jsonl \
            && echo notes > README.md && git add -A && git commit -qm pr
            """, in: root)
        #expect(pr.status == 0, "\(pr.stderr)")
        let r = try Self.sh(recipe, in: root, ["BASE": base])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasPrefix("FAIL   accessibility/bank/bank.scenario"))
        #expect(r.stdout.contains("heard «Save, button» — was «Save changes, button»"))
        #expect(r.stderr == """
            tandem: note: accessibility/bank/bank.transfer.golden.jsonl: deleted, nothing of it to run
            tandem: note: accessibility/bank/bank.transfer.scenario: deleted, nothing of it to run
            tandem: note: 1 changed path is not a catalog, scenario, golden file or suite.json; left out

            """)
        #expect(FileManager.default.fileExists(atPath: root + "/reports/junit.xml"))
    }

    @Test("Docs/ci.md#changed: a pull request that only re-records a golden file runs its scenario")
    func goldenOnlyChange() throws {
        let recipe = try DocBlock.first("Docs/ci.md", language: "sh", after: "<a id=\"changed\"></a>")
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let base = try Self.sh("git rev-parse HEAD", in: root).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // A golden edited by hand to something the app does not say: the run must catch it.
        try Self.edit(root + "/accessibility/bank/bank.transfer.golden.jsonl") { $0.replacingOccurrences(of: "Save changes, button", with: "Save all, button") }
        #expect(try Self.sh("git commit -qam golden", in: root).status == 0)
        let r = try Self.sh(recipe, in: root, ["BASE": base])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("FAIL   accessibility/bank/bank.transfer.scenario"))
        #expect(r.stdout.contains("heard «Save changes, button» — was «Save all, button»"))
        #expect(!r.stdout.contains("bank/bank.scenario"), "only the case whose golden changed runs")
    }

    @Test("an empty change list passes with a clear line and still writes the report CI collects")
    func emptyChangeList() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let r = try Self.tandem(["test", "-", "--junit", "reports/junit.xml"], in: root, input: Data())
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "nothing to test: none of the 0 changed paths is a suite's file\n")
        let junit = try String(contentsOfFile: root + "/reports/junit.xml", encoding: .utf8)
        #expect(junit.contains("<testsuites name=\"tandem\" tests=\"0\" failures=\"0\" errors=\"0\""))
        let other = try Self.tandem(["test", "-"], in: root, input: Data("Sources/App.swift\nREADME.md\n".utf8))
        #expect(other.status == 0)
        #expect(other.stdout == "nothing to test: none of the 2 changed paths is a suite's file\n")
    }

    @Test("a --filter that matches no case fails with exit 2 and says what names look like")
    func filterMatchingNothing() throws {
        let r = try CLITests.tandem(["test", "Examples", "--filter", "nomatch"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "tandem: error: --filter \"nomatch\" matches none of the 8 cases (a case's name looks like \"Examples/albums/albums.deafblind.scenario\")\n")
    }

    @Test("no path at an app's root: Tandem checked out inside is skipped with a note, not tested with its broken fixtures")
    func repositoryRootSkipsNestedCheckout() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Tandem as a submodule: a `.git` file, and its own deliberately broken fixture suite.
        try FileManager.default.createDirectory(atPath: root + "/tandem/Tests/Fixtures", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: PackageRoot.path("Tests/Fixtures/suites"), toPath: root + "/tandem/Tests/Fixtures/suites")
        try "gitdir: ../.git/modules/tandem\n".write(toFile: root + "/tandem/.git", atomically: true, encoding: .utf8)
        let r = try Self.tandem(["test"], in: root)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("ok     accessibility/bank/bank.scenario"))
        #expect(!r.stdout.contains("broken"))
        #expect(r.stderr == "tandem: note: skipped tandem: a checkout of its own (a submodule or clone); name it to test its suites\n")
        #expect(try Self.tandem(["test", "tandem"], in: root).status == 2, "named, it is searched")
    }

    @Test("Docs/ci.md's output sample is what tandem test prints, but for the times")
    func outputSample() throws {
        let page = try String(contentsOfFile: PackageRoot.path("Docs/ci.md"), encoding: .utf8)
        let start = try #require(page.range(of: "## Output and exit status\n\n```\n"))
        let end = try #require(page.range(of: "```", range: start.upperBound..<page.endIndex))
        let sample = String(page[start.upperBound..<end.lowerBound])
        let root = CLITests.temporaryPath("sample")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/accessibility", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.bank, toPath: root + "/accessibility/bank")
        try FileManager.default.copyItem(atPath: PackageRoot.path("Examples/jobs"), toPath: root + "/accessibility/jobs")
        try Self.edit(root + "/accessibility/bank/bank.catalog.json") { $0.replacingOccurrences(of: "\"Save changes\"", with: "\"Save\"") }
        let r = try Self.tandem(["test", "accessibility"], in: root)
        #expect(r.status == 1)
        func untimed(_ s: String) -> String {
            s.replacing(/\(\d+ ms\)/, with: "(_ ms)").replacing(/in \d+\.\d\d s/, with: "in _ s")
        }
        #expect(untimed(r.stdout) == untimed(sample))
    }
}
