import Foundation
import Testing
import TandemNavigator
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession
import TandemTestSupport

/// The braille output against a real BRLTTY: what reaches the display, and which keys come back.
@Suite(.serialized) struct BrailleConnectionTests {
    @Test func theFirstFrameReachesTheDisplayWithItsCursor() throws {
        let braille = try BrailleFixture(cells: 40)
        defer { braille.stop() }
        let live = try braille.showSession()
        let frame = try #require(live.lastFrame)
        #expect(frame.cursor == 0)
        let shown = try #require(braille.display())
        #expect(shown.cells == DisplayState.cells(showing: frame, columns: 40))
        #expect(shown.cells[0] & 0xC0 == 0xC0, "the cursor's dots 7-8 on the first cell")
        #expect(live.events.statuses.first?.available == true)
        #expect(live.events.all.contains(.displaySize(columns: 40)))
    }

    @Test func aRoutingKeyActivatesTheFocusedElement() throws {
        let braille = try BrailleFixture(cells: 40)
        defer { braille.stop() }
        let live = try braille.showSession()
        for _ in 0..<3 { braille.press("LNDN") }
        #expect(live.wait { $0.lastFrame?.text.hasPrefix("Details") == true })
        #expect(braille.waitForDisplay { d in live.lastFrame.map(d.shows) ?? false }.ok)
        // vr's ROUTE n is the 0-based cell n, which BrlAPI hands on as is.
        braille.press("ROUTE 2")
        // A new screen's first line starts with the screen word (Docs/braille.md#rules).
        #expect(live.wait { $0.lastFrame?.text.hasPrefix("scr: Order details") == true })
        let shown = braille.waitForDisplay { d in live.lastFrame.map(d.shows) ?? false }
        #expect(shown.ok, "display: \(String(describing: shown.state))")
        #expect(live.events.brailleCommands.contains("ROUTE 2"))
    }

    @Test func keysTheKeyMapDoesNotBindStayWithBRLTTY() throws {
        let braille = try BrailleFixture(cells: 40)
        defer { braille.stop() }
        let live = try braille.showSession()
        braille.press("WINDN")        // not in KeyMap.default: BRLTTY's own
        braille.press("CHRRT")        // not in KeyMap.default
        braille.press("LNDN")         // bound: next
        #expect(live.wait { $0.events.brailleCommands.contains("LNDN") })
        #expect(live.events.brailleCommands == ["LNDN"])
    }

    @Test func displayKeysArriveAsBRLTTYCommandNames() throws {
        let braille = try BrailleFixture(cells: 40)
        defer { braille.stop() }
        let live = try braille.showSession()
        let keys = ["LNDN", "LNUP", "BOT", "TOP", "FWINRT", "FWINLT", "CSRTRK", "KEY_CURSOR_UP", "KEY_ESCAPE"]
        for k in keys { braille.press(k) }
        #expect(live.wait { $0.events.brailleCommands.count >= keys.count })
        #expect(live.events.brailleCommands == keys)
    }
}
