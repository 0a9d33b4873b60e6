import Foundation
import Testing
import TandemService
import TandemSuites

/// A recorded `tandem serve` session (`NAME.session.record`) as a case of `tandem test`
/// (Docs/ci.md#recordings), with the grocery app's recording and its reviewed golden
/// (`Tests/Fixtures/service/grocery.session.*`, checked by `RecordedSessionTests`).
@Suite("recorded sessions as suite cases")
struct RecordingCaseTests {
    static let fixtures = SuiteFixtures.packageRoot.appendingPathComponent("Tests/Fixtures/service").path

    /// A folder with the recording (and its golden unless `golden` is false) and a suite beside it.
    static func folder(golden: Bool = true) throws -> String {
        let root = try SuiteFixtures.folder("app")
        try FileManager.default.copyItem(atPath: fixtures + "/grocery.session.record", toPath: root + "/grocery.session.record")
        if golden { try FileManager.default.copyItem(atPath: fixtures + "/grocery.session.golden.jsonl", toPath: root + "/grocery.session.golden.jsonl") }
        for f in ["grocery.catalog.json", "grocery.scenario", "grocery.golden.jsonl"] { try SuiteFixtures.copySample("grocery", f, to: root) }
        return root
    }

    @Test("a folder's recording is a case of its own beside its suites, and passes against its golden")
    func foundAndPassed() throws {
        let root = try Self.folder()
        defer { SuiteFixtures.remove(root) }
        let plan = try SuiteFixtures.plan([root])
        #expect(plan.cases.map(\.name) == [root + "/grocery.session.record", root + "/grocery.scenario"])
        #expect(plan.cases.map(\.isRecording) == [true, false])
        #expect(plan.cases[0].goldenPath(catalogLanguage: "en") == root + "/grocery.session.golden.jsonl")
        let run = SuiteFixtures.runner().run(plan)
        #expect(SuiteFixtures.outcomes(run) == ["grocery.session.record: passed", "grocery.scenario: passed"])
        #expect(run.results[0].profile == "headless", "the profile it was recorded in")
        // Named alone, it is the only case.
        let alone = try SuiteFixtures.plan([root + "/grocery.session.record"])
        #expect(alone.cases.map(\.name) == [root + "/grocery.session.record"])
    }

    @Test("a golden the replay does not match fails with the difference in words")
    func changedGolden() throws {
        let root = try Self.folder()
        defer { SuiteFixtures.remove(root) }
        let golden = root + "/grocery.session.golden.jsonl"
        try (try String(contentsOfFile: golden, encoding: .utf8)).replacingOccurrences(of: #""text":"1 in cart""#, with: #""text":"2 in cart""#)
            .write(toFile: golden, atomically: true, encoding: .utf8)
        let run = SuiteFixtures.runner().run(try SuiteFixtures.plan([root + "/grocery.session.record"]))
        guard case .failed(let failures) = run.results[0].outcome, case .differs(_, let changes, let heard) = failures[0] else {
            Issue.record("expected a difference: \(run.results[0].outcome)"); return
        }
        #expect(!changes.isEmpty)
        let told = heard.steps.flatMap(\.entries).compactMap(\.got?.value)
        #expect(told.contains("1 in cart"), "\(heard)")
    }

    @Test("--update writes the missing golden; the run without it fails naming it")
    func update() throws {
        let root = try Self.folder(golden: false)
        defer { SuiteFixtures.remove(root) }
        let plan = try SuiteFixtures.plan([root + "/grocery.session.record"])
        let first = SuiteFixtures.runner().run(plan)
        guard case .failed(let f) = first.results[0].outcome, case .missingGolden(let g) = f[0] else { Issue.record("no missing golden"); return }
        #expect(g == root + "/grocery.session.golden.jsonl")
        let written = SuiteFixtures.runner(update: true).run(plan)
        #expect(written.written == [.recorded(root + "/grocery.session.golden.jsonl")])
        // What was written is the reviewed golden.
        #expect(try String(contentsOfFile: g, encoding: .utf8) == (try String(contentsOfFile: Self.fixtures + "/grocery.session.golden.jsonl", encoding: .utf8)))
        #expect(SuiteFixtures.runner().run(plan).passed == 1)
    }

    @Test("a change list selects a recording by itself or by its golden")
    func changeList() throws {
        let root = try Self.folder()
        defer { SuiteFixtures.remove(root) }
        let finder = SuiteFinder(profileExists: SuiteFixtures.profiles.exists)
        for changed in ["grocery.session.record", "grocery.session.golden.jsonl"] {
            let plan = finder.plan(changed: [root + "/" + changed])
            #expect(plan.cases.map(\.name) == [root + "/grocery.session.record"], "\(changed)")
            #expect(plan.ignoredChanges.isEmpty)
        }
        let gone = finder.plan(changed: [root + "/old.session.record"])
        #expect(gone.cases.isEmpty)
        #expect(gone.ignoredChanges.map(\.path) == [root + "/old.session.record"] && gone.ignoredChanges.map(\.reason) == [.deleted])
    }
}
