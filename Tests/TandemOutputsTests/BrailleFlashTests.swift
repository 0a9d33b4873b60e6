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
    /// The session runs on a clock the test moves, so the message time is checked to the
    /// millisecond against the real display, without waiting for it.
    @Test func anAnnouncementFlashesThenTheFocusLineReturnsAfterTheMessageTime() throws {
        let braille = try BrailleFixture(cells: 40)
        defer { braille.stop() }
        var profile = Profile()
        profile.messageTime = 1500
        let clock = SteppedClock()
        let live = try braille.showSession(profile: profile, clock: clock)
        braille.press("LNDN")
        braille.press("LNDN")
        // The keys come in the opening frame's millisecond, which has its frame: theirs is
        // written in the next (a live session writes at most one a millisecond,
        // Docs/reliability.md#round-bound), when the clock gets there.
        #expect(live.wait { $0.recorded.filter { if case .event(let e) = $0, e.type == "key" { true } else { false } }.count == 2 })
        #expect(live.lastFrame?.text.hasPrefix("Save") != true, "a second frame in the opening's millisecond")
        clock.advance(milliseconds: 1)
        #expect(live.wait { $0.lastFrame?.text.hasPrefix("Save") == true })
        let focusLine = try #require(live.lastFrame)
        #expect(braille.waitForDisplay { $0.shows(focusLine) }.ok)

        clock.advance(milliseconds: 10_000)
        braille.press("KEY_ENTER")
        #expect(live.wait { $0.lastFrame?.flash == true })
        let flash = try #require(live.lastFrame)
        #expect(flash.text == "Saved to your drafts")
        let flashedAt = try #require(live.records.records.last { if case .braille = $0.record { true } else { false } }?.time)
        #expect(flashedAt == 10_001, "the key is handled at the clock's time")
        let shown = braille.waitForDisplay { $0.shows(flash) }
        #expect(shown.ok, "the message on the display: \(shown.state?.description ?? "nothing")")

        // A millisecond short of the message time the message stays (given the runner half a
        // second of real time to act on the clock, as it would if the timer were early)…
        clock.advance(milliseconds: 1499)
        #expect(!live.wait(timeout: .milliseconds(500)) { $0.lastFrame?.flash == false }, "the message is still up at 1499 ms")
        // …and at the message time the focus line is back, on the session and on the display.
        clock.advance(milliseconds: 1)
        #expect(live.wait { $0.lastFrame?.flash == false })
        let back = try #require(live.records.records.last { if case .braille = $0.record { true } else { false } })
        #expect(back.time == flashedAt + 1500)
        if case .braille(let frame) = back.record { #expect(frame.text == focusLine.text) }
        #expect(braille.waitForDisplay { $0.shows(focusLine) }.ok, "the focus line returns to the display")
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
