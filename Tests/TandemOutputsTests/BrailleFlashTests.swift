import Foundation
import Testing
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession
import TandemTestSupport

/// Announcements flash on the real display for the profile's message time (Docs/policy.md#rules).
@Suite(.serialized) struct BrailleFlashTests {
    @Test func anAnnouncementFlashesThenTheFocusLineReturnsAfterTheMessageTime() throws {
        let braille = try BrailleFixture(cells: 40)
        defer { braille.stop() }
        var profile = Profile()
        profile.messageTime = 1500
        let live = try braille.showSession(profile: profile)
        braille.press("LNDN")
        braille.press("LNDN")
        #expect(live.wait { $0.lastFrame?.text.hasPrefix("Save") == true })
        let focusLine = try #require(live.lastFrame)
        #expect(braille.waitForDisplay { $0.shows(focusLine) }.ok)

        braille.press("KEY_ENTER")
        #expect(live.wait { $0.lastFrame?.flash == true })
        let flash = try #require(live.lastFrame)
        #expect(flash.text == "Saved to your drafts")
        let shown = braille.waitForDisplay(timeout: .seconds(1)) { $0.shows(flash) }
        #expect(shown.ok, "the message on the display: \(shown.state?.description ?? "nothing")")
        let flashedAt = ContinuousClock.now

        // Still there well inside the message time…
        Thread.sleep(forTimeInterval: 1.0)
        #expect(braille.display()?.shows(flash) == true, "the message stays for the message time")
        // …and the focus line is back once it is over.
        let back = braille.waitForDisplay(timeout: .seconds(2)) { $0.shows(focusLine) }
        let elapsed = ContinuousClock.now - flashedAt
        #expect(back.ok, "the focus line returns: \(back.state?.description ?? "nothing")")
        #expect(elapsed >= .milliseconds(1300) && elapsed <= .milliseconds(2200), "returned after \(elapsed)")
    }

    @Test func anyOtherKeyDismissesTheMessageAtOnce() throws {
        let braille = try BrailleFixture(cells: 40)
        defer { braille.stop() }
        let live = try braille.showSession()
        braille.press("LNDN")
        braille.press("LNDN")
        braille.press("HOME")
        #expect(live.wait { $0.lastFrame?.flash == true })
        let flash = try #require(live.lastFrame)
        #expect(braille.waitForDisplay { $0.shows(flash) }.ok)
        braille.press("LNDN")
        #expect(live.wait { $0.lastFrame?.text.hasPrefix("Details") == true })
        let next = try #require(live.lastFrame)
        #expect(braille.waitForDisplay(timeout: .seconds(1)) { $0.shows(next) }.ok, "the next element at once, not after 4 s")
    }
}
