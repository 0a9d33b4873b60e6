import Foundation
import Testing
import TandemService
import TandemSuites

/// `--update` records what the user hears and feels, never a failed `expect` (#25 item 8):
/// recorded, the next run would expect the failure.
@Suite("--update and failed expects")
struct UpdateExpectTests {
    /// The bank fixture with its scenario's second `expect` (line 7) wrong.
    static func bankWithWrongExpect() throws -> String {
        let root = try SuiteFixtures.folder("bank")
        let bank = SuiteFixtures.packageRoot.appendingPathComponent("Tests/Fixtures/ci/bank").path
        for f in ["bank.catalog.json", "bank.scenario", "bank.golden.jsonl"] {
            try FileManager.default.copyItem(atPath: bank + "/" + f, toPath: root + "/" + f)
        }
        let scenario = root + "/bank.scenario"
        let text = try String(contentsOfFile: scenario, encoding: .utf8)
        #expect(text.contains("expect Save changes, button"))
        try text.replacingOccurrences(of: "expect Save changes, button", with: "expect Save all, button")
            .write(toFile: scenario, atomically: true, encoding: .utf8)
        return root
    }

    @Test("an existing golden is left as it is: the failed expect is no change to record, and the case still fails")
    func existingGoldenUntouched() throws {
        let root = try Self.bankWithWrongExpect()
        defer { SuiteFixtures.remove(root) }
        let golden = root + "/bank.golden.jsonl"
        let before = try String(contentsOfFile: golden, encoding: .utf8)
        let update = SuiteFixtures.runner(update: true).run(try SuiteFixtures.plan([root]))
        #expect(update.written.isEmpty)
        #expect(update.failed == 1)
        guard case .failed(let failures) = update.results[0].outcome, case .expectFailed(let d) = failures[0] else {
            Issue.record("the expect failure is not reported: \(update.results[0].outcome)"); return
        }
        #expect(d.line == 7)
        #expect(failures.count == 1)
        #expect(try String(contentsOfFile: golden, encoding: .utf8) == before)
    }

    @Test("a new golden is recorded without the expect-failed event; the next run fails on the expect, the event shown as new")
    func newGoldenWithoutTheEvent() throws {
        let root = try Self.bankWithWrongExpect()
        defer { SuiteFixtures.remove(root) }
        let golden = root + "/bank.golden.jsonl"
        let original = try String(contentsOfFile: golden, encoding: .utf8)
        try FileManager.default.removeItem(atPath: golden)
        let update = SuiteFixtures.runner(update: true).run(try SuiteFixtures.plan([root]))
        #expect(update.written == [.recorded(golden)])
        #expect(update.failed == 1)
        let recorded = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(!recorded.contains("expect-failed"))
        #expect(recorded == original, "the same transcript as the golden recorded with a holding expect")

        let next = SuiteFixtures.runner().run(try SuiteFixtures.plan([root]))
        guard case .failed(let failures) = next.results[0].outcome else { Issue.record("passed"); return }
        #expect(failures.count == 2)
        let words = failures.compactMap { $0.details(.words) }.joined(separator: "\n")
        #expect(words.contains("new: expect at line 7 failed, heard «Save changes, button»"), "\(words)")
    }

    @Test("a failed expect-action is told in words under its step, and --update records the rest")
    func expectActionInWords() throws {
        let root = try SuiteFixtures.folder("inbox")
        defer { SuiteFixtures.remove(root) }
        let inbox = SuiteFixtures.packageRoot.appendingPathComponent("Tests/Fixtures/ci/inbox").path
        try FileManager.default.copyItem(atPath: inbox + "/inbox.catalog.json", toPath: root + "/inbox.catalog.json")
        try "next\naction-next\nexpect-action Archive\n".write(toFile: root + "/inbox.scenario", atomically: true, encoding: .utf8)
        let record = SuiteFixtures.runner(update: true).run(try SuiteFixtures.plan([root]))
        #expect(record.written == [.recorded(root + "/inbox.golden.jsonl")] && record.failed == 0)
        try "next\naction-next\nexpect-action Mark as unread\n".write(toFile: root + "/inbox.scenario", atomically: true, encoding: .utf8)
        let run = SuiteFixtures.runner().run(try SuiteFixtures.plan([root]))
        guard case .failed(let failures) = run.results[0].outcome else { Issue.record("passed"); return }
        #expect(failures[0].summary(scenario: root + "/inbox.scenario").contains("expect-action failed: the actions rotor has \"Archive\" selected, not \"Mark as unread\""))
        let words = failures.compactMap { $0.details(.words) }.joined(separator: "\n")
        #expect(words.contains("after `action-next` at line 2:\n  new: expect-action at line 3 failed, the rotor on «Archive»"), "\(words)")
        let update = SuiteFixtures.runner(update: true).run(try SuiteFixtures.plan([root]))
        #expect(update.written.isEmpty && update.failed == 1)
        #expect(!(try String(contentsOfFile: root + "/inbox.golden.jsonl", encoding: .utf8)).contains("expect-failed"))
    }
}
