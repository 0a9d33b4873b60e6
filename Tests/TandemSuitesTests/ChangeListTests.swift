import Foundation
import Testing
import TandemSuites

/// `tandem test -` fed `git diff --name-only`: what a pull request's changed files select.
@Suite("A change list selects the cases it touches (SuiteFinder.plan(changed:))")
struct ChangeListTests {
    /// The plan for `changed` (paths under `root`), with names and notes shown relative to it.
    static func plan(_ changed: [String], in root: String) -> (cases: [String], notes: [String], plan: TestPlan) {
        let plan = SuiteFinder(profileExists: SuiteFixtures.profiles.exists).plan(changed: changed.map { root + "/" + $0 })
        func relative(_ s: String) -> String { s.replacingOccurrences(of: root + "/", with: "") }
        return (plan.cases.map { relative($0.name) }, ChangeNotes.lines(plan.ignoredChanges).map(relative), plan)
    }

    @Test("a golden file alone selects its scenario's cases: a golden-only pull request is tested")
    func goldenOnly() throws {
        let root = try BankRun.copy()
        defer { SuiteFixtures.remove(root) }
        let plan = Self.plan(["bank/bank.transfer.golden.jsonl"], in: root)
        #expect(plan.cases == ["bank/bank.transfer.scenario"])
        #expect(plan.notes.isEmpty)
        // A golden of another profile and language goes to the same scenario; the longest stem wins.
        #expect(Self.plan(["bank/bank.braille-only.ru.golden.jsonl"], in: root).cases == ["bank/bank.scenario"])
    }

    @Test("a deleted scenario is left out with a note, and the rest of the list still runs")
    func deletedScenario() throws {
        let root = try BankRun.copy()
        defer { SuiteFixtures.remove(root) }
        try FileManager.default.removeItem(atPath: root + "/bank/bank.transfer.scenario")
        try FileManager.default.removeItem(atPath: root + "/bank/bank.transfer.golden.jsonl")
        let plan = Self.plan(["bank/bank.transfer.scenario", "bank/bank.transfer.golden.jsonl", "bank/bank.scenario", "Sources/App.swift"], in: root)
        #expect(plan.cases == ["bank/bank.scenario"])
        #expect(plan.plan.problems.isEmpty)
        #expect(plan.notes == [
            "bank/bank.transfer.scenario: deleted, nothing of it to run",
            "bank/bank.transfer.golden.jsonl: deleted, nothing of it to run",
            "1 changed path is not a catalog, scenario, golden file or suite.json; left out",
        ])
    }

    @Test("a deleted golden still runs its scenario, which then fails for want of it")
    func deletedGolden() throws {
        let root = try BankRun.copy()
        defer { SuiteFixtures.remove(root) }
        try FileManager.default.removeItem(atPath: root + "/bank/bank.golden.jsonl")
        #expect(Self.plan(["bank/bank.golden.jsonl"], in: root).cases == ["bank/bank.scenario"])
    }

    @Test("a catalog selects its suite, suite.json its folder (not the folders below), an empty list nothing")
    func catalogsManifestsAndEmpty() throws {
        let root = try BankRun.copy()
        defer { SuiteFixtures.remove(root) }
        #expect(Self.plan(["bank/bank.catalog.json"], in: root).cases == ["bank/bank.scenario", "bank/bank.transfer.scenario"])
        try SuiteFixtures.write(#"{ "format": "tandem.suite/1", "profiles": ["default", "braille-only"] }"#, root + "/bank/suite.json")
        try FileManager.default.copyItem(atPath: BankRun.fixture, toPath: root + "/bank/nested")
        #expect(Self.plan(["bank/suite.json"], in: root).cases == [
            "bank/bank.scenario", "bank/bank.scenario [braille-only]",
            "bank/bank.transfer.scenario", "bank/bank.transfer.scenario [braille-only]",
        ])
        let empty = Self.plan([], in: root).plan
        #expect(empty.cases.isEmpty && empty.problems.isEmpty && empty.ignoredChanges.isEmpty)
    }

    @Test("a folder search skips checkouts of their own (a submodule, a clone of Tandem) and says so; naming one searches it")
    func nestedCheckoutSkipped() throws {
        let root = try BankRun.copy()
        defer { SuiteFixtures.remove(root) }
        // Tandem checked out beside the app, with its own deliberately broken fixture suite.
        try SuiteFixtures.write("gitdir: ../.git/modules/tandem\n", root + "/tandem/.git")
        try SuiteFixtures.write("{ \"format\": \"tandem.catalog/1\" }", root + "/tandem/Tests/Fixtures/broken/broken.catalog.json")
        try SuiteFixtures.write("next\n", root + "/tandem/Tests/Fixtures/broken/broken.scenario")
        let finder = SuiteFinder(profileExists: SuiteFixtures.profiles.exists)
        let plan = try finder.plan([root])
        #expect(plan.cases.map { SuitePath.file(of: $0.name) } == ["bank.scenario", "bank.transfer.scenario"])
        #expect(plan.skippedCheckouts == [root + "/tandem"])
        #expect(try finder.plan([root + "/tandem"]).cases.map(\.name) == [root + "/tandem/Tests/Fixtures/broken/broken.scenario"])
    }
}
