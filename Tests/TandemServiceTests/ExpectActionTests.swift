import Foundation
import Testing
import TandemTestSupport

/// `expect-action NAME` (Docs/formats.md#scenario): a scenario checks which custom action the
/// actions rotor has selected, as a tester does who hears "Archive" after `action-next`.
@Suite("expect-action: the actions rotor's selected action in scenarios")
struct ExpectActionTests {
    static let catalog = "Tests/Fixtures/ci/inbox/inbox.catalog.json"

    static func scenario(_ text: String) throws -> String {
        let path = CLITests.temporaryPath("inbox.scenario")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("the inbox walk holds: none, each action in rotor order, none again, back one, reset by moving focus")
    func walkHolds() throws {
        let r = try CLITests.tandem(["replay", Self.catalog, "Tests/Fixtures/ci/inbox/inbox.scenario"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        #expect(!r.stdout.contains("expect-failed"))
    }

    @Test("a wrong name fails with exit 1, naming the line, what is selected and what was expected; the transcript logs it")
    func wrongNameFails() throws {
        let path = try Self.scenario("next\naction-next\nexpect-action Mark as unread\naction-next\naction-next\nexpect-action Archive\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try CLITests.tandem(["replay", Self.catalog, path])
        #expect(r.status == 1)
        #expect(r.stderr == """
            tandem: error: \(path):3: expect-action failed: the actions rotor has "Archive" selected, not "Mark as unread"
            tandem: error: \(path):6: expect-action failed: the actions rotor has none (the element's own activation) selected, not "Archive"

            """)
        #expect(r.stdout.contains(#""ch":"event","type":"expect-failed","line":"3","action":"Mark as unread","selected":"Archive"}"#))
        #expect(r.stdout.contains(#""ch":"event","type":"expect-failed","line":"6","action":"Archive","selected":"none"}"#))
    }

    @Test("expect-action none fails while a custom action is selected")
    func noneFailsOnACustomAction() throws {
        let path = try Self.scenario("next\naction-previous\nexpect-action none\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try CLITests.tandem(["replay", Self.catalog, path])
        #expect(r.status == 1)
        #expect(r.stderr == "tandem: error: \(path):3: expect-action failed: the actions rotor has \"Mark as unread\" selected, not none (the element's own activation)\n")
    }

    @Test("expect-action with no name is bad input (exit 2) naming the line")
    func missingName() throws {
        let path = try Self.scenario("next\nexpect-action\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try CLITests.tandem(["replay", Self.catalog, path])
        #expect(r.status == 2)
        #expect(r.stderr == "tandem: error: \(path):2: expect-action needs the custom action's name, or none for the element's own activation\n")
    }
}
