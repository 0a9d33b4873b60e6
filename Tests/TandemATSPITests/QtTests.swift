import Foundation
import TandemTestSupport
import Testing

extension AtspiRig {
    /// The Qt 5 test app (PyQt5): an order form (Tests/Fixtures/atspi/qt_form.py). It takes
    /// `--app-name` and prints "ready" as the GTK apps do, so `pantry(name:script:)` starts it.
    static let qtFormScript = PackageRoot.path("Tests/Fixtures/atspi/qt_form.py")
}

/// A real Qt 5 app (its AT-SPI bridge is libQt5Gui's own) through `tandem atspi`: its snapshot
/// by the rules of Docs/atspi.md and its Qt quirks (Docs/atspi.md#quirks), and one live run.
/// What each element must be is worked out from qt_form.py's source.
@Suite(.serialized) struct QtTests {
    /// Whether an element has no custom actions.
    static func noActions(_ e: [String: Any]?) -> Bool { ((e?["actions"] as? [Any]) ?? []).isEmpty }

    @Test func qtAppSnapshot() throws {
        let rig = try AtspiRig.get()
        let name = SnapshotTests.unique("qt-form")
        let app = try rig.pantry(name: name, script: AtspiRig.qtFormScript)
        defer { app.stop() }
        let result = try rig.tandemAtspi(["--snapshot", "--app", name])
        #expect(result.status == 0, "\(result.stderr)")
        let s = try SnapshotTests.Snapshot(result.stdout)
        #expect(s.catalog["name"] as? String == name)
        // the window's title names the screen
        #expect(s.screen["title"] as? String == "Order")
        // Qt publishes a top-level QWidget as `filler`: under the application it is the window,
        // where qt_form.py put it (not left out as layout, its widgets spilled into the root)
        let windows = s.root["children"] as? [[String: Any]] ?? []
        #expect(windows.count == 1)
        let window = try #require(windows.first)
        #expect((window["id"] as? String)?.hasPrefix("filler-") == true)
        #expect(window["frame"] as? [Double] == [0, 0, 400, 600])
        // the widgets in the layout's order; the QLabel is text (Qt has no heading for it),
        // and the spin box's buddy label stands before it
        let top = (window["children"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
        #expect(top == ["Order", "Loaves", "Loaves", "Gift wrap", "Note", "Place order", "Review order", "Breads"])
        #expect((window["children"] as? [[String: Any]])?.first?["traits"] as? [String] == ["staticText"])
        // the spin box: adjustable from Value (1…12 at 3; Qt's step of 0 is 1); its Increase,
        // Decrease and SetFocus actions are not custom actions (adjust and focus do them)
        let spin = try #require(s.elements.first { $0["label"] as? String == "Loaves" && $0["adjust"] != nil })
        #expect(spin["traits"] as? [String] == ["adjustable"])
        #expect(spin["adjust"] as? [String: Double] == ["value": 3, "min": 1, "max": 12, "step": 1])
        #expect(Self.noActions(spin), "\(String(describing: spin["actions"]))")
        // the check box (Toggle, SetFocus): a switch, on
        #expect(s.traits("Gift wrap") == ["button", "switchButton"])
        #expect(s.element("Gift wrap")?["value"] as? String == "1")
        #expect(Self.noActions(s.element("Gift wrap")))
        // the push button (Press, SetFocus): a button, its description the hint
        #expect(s.traits("Place order") == ["button"])
        #expect(s.element("Place order")?["hint"] as? String == "Sends the order to the bakery")
        #expect(Self.noActions(s.element("Place order")))
        // the list widget: a list named by its accessible name, each item one stop
        let list = try #require(s.element("Breads"))
        #expect(list["container"] as? String == "list")
        let items = list["children"] as? [[String: Any]] ?? []
        #expect(items.map { $0["label"] as? String } == ["Rye", "Sourdough", "Spelt"])
        #expect(items.map { $0["id"] as? String } == ["list-item-rye", "list-item-sourdough", "list-item-spelt"])
        // extents are screen coordinates inside the window, in the layout's order
        let heading = try #require(s.element("Order")?["frame"] as? [Double])
        let spinFrame = try #require(spin["frame"] as? [Double])
        let button = try #require(s.element("Place order")?["frame"] as? [Double])
        #expect(heading[1] < spinFrame[1] && spinFrame[1] < button[1])
        #expect(spinFrame[0] > 0 && spinFrame[0] + spinFrame[2] <= 400 && button[1] + button[3] <= 600)
    }

    @Test func qtAppLive() throws {
        // a desktop of its own: the app takes the X keyboard focus (activateWindow), which must
        // not pull the keys another test types into its window on the shared desktop
        let desktop = try AtspiRig.fresh()
        defer { desktop.stop() }
        let run = try LiveBridgeTests.Run(pantry: SnapshotTests.unique("qt-form"), script: AtspiRig.qtFormScript, rig: desktop)
        defer { run.stop() }
        try run.press("first")
        #expect(run.hear("Order").heard)
        // the app moves keyboard focus: Qt's focus event moves Tandem's cursor there
        #expect(run.app.send("focus Place order"))
        #expect(run.hear("Place order, button").heard)
        #expect(waitUntil(timeout: .seconds(5)) { (try? run.controller.status())?.focus == "push-button-place-order" })
        // activate: the button's default action (Press) reaches Qt
        try run.press("activate")
        #expect(run.app.wait(for: "pressed", timeout: .seconds(10)))
        // the check box's Toggle: heard off
        try run.press("first")
        #expect(try run.nextUntil("Gift wrap, switch button, on"))
        try run.press("activate")
        let off = run.hear("off")
        #expect(off.heard, "said: \(off.said)")
        // the spin box: increment sets Qt's Value, heard as the user's own change
        try run.press("first")
        #expect(try run.nextUntil("Loaves, 3, adjustable"))
        try run.press("increment")
        let four = run.hear("4")
        #expect(four.heard, "said: \(four.said)")
        #expect(waitUntil(timeout: .seconds(5)) {
            ((try? run.snapshot())?.elements.first { $0["adjust"] != nil }?["adjust"] as? [String: Double])?["value"] == 4
        })
    }

    @Test func qtTextFieldAndDialog() throws {
        let desktop = try AtspiRig.fresh()
        defer { desktop.stop() }
        let run = try LiveBridgeTests.Run(pantry: SnapshotTests.unique("qt-form"), script: AtspiRig.qtFormScript, rig: desktop)
        defer { run.stop() }
        // a QLineEdit takes text through EditableText, and its new value is heard
        try LiveTextAndNoticeTests.typeDeleteAndClear(run)
        // a dialog the button opens takes focus (Qt focuses its default button); escape from
        // inside it presses its Cancel (Qt 5 does not mark it modal: Docs/atspi.md#quirks)
        try run.press("first")
        #expect(try run.nextUntil("Review order, button"))
        try run.press("activate")
        let opened = run.hear("Send, button")
        #expect(opened.heard, "said: \(opened.said)")
        try run.press("next")
        #expect(run.hear("Cancel, button").heard)
        try run.press("escape")
        #expect(run.app.wait(for: "cancelled", timeout: .seconds(10)))
    }
}
