import Foundation
import TandemClient
import TandemTestSupport
import Testing

/// A GTK data table's cells (their places, and their named actions as custom actions) and a
/// focused progress bar's live value, against the real GTK test app Tests/Fixtures/atspi/ledger.py
/// (Docs/atspi.md#fields, #actions, #live). Same rig as LiveBridgeTests.
@Suite(.serialized) struct LiveTableProgressAndActionsTests {
    typealias Run = LiveBridgeTests.Run

    static func ledger() throws -> Run {
        try Run(pantry: "ledger-" + UUID().uuidString.prefix(6).lowercased(), script: AtspiRig.ledgerScript)
    }

    @Test func aTreeViewsCellsHaveTheirPlaces() throws {
        let run = try Self.ledger()
        defer { run.stop() }
        let s = try run.snapshot()
        let table = try #require(s.elements.first { $0["container"] as? String == "dataTable" })
        let cells = (table["children"] as? [[String: Any]] ?? []).filter { $0["cell"] != nil }
        func place(_ label: String) -> [String: Int]? {
            cells.first { $0["label"] as? String == label }?["cell"] as? [String: Int]
        }
        // GTK numbers the rows under the header row from 0
        #expect(place("Rye") == ["row": 0, "column": 0])
        #expect(place("3 euros") == ["row": 0, "column": 1])
        #expect(place("Spelt") == ["row": 1, "column": 0])
        #expect(place("4 euros") == ["row": 1, "column": 1])
        // the cell's first action is its activation; the others are custom actions
        let rye = try #require(s.element("Rye"))
        #expect((rye["actions"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["edit", "activate"], "\(rye)")
        // heard as a cell of a table
        try run.press("first")
        let heard = try run.nextUntil("Rye")
        #expect(heard)
    }

    @Test func aCustomActionReachesTheApp() throws {
        let run = try Self.ledger()
        defer { run.stop() }
        try run.press("first")
        #expect(try run.nextUntil("Spelt"))
        // moving onto a cell neither selects its row in the app nor has GTK move Tandem on
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try run.controller.status().focus == "table-cell-spelt")
        #expect(!((try run.snapshot()).element("Spelt")?["traits"] as? [String] ?? []).contains("selected"))
        // the rotor's second custom action is GTK's "activate": the row is activated
        try run.press("action-next", "action-next")
        #expect(run.hear("activate").heard)
        try run.press("activate")
        #expect(run.app.wait(for: "activated Spelt", timeout: .seconds(10)), "\(run.app.output); \(run.bridge.standardError)")
    }

    @Test func aFocusedProgressBarsValueIsHeard() throws {
        let run = try Self.ledger()
        defer { run.stop() }
        try run.press("last")
        // spoken, not only queued behind the service's "opened" message
        #expect(WebFormAndTableTests.hearExactly(run, "Upload, 0%").heard)
        // A step between the first and the last is dropped while anything speaks (the policy,
        // Docs/protocol.md#progress): "Upload, 0%" lasts 600 ms in the headless profile, so the
        // app moves the bar only after it has ended. (Sent at once, 50% is dropped as "busy":
        // why the one earlier try heard nothing, though the bridge had sent it.)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(run.app.send("progress 0.5"))
        let half = run.hear("50%")
        #expect(half.heard, "said: \(half.said)")
        // the next step after the progress interval (1 s)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(run.app.send("progress 1"))
        let done = run.hear("100%")
        #expect(done.heard, "said: \(done.said)")
        #expect(waitUntil(timeout: .seconds(5)) { ((try? run.snapshot())?.element("Upload")?["progress"] as? [String: Any])?["value"] as? Double == 1 })
    }
}
