import Testing
import TandemModel
@testable import TandemNavigator
import TandemTestSupport

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
        steps(&nav, lines.map { line in { nav in #expect(nav.set(line.id, line.change) != nil) } }, afterEach: afterEach)
    }

    /// Plays `lines`, each a `set` or an `update`, as `round` does.
    func steps(_ nav: inout Navigator, _ lines: [(inout Navigator) throws -> Void],
               afterEach: (inout Navigator, Int) -> Void = { _, _ in }) -> (whole: Int, units: Int) {
        let before = nav.readingOrder()
        for (k, line) in lines.enumerated() {
            #expect(throws: Never.self) { try line(&nav) }
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

    @Test("what moves nothing between (a label, a header trait) keeps what the modal covers; a row hidden or moved under it is repaired at the closing; a new children list costs one whole build")
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
        // A row hidden while the modal is in front: the closing takes back the order kept from
        // before the sheet was shown and repairs row 7 in it (before stop 25 it built the 3,000
        // rows whole).
        let hiding: [(id: String, change: (inout Element) -> Void)] = [
            (id: "sheet", change: { $0.modal = true }), (id: "r7", change: { $0.hidden = true }), (id: "sheet", change: { $0.modal = false }),
        ]
        let hidden = round(&nav, hiding)
        #expect(hidden.whole == 0 && hidden.units <= 20, "\(hidden) for a row hidden under the sheet")
        // A row moved while the modal is in front: the closing takes back the order kept from
        // before the sheet was shown and repairs row 9 in it (before, what was kept was let go
        // and the closing built the 3,000 rows whole).
        let moving: [(id: String, change: (inout Element) -> Void)] = [
            (id: "sheet", change: { $0.modal = true }), (id: "r9", change: { $0.frame = Frame(x: 0, y: 3, width: 390, height: 44) }),
            (id: "sheet", change: { $0.modal = false }),
        ]
        let moved = round(&nav, moving)
        #expect(moved.whole == 0 && moved.units <= 64, "\(moved) for a row moved under the sheet")
        // A new children list under the modal: noted by what is kept, repaired at the closing
        // (before stop 26 what was kept was let go and the closing built the rows again).
        _ = nav.set("sheet") { $0.modal = true }
        let kept = nav.readingOrder().wholeSorts
        var row = Element(id: "r10")
        row.label = .plain("Row 10")
        row.frame = Frame(x: 0, y: 440, width: 390, height: 44)
        var extra = Element(id: "r10.detail")
        extra.label = .plain("Detail")
        extra.frame = Frame(x: 0, y: 460, width: 390, height: 20)
        _ = try nav.apply(TreeUpdate(nodes: [TreeUpdate.Node(element: row, childIDs: ["r10.detail"]), TreeUpdate.Node(element: extra, childIDs: nil)]))
        _ = nav.set("sheet") { $0.modal = false }
        #expect(nav.readingOrder().elements == ReadingOrder(screen: nav.screen, language: "en").elements)
        #expect(nav.readingOrder().wholeSorts == kept, "a children list changed under the modal: the closing repairs, builds nothing")
    }

    /// A row `id` at height `y` (a node for an update).
    static func rowNode(_ id: String, y: Double) -> TreeUpdate.Node {
        var e = Element(id: id)
        e.label = .plain(id)
        e.frame = Frame(x: 0, y: y, width: 390, height: 44)
        return TreeUpdate.Node(element: e, childIDs: nil)
    }

    @Test("256 lines: the sheet's modal on, a row added under it, modal off, modal on, the row removed under it, modal off, over and over: no closing builds the rows' order")
    func modalAndAddedRow() throws {
        var nav = try screen()
        try nav.focus("r50")
        // The row comes by an edit of the rows' container, or by its whole children list sent
        // again (one stretch new); it goes by an edit (removed from the screen: the next row
        // added takes its slot).
        let ids = ["sheet"] + (0..<Self.rows).map { "r\($0)" }
        var top = Element(id: "top")
        top.label = .plain("Top")
        var lines: [(inout Navigator) throws -> Void] = []
        for k in 0..<32 {
            let id = "extra\(k)"
            lines.append { nav in _ = nav.set("sheet") { $0.modal = true } }
            lines.append { nav in
                if k % 2 == 0 {
                    _ = try nav.apply(TreeUpdate(nodes: [Self.rowNode(id, y: 400)], edits: [TreeUpdate.ChildrenEdit(parent: "top", insert: [id], place: .after("r9"))]))
                } else {
                    var list = ids
                    list.insert(id, at: 1 + 20)
                    _ = try nav.apply(TreeUpdate(nodes: [TreeUpdate.Node(element: top, childIDs: list), Self.rowNode(id, y: 880)]))
                }
            }
            lines.append { nav in _ = nav.set("sheet") { $0.modal = false } }
            lines.append { nav in _ = nav.set("r100") { $0.label = .plain("Row 100, \(k)") } }
            lines.append { nav in _ = nav.set("sheet") { $0.modal = true } }
            lines.append { nav in _ = try nav.apply(TreeUpdate(nodes: [], edits: [TreeUpdate.ChildrenEdit(parent: "top", remove: [id])])) }
            lines.append { nav in _ = nav.set("sheet") { $0.modal = false } }
            lines.append { nav in _ = nav.set("r100") { $0.label = .plain("Row 100") } }
        }
        let cost = steps(&nav, lines)
        // The sheet's order is built once (two elements); each closing takes back the order
        // kept before the sheet came and repairs the row added or removed in it; before, each
        // closing built the 3,000 rows whole (64 whole builds, 192,000 elements placed).
        #expect(cost.whole <= 1, "\(cost)")
        #expect(cost.units <= 64 * 64, "\(cost.units) elements placed or looked at for 256 lines")
        #expect(nav.focusedElement?.id == "sheet.title")
    }

    @Test("an update of 200 rows under the modal, alternating with it: each closing repairs them in the kept order, none builds the rows' order")
    func modalAndLargeUpdate() throws {
        var nav = try screen()
        var lines: [(inout Navigator) throws -> Void] = []
        for k in 0..<16 {
            lines.append { nav in _ = nav.set("sheet") { $0.modal = true } }
            // Rows 200…399 a point lower or back, each relabelled (a line of some 20 KB).
            lines.append { nav in
                _ = try nav.apply(TreeUpdate(nodes: (200..<400).map { r in
                    var node = Self.rowNode("r\(r)", y: Double(r * 44 + k % 2))
                    node.element.label = .plain("Row \(r), \(k)")
                    return node
                }))
            }
            lines.append { nav in _ = nav.set("sheet") { $0.modal = false } }
        }
        let cost = steps(&nav, lines)
        // Before, an order kept noted at most 64 elements changed: the update let it go and
        // each closing built the 3,000 rows whole (16 builds, 48,000 elements placed).
        #expect(cost.whole <= 1, "\(cost)")
        #expect(cost.units <= 16 * 2_000, "\(cost.units) elements placed or looked at for 48 lines")
    }

    @Test("256 lines: the sheet's modal on, row 9 moved, modal off, row 9 moved back, over and over: no closing builds the rows' order")
    func modalAndMovedRow() throws {
        var nav = try screen()
        try nav.focus("r50")
        var lines: [(id: String, change: (inout Element) -> Void)] = []
        for k in 0..<64 {
            lines.append((id: "sheet", change: { $0.modal = true }))
            lines.append((id: "r9", change: { $0.frame = Frame(x: 0, y: k % 2 == 0 ? 3 : 700, width: 390, height: 44) }))
            lines.append((id: "sheet", change: { $0.modal = false }))
            lines.append((id: "r9", change: { $0.frame = Frame(x: 0, y: 396, width: 390, height: 44) }))
        }
        let cost = round(&nav, lines)
        // The sheet's order is built once (two elements); each closing repairs row 9 in the
        // order kept before the sheet came (a few dozen units: its rows re-formed); before,
        // each closing built the 3,000 rows whole (64 · 3,000 placed).
        #expect(cost.whole <= 1, "\(cost)")
        #expect(cost.units <= 64 * 64, "\(cost.units) elements placed or looked at for 256 lines")
        // the sheet stays shown when it stops being modal, so focus stays in it
        #expect(nav.focusedElement?.id == "sheet.title")
    }

    @Test("256 lines: the sheet's modal on, row 7 hidden, modal off, row 7 shown, over and over: the rows' order is built once, not at every closing")
    func modalAndRowToggles() throws {
        var nav = try screen()
        try nav.focus("r50")
        // Four screens in turn, each one `hidden` or `modal` away from the one before: what was
        // kept at each is taken back when the round comes to it again.
        let lines = (0..<256).map { k in
            k % 2 == 0 ? (id: "sheet", change: { (e: inout Element) in e.modal = k % 4 == 0 })
                : (id: "r7", change: { (e: inout Element) in e.hidden = k % 4 == 1 })
        }
        let cost = round(&nav, lines) { nav, k in
            // Into the sheet when it is first shown; the sheet stays shown when it stops being
            // modal, so focus stays there.
            #expect(nav.focusedID == "sheet.title", "line \(k): focus on \(nav.focusedID ?? "nothing")")
        }
        // The first showing builds the sheet's order (two elements); the first closing takes back
        // the order kept from before it and repairs row 7 there; every line after takes back an
        // order kept a few lines before. Before, each of the 64 closings built the 3,000 rows
        // whole (128 whole builds, 192,576 elements placed).
        #expect(cost.whole <= 1, "\(cost.whole) whole builds")
        #expect(cost.units <= 64, "\(cost.units) elements placed or looked at for 256 lines")
    }

    /// A screen of two sections of `rows / 2` rows each (plain containers, flattened into the
    /// top's sorted scope, as `tandem-bench hostile`'s sections are) and a sheet.
    func sectionsScreen() throws -> Navigator {
        var nav = try Navigator(json: DeepChainCostTests.catalog)
        var nodes: [TreeUpdate.Node] = []
        var sheet = Element(id: "sheet")
        sheet.frame = Frame(x: 0, y: 100, width: 390, height: 300)
        nodes.append(TreeUpdate.Node(element: sheet, childIDs: ["sheet.title"]))
        var title = Element(id: "sheet.title")
        title.label = .plain("Sheet")
        title.traits = .header
        title.frame = Frame(x: 16, y: 110, width: 358, height: 44)
        nodes.append(TreeUpdate.Node(element: title, childIDs: nil))
        let half = Self.rows / 2
        for s in 0..<2 {
            let ids = (0..<half).map { "r\(s * half + $0)" }
            nodes.append(TreeUpdate.Node(element: Element(id: "s\(s)"), childIDs: ids))
            for (k, id) in ids.enumerated() {
                var e = Element(id: id)
                e.label = .plain("Row \(s * half + k)")
                e.frame = Frame(x: 0, y: Double((s * half + k) * 44), width: 390, height: 44)
                if k % 100 == 0 { e.traits = .header }
                nodes.append(TreeUpdate.Node(element: e, childIDs: nil))
            }
        }
        _ = try nav.apply(TreeUpdate(nodes: [TreeUpdate.Node(element: Element(id: "top"), childIDs: ["s0", "s1", "sheet"])] + nodes))
        #expect(nav.screen.liveCount == Self.rows + 6)
        return nav
    }

    @Test("256 lines hiding and showing two sections of 1,500 rows in turn: each section repaired once each way, then taken back")
    func twoContainersInTurn() throws {
        // s0 hidden, s0 shown, s1 hidden, s1 shown, …: before, every hiding re-formed the
        // 1,500 rows it took out of the top's rows (the one kept order was the other section's).
        var nav = try sectionsScreen()
        let lines = (0..<256).map { k in (id: "s\((k / 2) % 2)", change: { (e: inout Element) in e.hidden = k % 2 == 0 }) }
        let cost = round(&nav, lines)
        #expect(cost.units <= 4 * Self.rows, "\(cost.units) units looked at or placed for 256 lines")
    }

    @Test("256 lines hiding both sections and showing them again in the same order: four screens in turn, each repaired once")
    func twoContainersOverlapping() throws {
        // s0 hidden, s1 hidden, s0 shown, s1 shown, …
        var nav = try sectionsScreen()
        let lines = (0..<256).map { k in (id: "s\(k % 2)", change: { (e: inout Element) in e.hidden = k % 4 < 2 }) }
        let cost = round(&nav, lines)
        #expect(cost.units <= 4 * Self.rows, "\(cost.units) units looked at or placed for 256 lines")
    }

    @Test("orders kept are bounded: at most four, each noting at most sixteen elements toggled since; each line's order still the one built afresh")
    func keptOrdersBounded() throws {
        var nav = try screen()
        // Twenty rows hidden one after another: only the four most recent orders are kept.
        _ = round(&nav, (0..<20).map { k in (id: "r\(k)", change: { (e: inout Element) in e.hidden = true }) })
        #expect(nav.readingOrder().covered.count == ReadingOrder.keptOrders)
        // Twenty more rows each hidden and shown: each showing takes back the order of the line
        // before, and an order kept before them all notes each row until it is let go.
        _ = round(&nav, (0..<40).map { k in (id: "r\(100 + k / 2)", change: { (e: inout Element) in e.hidden = k % 2 == 0 }) })
        let kept = nav.readingOrder().covered
        #expect(kept.count <= ReadingOrder.keptOrders)
        #expect(kept.allSatisfy { $0.toggled.count <= ReadingOrder.keptToggles }, "\(kept.map(\.toggled.count)) elements noted")
        // The first twenty shown again, newest first: each line's order checked afresh.
        _ = round(&nav, (0..<20).reversed().map { k in (id: "r\(k)", change: { (e: inout Element) in e.hidden = false }) })
    }

    @Test("600 random lines: toggles of two modals, sections, rows and header traits, rows moved, added and removed, a section's list sent again, the sheet removed and back: every line's order is the one built afresh")
    func randomToggles() throws {
        var nav = try sectionsScreen()
        // SplitMix64, seeded: the same lines every run.
        var random = SplitMix64(seed: 27)
        func next(_ n: Int) -> Int { random.below(n) }
        func set(_ id: String, _ change: @escaping (inout Element) -> Void) -> (inout Navigator) throws -> Void {
            { nav in #expect(nav.set(id, change) != nil, "no element \(id)") }
        }
        // What the lines made so far (they are made before any is played): the rows added and
        // where, the sections' children lists, and whether the sheet is there.
        var added: [(id: String, parent: String)] = []
        var s1 = (1_500..<3_000).map { "r\($0)" }
        var sheetThere = true
        var lines: [(inout Navigator) throws -> Void] = []
        for k in 0..<600 {
            let row = "r\([3, 7, 1_499, 1_500, 2_000][next(5)])"
            switch next(14) {
            case 0 where sheetThere: lines.append(set("sheet") { $0.modal.toggle() })
            case 1 where sheetThere: lines.append(set("sheet") { $0.hidden.toggle() })
            case 2: lines.append(set("s1") { $0.modal.toggle() })
            case 3: lines.append(set("s\(next(2))") { $0.hidden.toggle() })
            case 4, 5: lines.append(set(row) { $0.hidden.toggle() })
            case 6: lines.append(set(row) { $0.traits = $0.traits.contains(.header) ? [] : .header })
            case 7 where sheetThere: lines.append(set("sheet.title") { $0.hidden.toggle() })
            case 8:
                // Now and then a row moved: noted by what is kept, repaired at a closing.
                let y = Double(next(3_000) * 44)
                lines.append(set(row) { $0.frame = Frame(x: 0, y: y, width: 390, height: 44) })
            case 9, 10:
                // A row added by an edit (to a section, or into the sheet), or a plain container
                // of two rows (flattened into the section's rows).
                let parent = sheetThere ? ["s0", "s1", "sheet"][next(3)] : "s\(next(2))"
                let id = "n\(k)", y = Double(next(3_000) * 44)
                var nodes = [Self.rowNode(id, y: y)]
                if next(3) == 0 {
                    nodes = [TreeUpdate.Node(element: Element(id: id), childIDs: [id + ".a", id + ".b"]),
                             Self.rowNode(id + ".a", y: y), Self.rowNode(id + ".b", y: y + 22)]
                }
                let place: TreeUpdate.ChildrenEdit.Place = parent == "s1" && next(2) == 0 ? .after(s1[next(s1.count)]) : .end
                if parent == "s1" {
                    switch place {
                    case .after(let a): s1.insert(id, at: s1.firstIndex(of: a)! + 1)
                    default: s1.append(id)
                    }
                }
                added.append((id, parent))
                lines.append { nav in _ = try nav.apply(TreeUpdate(nodes: nodes, edits: [TreeUpdate.ChildrenEdit(parent: parent, insert: [id], place: place)])) }
            case 11 where !added.isEmpty:
                // A row added before removed (its slot is taken again by the next one added).
                let (id, parent) = added.remove(at: next(added.count))
                s1.removeAll { $0 == id }
                lines.append { nav in _ = try nav.apply(TreeUpdate(nodes: [], edits: [TreeUpdate.ChildrenEdit(parent: parent, remove: [id])])) }
            case 12:
                // Section 1's children list sent whole with two rows far apart swapped: a new
                // children list, compared whole.
                let a = next(20), b = s1.count - 1 - next(20)
                s1.swapAt(a, b)
                let list = s1
                lines.append { nav in _ = try nav.apply(TreeUpdate(nodes: [TreeUpdate.Node(element: Element(id: "s1"), childIDs: list)])) }
            case 13:
                // The sheet removed from the screen, or put back as a modal: the modal in front
                // changed by an update.
                if sheetThere {
                    added.removeAll { $0.parent == "sheet" }
                    lines.append { nav in _ = try nav.apply(TreeUpdate(nodes: [], edits: [TreeUpdate.ChildrenEdit(parent: "top", remove: ["sheet"])])) }
                } else {
                    var sheet = Element(id: "sheet")
                    sheet.modal = true
                    sheet.frame = Frame(x: 0, y: 100, width: 390, height: 300)
                    var title = Self.rowNode("sheet.title", y: 110)
                    title.element.traits = .header
                    lines.append { nav in
                        _ = try nav.apply(TreeUpdate(nodes: [TreeUpdate.Node(element: sheet, childIDs: ["sheet.title"]), title],
                                                     edits: [TreeUpdate.ChildrenEdit(parent: "top", insert: ["sheet"])]))
                    }
                }
                sheetThere.toggle()
            default: lines.append(set(row) { $0.hidden.toggle() })
            }
        }
        let cost = steps(&nav, lines)
        #expect(nav.readingOrder().takenBack > 0, "no order was ever taken back (\(cost))")
    }
}
