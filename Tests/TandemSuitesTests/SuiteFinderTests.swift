import Foundation
import Testing
import TandemModel
import TandemSuites

@Suite("SuiteFinder: suites found by the naming convention")
struct SuiteFinderTests {
    static let catalog = #"{"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "r", "label": "Hello", "traits": ["header"]}}]}"#

    @Test("a folder with one catalog: every scenario in it is the catalog's, sorted; hidden folders are skipped")
    func oneCatalog() throws {
        let root = try SuiteFixtures.folder()
        defer { SuiteFixtures.remove(root) }
        try SuiteFixtures.write(Self.catalog, root + "/app/app.catalog.json")
        try SuiteFixtures.write("next\n", root + "/app/zeta.scenario")
        try SuiteFixtures.write("next\n", root + "/app/app.scenario")
        try SuiteFixtures.write(Self.catalog, root + "/.hidden/h.catalog.json")
        try SuiteFixtures.write("next\n", root + "/.hidden/h.scenario")
        let plan = try SuiteFixtures.plan([root])
        #expect(plan.suites.map { SuitePath.file(of: $0.catalog) } == ["app.catalog.json"])
        #expect(plan.cases.map { SuitePath.file(of: $0.name) } == ["app.scenario", "zeta.scenario"])
        #expect(plan.problems.isEmpty)
    }

    @Test("two catalogs in a folder: a scenario belongs to the catalog its name starts with; one with no match is a problem")
    func twoCatalogs() throws {
        let root = try SuiteFixtures.folder()
        defer { SuiteFixtures.remove(root) }
        for c in ["shop", "shop.checkout"] { try SuiteFixtures.write(Self.catalog, root + "/\(c).catalog.json") }
        for s in ["shop", "shop.browse", "shop.checkout", "shop.checkout.card", "orphan"] { try SuiteFixtures.write("next\n", root + "/\(s).scenario") }
        let plan = try SuiteFixtures.plan([root])
        let byCatalog = plan.cases.map { "\(SuitePath.file(of: plan.suites[$0.suite].catalog)) ← \(SuitePath.file(of: $0.scenario))" }
        #expect(byCatalog == [
            "shop.catalog.json ← shop.browse.scenario",
            "shop.catalog.json ← shop.scenario",
            "shop.checkout.catalog.json ← shop.checkout.card.scenario",
            "shop.checkout.catalog.json ← shop.checkout.scenario",
        ])
        #expect(plan.problems.map { SuitePath.file(of: $0.name) } == ["orphan.scenario"])
        #expect(plan.problems[0].diagnostic.message.hasPrefix("no catalog for this scenario among shop.catalog.json, shop.checkout.catalog.json"))
    }

    @Test("suite.json's profiles × languages make the cases, in order")
    func manifestCases() throws {
        let root = try SuiteFixtures.folder()
        defer { SuiteFixtures.remove(root) }
        try SuiteFixtures.write(Self.catalog, root + "/app.catalog.json")
        try SuiteFixtures.write("next\n", root + "/app.scenario")
        try SuiteFixtures.write(#"{"format": "tandem.suite/1", "profiles": ["default", "braille-only"], "languages": ["en", "ru"]}"#, root + "/suite.json")
        let plan = try SuiteFixtures.plan([root])
        #expect(plan.cases.map { String($0.name.split(separator: " ", maxSplits: 1)[1]) } == [
            "[default, en]", "[default, ru]", "[braille-only, en]", "[braille-only, ru]",
        ])
    }

    @Test("a broken suite.json is one problem with its line; the folder's suites are not run")
    func brokenManifest() throws {
        let root = try SuiteFixtures.folder()
        defer { SuiteFixtures.remove(root) }
        try SuiteFixtures.write(Self.catalog, root + "/app.catalog.json")
        try SuiteFixtures.write("next\n", root + "/app.scenario")
        try SuiteFixtures.write("{\"format\": \"tandem.suite/1\",\n \"profiles\": [\"nope\"]}", root + "/suite.json")
        let plan = try SuiteFixtures.plan([root])
        #expect(plan.cases.isEmpty)
        #expect(plan.problems.map(\.diagnostic.description) == ["\(root)/suite.json:2: profiles[0]: no profile \"nope\""])
    }

    @Test("a catalog or a scenario named on the command line selects only that")
    func fileArguments() throws {
        let root = try SuiteFixtures.folder()
        defer { SuiteFixtures.remove(root) }
        for c in ["a", "b"] { try SuiteFixtures.write(Self.catalog, root + "/\(c).catalog.json") }
        for s in ["a", "a.more", "b"] { try SuiteFixtures.write("next\n", root + "/\(s).scenario") }
        #expect(try SuiteFixtures.plan([root + "/a.catalog.json"]).cases.map { SuitePath.file(of: $0.name) } == ["a.more.scenario", "a.scenario"])
        #expect(try SuiteFixtures.plan([root + "/b.scenario"]).cases.map { SuitePath.file(of: $0.name) } == ["b.scenario"])
    }

    @Test("a path that is missing, or neither folder, catalog nor scenario, is bad input")
    func badPaths() throws {
        #expect(throws: Diagnostic(file: "/nonexistent/tandem", line: nil, path: "", message: "no such file or folder")) {
            _ = try SuiteFixtures.plan(["/nonexistent/tandem"])
        }
        let root = try SuiteFixtures.folder()
        defer { SuiteFixtures.remove(root) }
        try SuiteFixtures.write("x", root + "/notes.txt")
        #expect(throws: Diagnostic.self) { _ = try SuiteFixtures.plan([root + "/notes.txt"]) }
    }
}
