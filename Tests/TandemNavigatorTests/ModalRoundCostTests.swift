import Testing
import TandemModel
@testable import TandemNavigator

/// A small line that shows or closes a modal must not build the whole screen's reading order
/// again each time (issue 27: one client's 64 KiB round holds 256 such lines, and a screen may
/// have 50,000 elements). What a modal covers is kept while it is in front and given back when
/// it closes. Counted in whole builds and elements placed, never in time; after every line the
/// order must equal one built from scratch, and focus must go into the modal and back.
@Suite("modal round cost")
struct ModalRoundCostTests {
    static let rows = 3_000

    /// A screen of `rows` rows with frames and a sheet of two elements among them.
    func screen(sheetModal: Bool = false, sheetHidden: Bool = false) throws -> Navigator {
        var nav = try Navigator(json: DeepChainCostTests.catalog)
        var nodes: [TreeUpdate.Node] = []
        var sheet = Element(id: "sheet")
        sheet.modal = sheetModal
        sheet.hidden = sheetHidden
        sheet.frame = Frame(x: 0, y: 100, width: 390, height: 300)
        nodes.append(TreeUpdate.Node(element: sheet, childIDs: ["sheet.title", "sheet.ok"]))
        for (id, y) in [("sheet.title", 110.0), ("sheet.ok", 300)] {
            var e = Element(id: id)
            e.label = .plain(id)
            e.frame = Frame(x: 16, y: y, width: 358, height: 44)
            if id == "sheet.title" { e.traits = .header }
            nodes.append(TreeUpdate.Node(element: e, childIDs: nil))
        }
        let ids = (0..<Self.rows).map { "r\($0)" }
        for (k, id) in ids.enumerated() {
            var e = Element(id: id)
            e.label = .plain("Row \(k)")
            e.frame = Frame(x: 0, y: Double(k * 44), width: 390, height: 44)
            nodes.append(TreeUpdate.Node(element: e, childIDs: nil))
        }
        var top = Element(id: "top")
        top.label = .plain("Top")
        _ = try nav.apply(TreeUpdate(nodes: [TreeUpdate.Node(element: top, childIDs: ["sheet"] + ids)] + nodes))
        #expect(nav.screen.liveCount == Self.rows + 5)
        return nav
    }

    /// Plays `lines` `set`s; the whole builds and elements placed they cost, each line's order
    /// checked against one built from scratch.
    func round(_ nav: inout Navigator, _ lines: [(id: String, change: (inout Element) -> Void)],
               afterEach: (inout Navigator, Int) -> Void = { _, _ in }) -> (whole: Int, units: Int) {
        let before = nav.readingOrder()
        for (k, line) in lines.enumerated() {
            let events = nav.set(line.id, line.change)
            #expect(events != nil)
            let now = nav.readingOrder()
            let fresh = ReadingOrder(screen: nav.screen, language: "en")
            #expect(now.elements == fresh.elements, "line \(k): the order differs from one built afresh")
            #expect(now.headings == fresh.headings, "line \(k): the headings differ from those built afresh")
            #expect(now.modalRoot == fresh.modalRoot)
            afterEach(&nav, k)
        }
        let after = nav.readingOrder()
        return (after.wholeSorts - before.wholeSorts, after.unitsLookedAt - before.unitsLookedAt)
    }

    @Test("256 lines showing and closing a sheet on 3,000 rows: the rows' order is built once, not 128 times; focus goes in and back")
    func modalToggles() throws {
        // Shown as Docs/protocol.md shows a sheet (`"hidden":false,"modal":true`), closed the
        // other way round.
        var nav = try screen(sheetHidden: true)
        try nav.focus("r50")
        let lines = (0..<256).map { k in (id: "sheet", change: { (e: inout Element) in e.modal = k % 2 == 0; e.hidden = k % 2 == 1 }) }
        let cost = round(&nav, lines) { nav, k in
            #expect(nav.focusedID == (k % 2 == 0 ? "sheet.title" : "r50"), "line \(k): focus on \(nav.focusedID ?? "nothing")")
        }
        // The first showing builds the sheet's order (its two elements), and every line after
        // takes back the order kept from before the line before; before, every line built its
        // order whole, the 3,000 rows at every closing.
        #expect(cost.whole <= 2, "\(cost.whole) whole builds")
        #expect(cost.units <= Self.rows + 10 + 128 * 3, "\(cost.units) elements placed for 256 lines")
    }

    @Test("256 lines setting a sheet's modal on and off: the rows' order is built once, not 128 times; focus stays in the sheet")
    func modalOnlyToggles() throws {
        var nav = try screen()
        try nav.focus("r50")
        let lines = (0..<256).map { k in (id: "sheet", change: { (e: inout Element) in e.modal = k % 2 == 0 }) }
        let cost = round(&nav, lines) { nav, k in
            // The sheet's elements stay reachable when it stops being modal: focus stays there.
            #expect(nav.focusedID == "sheet.title", "line \(k): focus on \(nav.focusedID ?? "nothing")")
        }
        #expect(cost.units <= Self.rows + 10 + 128 * 3, "\(cost.units) elements placed for 256 lines")
    }

    @Test("256 lines hiding and showing a modal in front: the rows under it are built at most once")
    func hiddenModalToggles() throws {
        var nav = try screen(sheetModal: true)
        let lines = (0..<256).map { k in (id: "sheet", change: { (e: inout Element) in e.hidden = k % 2 == 0 }) }
        let cost = round(&nav, lines)
        #expect(cost.units <= Self.rows + 10 + 128 * 3, "\(cost.units) elements placed for 256 lines")
    }

    @Test("256 lines hiding and showing the container of all 3,000 rows: each way repaired once, then taken back")
    func containerToggles() throws {
        var nav = try screen()
        let lines = (0..<256).map { k in (id: "top", change: { (e: inout Element) in e.hidden = k % 2 == 0 }) }
        let cost = round(&nav, lines)
        // Two repairs, each looking at the 3,000 rows a few times; before, every line re-formed
        // the rows of all 3,000 and spliced them out or in (over 256 · 3,000).
        #expect(cost.units <= 8 * Self.rows, "\(cost.units) units looked at or placed for 256 lines")
    }

    @Test("what moves nothing between (a label, a header trait) keeps what the modal covers; what moves something costs one whole build")
    func changesBetween() throws {
        var nav = try screen()
        // Open, relabel a row and make another a heading, close: nothing is built whole again
        // after the first round trip; the headings follow.
        var lines: [(id: String, change: (inout Element) -> Void)] = []
        for k in 0..<32 {
            lines.append((id: "sheet", change: { $0.modal = true }))
            lines.append((id: "r\(k)", change: { $0.label = .plain("Renamed \(k)") }))
            lines.append((id: "r\(k + 100)", change: { $0.traits = k % 2 == 0 ? .header : [] }))
            lines.append((id: "sheet", change: { $0.modal = false }))
        }
        let quiet = round(&nav, lines)
        #expect(quiet.units <= Self.rows + 10 + 64 * 3, "\(quiet.units) elements placed")
        // A row hidden while the modal is in front: what it covers has changed, and the close
        // builds it again (the bound is per change that moves something, not per line).
        let moving: [(id: String, change: (inout Element) -> Void)] = [
            (id: "sheet", change: { $0.modal = true }), (id: "r7", change: { $0.hidden = true }), (id: "sheet", change: { $0.modal = false }),
        ]
        let moved = round(&nav, moving)
        #expect(moved.units >= Self.rows - 10, "the order under the modal was given back though a row under it was hidden")
    }
}
