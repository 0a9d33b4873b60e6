import Foundation
import Testing
import TandemNavigator
import TandemOutputs
import TandemPresentation
import TandemService

/// The braille output against a real BRLTTY: what reaches the display, and which keys come back.
@Suite(.serialized) struct BrailleConnectionTests {
    @Test func theFirstFrameReachesTheDisplayWithItsCursor() throws {
        let harness = try BrailleHarness(cells: 40)
        defer { harness.stop() }
        let live = BrailleLiveSession(catalog: try BrailleFixtures.panel(), host: harness.host, auth: harness.auth)
        defer { live.finish() }
        #expect(live.waitUntilShown(on: harness))
        let frame = try #require(live.lastFrame)
        #expect(frame.cursor == 0)
        let shown = try #require(harness.display())
        #expect(shown.cells == DisplayState.cells(showing: frame, columns: 40))
        #expect(shown.cells[0] & 0xC0 == 0xC0, "the cursor's dots 7-8 on the first cell")
        #expect(live.statuses.first?.available == true)
        #expect(live.events.contains { $0.event == .displaySize(columns: 40) })
    }

    @Test func aRoutingKeyActivatesTheFocusedElement() throws {
        let harness = try BrailleHarness(cells: 40)
        defer { harness.stop() }
        let live = BrailleLiveSession(catalog: try BrailleFixtures.panel(), host: harness.host, auth: harness.auth)
        defer { live.finish() }
        #expect(live.waitUntilShown(on: harness))
        for _ in 0..<3 { harness.press("LNDN") }
        #expect(live.wait { $0.lastFrame?.text.hasPrefix("Details") == true })
        #expect(harness.waitForDisplay { d in live.lastFrame.map(d.shows) ?? false }.ok)
        // vr's ROUTE n is the 0-based cell n, which BrlAPI hands on as is.
        harness.press("ROUTE 2")
        #expect(live.wait { $0.lastFrame?.text.hasPrefix("Order details") == true })
        let shown = harness.waitForDisplay { d in live.lastFrame.map(d.shows) ?? false }
        #expect(shown.ok, "display: \(String(describing: shown.state))")
        #expect(live.commands.contains("ROUTE 2"))
    }

    @Test func keysTheKeyMapDoesNotBindStayWithBRLTTY() throws {
        let harness = try BrailleHarness(cells: 40)
        defer { harness.stop() }
        let live = BrailleLiveSession(catalog: try BrailleFixtures.panel(), host: harness.host, auth: harness.auth)
        defer { live.finish() }
        #expect(live.waitUntilShown(on: harness))
        harness.press("WINDN")        // not in KeyMap.default: BRLTTY's own
        harness.press("CHRRT")        // not in KeyMap.default
        harness.press("LNDN")         // bound: next
        #expect(live.wait { $0.commands.contains("LNDN") })
        #expect(live.commands == ["LNDN"])
    }

    @Test func displayKeysArriveAsBRLTTYCommandNames() throws {
        let harness = try BrailleHarness(cells: 40)
        defer { harness.stop() }
        let live = BrailleLiveSession(catalog: try BrailleFixtures.panel(), host: harness.host, auth: harness.auth)
        defer { live.finish() }
        #expect(live.waitUntilShown(on: harness))
        let keys = ["LNDN", "LNUP", "BOT", "TOP", "FWINRT", "FWINLT", "CSRTRK", "KEY_CURSOR_UP", "KEY_ESCAPE"]
        for k in keys { harness.press(k) }
        #expect(live.wait { $0.commands.count >= keys.count })
        #expect(live.commands == keys)
    }
}
