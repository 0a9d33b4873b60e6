import Foundation
import Testing
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemService

/// Announcements flash on the real display for the profile's message time (Docs/policy.md#rules).
@Suite(.serialized) struct BrailleFlashTests {
    @Test func anAnnouncementFlashesThenTheFocusLineReturnsAfterTheMessageTime() throws {
        let harness = try BrailleHarness(cells: 40)
        defer { harness.stop() }
        var profile = Profile()
        profile.messageTime = 1500
        let live = BrailleLiveSession(catalog: try BrailleFixtures.panel(), profile: profile, host: harness.host, auth: harness.auth)
        defer { live.finish() }
        #expect(live.waitUntilShown(on: harness))
        harness.press("LNDN")
        harness.press("LNDN")
        #expect(live.wait { $0.lastFrame?.text.hasPrefix("Save") == true })
        let focusLine = try #require(live.lastFrame)
        #expect(harness.waitForDisplay { $0.shows(focusLine) }.ok)

        harness.press("KEY_ENTER")
        #expect(live.wait { $0.lastFrame?.flash == true })
        let flash = try #require(live.lastFrame)
        #expect(flash.text == "Saved to your drafts")
        let shown = harness.waitForDisplay(timeout: .seconds(1)) { $0.shows(flash) }
        #expect(shown.ok, "the message on the display: \(shown.state?.description ?? "nothing")")
        let flashedAt = ContinuousClock.now

        // Still there well inside the message time…
        Thread.sleep(forTimeInterval: 1.0)
        #expect(harness.display()?.shows(flash) == true, "the message stays for the message time")
        // …and the focus line is back once it is over.
        let back = harness.waitForDisplay(timeout: .seconds(2)) { $0.shows(focusLine) }
        let elapsed = ContinuousClock.now - flashedAt
        #expect(back.ok, "the focus line returns: \(back.state?.description ?? "nothing")")
        #expect(elapsed >= .milliseconds(1300) && elapsed <= .milliseconds(2200), "returned after \(elapsed)")
    }

    @Test func anyOtherKeyDismissesTheMessageAtOnce() throws {
        let harness = try BrailleHarness(cells: 40)
        defer { harness.stop() }
        let live = BrailleLiveSession(catalog: try BrailleFixtures.panel(), host: harness.host, auth: harness.auth)
        defer { live.finish() }
        #expect(live.waitUntilShown(on: harness))
        harness.press("LNDN")
        harness.press("LNDN")
        harness.press("HOME")
        #expect(live.wait { $0.lastFrame?.flash == true })
        let flash = try #require(live.lastFrame)
        #expect(harness.waitForDisplay { $0.shows(flash) }.ok)
        harness.press("LNDN")
        #expect(live.wait { $0.lastFrame?.text.hasPrefix("Details") == true })
        let next = try #require(live.lastFrame)
        #expect(harness.waitForDisplay(timeout: .seconds(1)) { $0.shows(next) }.ok, "the next element at once, not after 4 s")
    }
}
