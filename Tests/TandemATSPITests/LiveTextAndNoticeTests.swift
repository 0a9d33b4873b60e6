import Foundation
import TandemClient
import TandemTestSupport
import Testing

/// The bridge's paths that had no test against a real app: text entry through EditableText
/// (`type`, `delete`, `clear` from a controller, into a GTK entry), `object:announcement` and
/// an assertive live region (priority) (Docs/atspi.md#live, #actions). Same rig as
/// LiveBridgeTests.
@Suite(.serialized) struct LiveTextAndNoticeTests {
    typealias Run = LiveBridgeTests.Run

    /// The text field's content as the GTK app itself has it (its `note` command prints it).
    static func note(of run: Run, is text: String) -> Bool {
        waitUntil(timeout: .seconds(5)) {
            let before = run.app.output.count
            guard run.app.send("note") else { return false }
            return run.app.output.dropFirst(before).contains("note " + text)
        }
    }

    @Test func typeDeleteAndClearInAGtkEntry() throws {
        let run = try Run()
        defer { run.stop() }
        try Self.typeDeleteAndClear(run)
    }

    /// `type`, `delete` and `clear` in the app's "Note" field (the GTK and Qt test apps both have
    /// one, and a `note` command that prints its text): each reaches the app, and the new value is heard.
    static func typeDeleteAndClear(_ run: Run) throws {
        try run.press("first")
        #expect(try run.nextUntil("Note, text field"))
        try run.press("type Hello")
        // the app's entry has the text, and its new value is heard
        #expect(Self.note(of: run, is: "Hello"))
        let typed = run.hear("Hello")
        #expect(typed.heard, "said: \(typed.said)")
        try run.press("delete")
        #expect(Self.note(of: run, is: "Hell"))
        try run.press("type p")
        #expect(Self.note(of: run, is: "Hellp"))
        #expect(run.hear("Hellp").heard)
        try run.press("clear")
        #expect(Self.note(of: run, is: ""))
        #expect(waitUntil(timeout: .seconds(5)) { ((try? run.snapshot())?.element("Note")?["value"]) == nil })
    }

    @Test func anAnnouncementFromAGtkApp() throws {
        let run = try Run()
        defer { run.stop() }
        try run.press("first")
        #expect(run.hear("Pantry, heading").heard)
        // ATK's announcement signal: AT-SPI's object:announcement → notify announcement
        #expect(run.app.send("announce Basket saved"))
        let heard = run.hear("Basket saved")
        #expect(heard.heard, "said: \(heard.said)")
    }

    @Test func anAssertiveLiveRegionIsImportant() throws {
        let profile = try temporaryDirectory(prefix: "tandem-chromium")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let run = try Run(chromiumProfile: profile)
        defer { run.stop() }
        try run.press("first")
        #expect(try run.nextUntil("Check stock, button"))
        try run.press("activate")
        // aria-live="assertive" → announcement with priority high → SSIP `important`
        var line: TranscriptEntry?
        let end = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < end, line == nil {
            guard let l = try? run.controller.nextTranscriptLine(timeout: end - ContinuousClock.now) else { break }
            if l.spoken?.contains("Oat milk is out of stock") == true { line = l }
        }
        let spoken = try #require(line, "the assertive region's text was not spoken")
        #expect(spoken.string("prio") == "important", "\(spoken.json)")
        #expect(spoken.string("src") == "announcement", "\(spoken.json)")
    }
}
