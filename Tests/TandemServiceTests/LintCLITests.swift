import Foundation
import Testing

/// `tandem lint` as CI runs it: lines that name file, line and path, exit statuses, JSON, bad
/// input.
@Suite("tandem lint on the command line")
struct LintCLITests {
    static func fixture(_ name: String) -> String { "Tests/Fixtures/lint/\(name).catalog.json" }

    @Test("the samples lint clean: exit 0 and a closing count")
    func samplesClean() throws {
        let r = try CLITests.tandem(["lint", "Examples/grocery/grocery.catalog.json", "Examples/pizza/pizza.catalog.json",
                                     "Examples/albums/albums.catalog.json", "Examples/jobs/jobs.catalog.json"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout == "no findings in 4 catalogs\n")
    }

    @Test("an error exits 1; each finding is one line naming file, line, path, severity and rule")
    func errorExitsOne() throws {
        let r = try CLITests.tandem(["lint", Self.fixture("small-target")])
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(Self.fixture("small-target")):9: screens[0].root.children[1]: error: \"tiny.button.20\" is 20×20 pt; make it at least 44×44 pt [small-target]")
        #expect(lines.last == "1 error, 2 warnings, 0 info in 1 catalog")
    }

    @Test("warnings alone exit 0, and 1 with --strict")
    func strict() throws {
        let plain = try CLITests.tandem(["lint", Self.fixture("label-repeats-trait")])
        #expect(plain.status == 0, "\(plain.stdout)")
        #expect(plain.stdout.contains("[label-repeats-trait]"))
        let strict = try CLITests.tandem(["lint", "--strict", Self.fixture("label-repeats-trait")])
        #expect(strict.status == 1)
    }

    @Test("--disable turns a rule off; an unknown rule is bad input (exit 2) naming the known ones")
    func disable() throws {
        let r = try CLITests.tandem(["lint", "--disable", "small-target", Self.fixture("small-target")])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("[small-target]"))
        let bad = try CLITests.tandem(["lint", "--disable", "small-targets", Self.fixture("small-target")])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("tandem: error: --disable: unknown rule \"small-targets\" (rules: missing-label, "))
        #expect(bad.stdout.isEmpty)
    }

    @Test("a catalog that does not load is reported with its line, the others are still linted, exit 2")
    func brokenCatalogAmongOthers() throws {
        let r = try CLITests.tandem(["lint", "Tests/Fixtures/cli/invalid.catalog.json", Self.fixture("small-target")])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("tandem: error: Tests/Fixtures/cli/invalid.catalog.json:4: "))
        #expect(r.stdout.contains("\"tiny.button.20\" is 20×20 pt"))
    }

    @Test("--format json is one document with counts and every field of every finding")
    func json() throws {
        let r = try CLITests.tandem(["lint", "--format", "json", Self.fixture("small-target")])
        #expect(r.status == 1)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(doc["errors"] as? Int == 1)
        #expect(doc["warnings"] as? Int == 2)
        let findings = try #require(doc["findings"] as? [[String: Any]])
        #expect(findings.count == 3)
        #expect(findings[0]["rule"] as? String == "small-target")
        #expect(findings[0]["line"] as? Int == 9)
        #expect(findings[0]["path"] as? String == "screens[0].root.children[1]")
        #expect(findings[0]["element"] as? String == "tiny.button.20")
        #expect(findings[0]["screen"] as? String == "player")
    }

    @Test("- reads the catalog from standard input, named <stdin>")
    func standardInput() throws {
        let r = try CLITests.tandem(["lint", "-"], input: try Data(contentsOf: CLITests.root.appendingPathComponent(Self.fixture("small-target"))))
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("<stdin>:9: screens[0].root.children[1]: error: "))
    }

    @Test("--list-rules prints every rule with its severity")
    func listRules() throws {
        let r = try CLITests.tandem(["lint", "--list-rules"])
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: "\n").count == 17)
        #expect(r.stdout.contains("small-target"))
    }
}
