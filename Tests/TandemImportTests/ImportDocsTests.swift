import Foundation
import Testing
import TandemTestSupport

/// Docs/import.md and Docs/ci.md#import work as written: their shell lines run, in a scratch
/// folder, with this build's `tandem` first on PATH; the outputs they show are what comes out.
@Suite("Docs/import.md and Docs/ci.md#import, run")
struct ImportDocsTests {
    /// The lines of the first ```sh block after `marker` in `page`.
    static func shellLines(_ page: String, after marker: String) throws -> [String] {
        try DocBlock.first(page, language: "sh", after: marker).split(separator: "\n").map(String.init)
    }

    /// A scratch folder that sees the repository's `Tests`; each line run by `sh -c`.
    static func run(_ lines: [String], setup: (String) throws -> Void = { _ in }) throws -> [(line: String, result: ProcessResult)] {
        let scratch = try ImportSupport.temporaryFolder("docs")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createSymbolicLink(atPath: scratch + "/Tests", withDestinationPath: PackageRoot.path("Tests"))
        try setup(scratch)
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = TandemBinary.buildDirectory.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["XDG_CONFIG_HOME"] = "/nonexistent-tandem-test"
        return try lines.map { line in
            (line, try ProcessRunner.run(["/bin/sh", "-c", line], environment: env, directory: scratch))
        }
    }

    @Test("Docs/import.md's commands: import, lint (exit 1, the documented finding), a suite recorded and passing")
    func importPage() throws {
        let lines = try Self.shellLines("Docs/import.md", after: "# `tandem import`")
        #expect(lines.count == 6)
        let results = try Self.run(lines)
        for (line, r) in results {
            let expected: Int32 = line.hasPrefix("tandem lint") ? 1 : 0
            #expect(r.status == expected, "\(line): \(r.stdout)\(r.stderr)")
        }
        let page = try String(contentsOfFile: PackageRoot.path("Docs/import.md"), encoding: .utf8)
        let lint = try #require(results.first { $0.line.hasPrefix("tandem lint") }).result
        let documented = try #require(page.split(separator: "\n").first { $0.hasPrefix("screens/login/login.catalog.json:") })
        #expect(lint.stdout.split(separator: "\n").contains(documented), "the finding Docs/import.md shows is not what lint prints:\n\(lint.stdout)")
        let test = try #require(results.last).result
        #expect(test.stdout.contains("2 passed, 0 failed"), "\(test.stdout)")
    }

    @Test("Docs/import.md's warning for an unknown type is the one printed")
    func unknownTypeWarning() throws {
        let page = try String(contentsOfFile: PackageRoot.path("Docs/import.md"), encoding: .utf8)
        let documented = try #require(page.split(separator: "\n").first { $0.hasPrefix("tandem: warning: ") })
        let r = try ImportSupport.tandem(["import", "ios", ImportSupport.fixture("ios/newer-xcode.xml")])
        #expect(r.stderr.split(separator: "\n").contains(documented))
    }

    @Test("Docs/ci.md#import: a folder of page sources becomes suites, recorded then passing")
    func ciPage() throws {
        let lines = try Self.shellLines("Docs/ci.md", after: "<a id=\"import\"></a>")
        #expect(lines.count == 4)
        let results = try Self.run(lines) { scratch in
            // The test run's artifacts: page sources as the drivers saved them.
            for (platform, names) in [("ios", ["login", "alert", "list"]), ("android", ["settings", "dialer-dump"])] {
                try FileManager.default.createDirectory(atPath: "\(scratch)/artifacts/\(platform)", withIntermediateDirectories: true)
                for n in names {
                    try FileManager.default.copyItem(atPath: PackageRoot.path("Tests/Fixtures/import/\(platform)/\(n).xml"),
                                                     toPath: "\(scratch)/artifacts/\(platform)/\(n).xml")
                }
            }
        }
        for (line, r) in results { #expect(r.status == 0, "\(line): \(r.stdout)\(r.stderr)") }
        let update = results[2].result.stdout
        #expect(update.contains("accessibility/ios/login/walk.scenario"), "\(update)")
        #expect(results[3].result.stdout.contains("5 passed, 0 failed"), "\(results[3].result.stdout)")
    }

    @Test("the man page, --help and README name tandem import")
    func commandDocumented() throws {
        let man = try String(contentsOfFile: PackageRoot.path("Docs/tandem.1"), encoding: .utf8)
        #expect(man.contains(".B tandem import"))
        #expect(man.contains(".BI \\-\\-density \" n\""))
        let readme = try String(contentsOfFile: PackageRoot.path("README.md"), encoding: .utf8)
        #expect(readme.contains("tandem import ios|android"))
        #expect(try ImportSupport.tandem(["--help"]).stdout.contains("  import "))
        let own = try ImportSupport.tandem(["import", "--help"])
        #expect(own.status == 0 && own.stdout.contains("USAGE: tandem import ios|android"))
    }
}
