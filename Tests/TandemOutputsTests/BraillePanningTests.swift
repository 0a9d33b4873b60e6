import Foundation
import Testing
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession
import TandemTestSupport

/// A label longer than the display, panned with the display's own keys.
@Suite(.serialized) struct BraillePanningTests {
    @Test(arguments: [20, 80])
    func aLongLabelPansAcrossWindowsOfTheDisplaysWidth(cells: Int) throws {
        let braille = try BrailleFixture(cells: cells)
        defer { braille.stop() }
        let live = try braille.showSession()
        #expect(live.events.all.contains(.displaySize(columns: cells)))

        braille.press("LNDN")
        #expect(live.wait { $0.lastFrame?.text.hasPrefix("Delivery notes") == true })
        let first = try #require(live.lastFrame)
        #expect(first.windowCount >= 3, "\(first.windowCount) windows of \(cells) cells")

        // The whole line's cells, to check that the windows are consecutive pieces of it.
        let translator = LouisTranslator()
        let line = translator.translate(first.text, language: "en", cursor: nil, editing: false).cells
        var searchFrom = 0
        var seen: [Int] = []
        for k in 0..<first.windowCount {
            if k > 0 { braille.press("FWINRT") }
            #expect(live.wait { $0.lastFrame?.window == k && $0.lastFrame?.text == first.text })
            let frame = try #require(live.lastFrame)
            seen.append(frame.window)
            #expect(frame.cells.count <= cells)
            let shown = braille.waitForDisplay { $0.shows(frame) }
            #expect(shown.ok, "window \(k + 1)/\(first.windowCount): \(shown.state?.description ?? "nothing")")
            // Each window is the next run of the line's cells (blanks between windows skipped).
            let piece = frame.cells
            let found = (searchFrom...max(searchFrom, line.count - piece.count)).first { Array(line[$0..<($0 + piece.count)]) == piece }
            #expect(found != nil, "window \(k + 1) is a piece of the line")
            searchFrom = (found ?? searchFrom) + piece.count
        }
        #expect(seen == Array(0..<first.windowCount))
        #expect(searchFrom >= line.count - 1, "the windows reach the end of the line")

        // Past the last window, panning moves on to the next element; back pans return.
        braille.press("FWINRT")
        #expect(live.wait { $0.lastFrame?.text.hasPrefix("Save") == true })
        braille.press("FWINLT")
        #expect(live.wait { $0.lastFrame?.text == first.text && $0.lastFrame?.window == first.windowCount - 1 })
        let last = try #require(live.lastFrame)
        #expect(braille.waitForDisplay { $0.shows(last) }.ok, "back on the label's last window")
    }
}
