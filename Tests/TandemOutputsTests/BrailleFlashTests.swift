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

        // The focus line is back once the message time is over. When exactly is the session's
        // own rule, checked to the millisecond on the virtual clock (FlashAndBusyTests
        // "an announcement flashes for the message time…"); here only that the real display
        // follows, and never before the message time (a timer cannot fire early; no upper
        // bound on a loaded machine's wall clock).
        let back = braille.waitForDisplay(timeout: .seconds(5)) { $0.shows(focusLine) }
        let elapsed = ContinuousClock.now - flashedAt
        #expect(back.ok, "the focus line returns: \(back.state?.description ?? "nothing")")
        #expect(elapsed >= .milliseconds(1300), "the message stays for the message time; back after \(elapsed)")
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
