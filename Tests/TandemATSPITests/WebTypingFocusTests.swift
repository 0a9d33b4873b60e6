import Foundation
import TandemClient
import TandemTestSupport
import Testing

/// Keys typed into a web field go through X (XTEST), to whichever window has X's keyboard
/// focus, not to the field's application (Docs/atspi.md#actions): with another window in
/// front, the bridge makes the field's window active before it types, and when that window
/// cannot be made active it types nothing and tells the user. Each test has a desktop of its
/// own (`AtspiRig.fresh()`): Chromium on the form page, then the GTK test app opened in front of
/// it with its own text entry focused, so keys that went astray would land in that entry.
@Suite(.serialized) struct WebTypingFocusTests {
    typealias Run = LiveBridgeTests.Run

    /// A run on the form page of a desktop of its own, the user on its text field (so the
    /// field has focus within Chromium), and the GTK app in front of Chromium with X's keyboard
    /// focus on its Note entry.
    static func fieldBehindAnotherWindow(_ desktop: AtspiRig, profile: String) throws -> (run: Run, front: DesktopApp) {
        let run = try Run(chromiumProfile: profile, page: AtspiRig.formPage, title: "Sign Up", rig: desktop)
        try run.press("first")
        guard try run.nextUntil("Your name, text field") else { throw TestSupportError("never reached the web field") }
        let front = try desktop.pantry(name: SnapshotTests.unique("front"))
        guard front.send("focus Note") else { throw TestSupportError("the GTK window did not come to the front: \(front.output)") }
        return (run, front)
    }

    /// The GTK window's entry holds `text` (what keys landed there), asked of GTK itself.
    static func frontNote(_ front: DesktopApp, is text: String) -> Bool {
        let before = front.output.count
        guard front.send("note") else { return false }
        return front.output.dropFirst(before).contains("note " + text)
    }

    /// The web field's value as a fresh snapshot reads it.
    static func fieldValue(_ run: Run) -> String? {
        let page = try? WebFormAndTableTests.page(run.rig, run.app.pid)
        return page?.elements.first { ($0["traits"] as? [String])?.contains("textField") == true }?["value"] as? String
    }

    @Test func theFieldsWindowIsMadeActiveBeforeKeysAreTyped() throws {
        let desktop = try AtspiRig.fresh()
        defer { desktop.stop() }
        let profile = try temporaryDirectory(prefix: "tandem-chromium")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let (run, front) = try Self.fieldBehindAnotherWindow(desktop, profile: profile)
        defer { front.stop(); run.stop() }
        try run.press("type hi")
        // the keys reach the field, and the user hears its new value
        let typed = WebFormAndTableTests.hearExactly(run, "hi")
        #expect(typed.heard, "said: \(typed.said); the bridge: \(run.bridge.standardError.suffix(2000))")
        #expect(waitUntil(timeout: .seconds(10)) { Self.fieldValue(run) == "hi" })
        // nothing landed in the window that was in front
        #expect(Self.frontNote(front, is: ""), "the GTK window's entry: \(front.output.suffix(3))")
        try run.press("delete")
        #expect(waitUntil(timeout: .seconds(10)) { Self.fieldValue(run) == "h" })
        #expect(Self.frontNote(front, is: ""), "the GTK window's entry: \(front.output.suffix(3))")
        #expect(!run.bridge.standardError.contains("not typed"), "\(run.bridge.standardError)")
    }

    @Test func nothingIsTypedWhenTheFieldsWindowCannotBeMadeActive() throws {
        let desktop = try AtspiRig.fresh()
        defer { desktop.stop() }
        let profile = try temporaryDirectory(prefix: "tandem-chromium")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let (run, front) = try Self.fieldBehindAnotherWindow(desktop, profile: profile)
        defer { front.stop(); run.stop() }
        // the window in front takes X's keyboard focus back whenever it loses it
        #expect(front.send("hold-focus"))
        try run.press("type hi")
        // the user is told, on speech (and so on braille, as any announcement)
        let told = run.hear("Not typed")
        #expect(told.heard, "said: \(told.said); the bridge: \(run.bridge.standardError.suffix(2000))")
        let sentence = told.said.last ?? ""
        #expect(sentence.contains("keyboard"), "\(sentence)")
        // the bridge's log names why, in one line
        #expect(waitUntil(timeout: .seconds(5)) { run.bridge.standardError.contains("type on ") && run.bridge.standardError.contains("not typed") },
                "\(run.bridge.standardError)")
        // no key landed anywhere: not in the window in front, not in the field
        #expect(Self.frontNote(front, is: ""), "the GTK window's entry: \(front.output.suffix(3))")
        #expect(Self.fieldValue(run) == nil)
        try run.press("delete")
        #expect(run.hear("Not typed").heard)
        #expect(Self.frontNote(front, is: ""), "the GTK window's entry: \(front.output.suffix(3))")
    }
}
