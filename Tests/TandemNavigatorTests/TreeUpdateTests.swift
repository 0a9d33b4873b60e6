import Testing
import TandemModel
import TandemTestSupport
@testable import TandemNavigator

/// An app's tree updates (Docs/protocol.md#update): what they change, what they refuse, and a
/// reading order that follows them piece by piece exactly as if it were built again.
@Suite("tree updates")
struct TreeUpdateTests {
    /// A grocery list: a title, then rows of a product and its quick-add stepper.
    static let list = """
        {"format": "tandem.catalog/1", "language": "en", "screens": [{"id": "list", "focus": "title", "root": {"id": "root", "children": [
          {"id": "title", "label": "Groceries", "traits": ["header"], "frame": [0, 0, 390, 44]},
          {"id": "rows", "children": [
            {"id": "row.apple", "label": "Apple", "frame": [0, 60, 300, 44]},
            {"id": "row.banana", "label": "Banana", "frame": [0, 110, 300, 44]},
            {"id": "row.cherry", "label": "Cherry", "frame": [0, 160, 300, 44]}]},
          {"id": "checkout", "label": "Checkout", "traits": ["button"], "frame": [0, 700, 390, 50]}]}}]}
        """

    func app() throws -> Navigator {
        var nav = try Navigator(json: Self.list)
        nav.forwardsActions = true
        return nav
    }

    func node(_ id: String, label: String? = nil, frame: [Double]? = nil, traits: Traits = [], children: [String]? = nil) -> TreeUpdate.Node {
        var e = Element(id: id)
        e.label = label.map(LabelText.plain)
        e.traits = traits
        if let f = frame { e.frame = Frame(x: f[0], y: f[1], width: f[2], height: f[3]) }
        return TreeUpdate.Node(element: e, childIDs: children)
    }

    @Test("an app's loading indicator says with each step whether it has focus")
    func appProgressSaysFocus() throws {
        var nav = try app()
        #expect(nav.focusedID == "title")
        let away = nav.set("row.apple") { $0.progress = Progress(label: "Uploading", value: 0.5) }
        #expect(away == [.progress(element: "row.apple", step: 50, steps: 100, focused: false)])
        try nav.focus("row.apple")
        let here = nav.set("row.apple") { $0.progress = Progress(label: "Uploading", value: 0.75) }
        #expect(here == [.progress(element: "row.apple", step: 75, steps: 100, focused: true)])
    }

    @Test("a new row named in its list's children appears in frame order")
    func addRow() throws {
        var nav = try app()
        _ = try nav.apply(TreeUpdate(nodes: [
            node("rows", children: ["row.apple", "row.banana", "row.cherry", "row.avocado"]),
            node("row.avocado", label: "Avocado", frame: [0, 85, 300, 20]),
        ]))
        #expect(nav.orderIDs() == ["title", "row.apple", "row.avocado", "row.banana", "row.cherry", "checkout"])
    }

    @Test("removing the focused row hands focus to the next row, and the row is gone from the tree")
    func removeFocusedRow() throws {
        var nav = try app()
        try nav.focus("row.banana")
        let events = try nav.apply(TreeUpdate(nodes: [node("rows", children: ["row.apple", "row.cherry"])]))
        #expect(events.contains(.focused(screen: "list", element: "row.cherry", reason: .lost)))
        #expect(nav.screen.index["row.banana"] == nil)
        #expect(nav.orderIDs() == ["title", "row.apple", "row.cherry", "checkout"])
    }

    @Test("a changed label of the focused element is said again, a changed value is said alone")
    func focusedChanges() throws {
        var nav = try app()
        try nav.focus("row.banana")
        var banana = node("row.banana", label: "Banana", frame: [0, 110, 300, 44])
        banana.element.value = "1 in cart"
        #expect(try nav.apply(TreeUpdate(nodes: [banana])) == [.valueChanged(element: "row.banana")])
        banana.element.label = .plain("Bananas")
        #expect(try nav.apply(TreeUpdate(nodes: [banana])) == [.elementChanged(element: "row.banana")])
    }

    @Test("a node replaces the whole element: a field left out is cleared, its children stay unless given")
    func replacesWholeElement() throws {
        var nav = try app()
        _ = try nav.apply(TreeUpdate(nodes: [node("title", label: "Groceries")]))
        let title = try #require(nav.screen["title"])
        #expect(title.traits == [] && title.frame == nil, "traits and frame were left out, so cleared")
        _ = try nav.apply(TreeUpdate(nodes: [node("rows")]))
        #expect(nav.screen["rows"]?.children.count == 3, "no childIDs: the children stay")
    }

    @Test("a child moves to another parent when both lists change in the same update")
    func moveChild() throws {
        var nav = try app()
        _ = try nav.apply(TreeUpdate(nodes: [node("rows", children: ["row.apple", "row.banana"]),
                                             node("root", children: ["title", "rows", "row.cherry", "checkout"])]))
        let cherry = try #require(nav.screen.index["row.cherry"])
        #expect(nav.screen.elements[cherry].parent == 0)
        #expect(nav.orderIDs() == ["title", "row.apple", "row.banana", "row.cherry", "checkout"])
    }

    @Test("refused updates change nothing and say why", arguments: [
        (#"unknown child"#, [("rows", ["row.apple", "row.ghost"])], #""row.ghost", which is neither in the tree nor a node"#),
        ("a cycle", [("row.apple", ["rows"]), ("root", ["title", "checkout"])], "cycle"),
        ("two parents", [("rows", ["row.apple", "row.banana", "row.cherry", "title"])], #""title" is named as a child of "rows" but is still a child of "root""#),
        ("the root as a child", [("rows", ["root"])], #"the root "root" cannot be a child"#),
    ] as [(String, [(String, [String])], String)])
    func refused(_ name: String, _ lists: [(String, [String])], _ expected: String) throws {
        var nav = try app()
        let before = nav.screen
        let update = TreeUpdate(nodes: lists.map { node($0.0, children: $0.1) })
        #expect(throws: TreeUpdateError.self, "\(name)") { try nav.apply(update) }
        do { _ = try nav.apply(update) } catch { #expect(error.message.contains(expected), "\(name): \(error.message)") }
        #expect(nav.screen == before, "\(name): nothing changed")
    }

    @Test("a new node nothing names is refused; so is one given twice")
    func orphanAndTwice() throws {
        var nav = try app()
        #expect(throws: TreeUpdateError("node \"row.ghost\" is new, but no children list or edit in this update names it")) {
            try nav.apply(TreeUpdate(nodes: [node("row.ghost", label: "Ghost")]))
        }
        #expect(throws: TreeUpdateError("node \"title\" is given twice")) {
            try nav.apply(TreeUpdate(nodes: [node("title"), node("title")]))
        }
    }

    @Test("a value or a label that flips nothing does not look at the element's siblings")
    func quietChangeLooksAtNoSibling() throws {
        let rows = (0..<200).map { #"{"id": "r\#($0)", "label": "Row \#($0)", "frame": [0, \#(60 + $0 * 50), 300, 44]}"# }
        var nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "language": "en", "screens": [{"id": "list", "root": {"id": "root", "children": [
              {"id": "rows", "children": [\(rows.joined(separator: ","))]}]}}]}
            """)
        nav.forwardsActions = true
        let before = nav.readingOrder().childrenLookedAt
        _ = nav.set("r100") { $0.value = "1 in cart" }
        _ = nav.set("r101") { $0.label = .plain("Row 101, new") }
        #expect(nav.screen.elements[nav.screen.index["r101"]!].label == .plain("Row 101, new"))
        #expect(nav.readingOrder().childrenLookedAt - before < 200, "the list's 200 rows were looked at")
        #expect(nav.orderIDs() == (0..<200).map { "r\($0)" })
    }

    /// A long list in no group, as apps send tables: 100 sections (plain containers) of a
    /// heading and 20 rows, each row a group of a cell and a stepper; 72 points a row.
    static func longList() -> String {
        var sections: [String] = []
        var y = 0
        for s in 0..<100 {
            var kids = [#"{"id": "h\#(s)", "label": "Section \#(s)", "traits": ["header"], "frame": [0, \#(y), 390, 30]}"#]
            y += 40
            for r in 0..<20 {
                kids.append(#"{"id": "r\#(s).\#(r)", "group": true, "children": [{"id": "r\#(s).\#(r).cell", "label": "Item", "frame": [16, \#(y), 250, 64]}, {"id": "r\#(s).\#(r).stepper", "label": "Quantity", "frame": [276, \#(y + 16), 98, 32]}]}"#)
                y += 72
            }
            sections.append(#"{"id": "s\#(s)", "children": [\#(kids.joined(separator: ","))]}"#)
        }
        return """
            {"format": "tandem.catalog/1", "language": "en", "screens": [{"id": "list", "root": {"id": "root", "children": [
              {"id": "sections", "children": [\(sections.joined(separator: ","))]}]}}]}
            """
    }

    /// The order kept and the order built from scratch, by id.
    func agrees(_ nav: inout Navigator) -> Bool {
        let fresh = ReadingOrder(screen: nav.screen, language: "en")
        return nav.orderIDs() == fresh.elements.map { nav.screen.elements[$0].id } && nav.readingOrder().headings == fresh.headings
    }

    @Test("a row moved, added or removed in a long list in no group looks at the rows it touches, not the list")
    func rowChangeLooksAtItsRows() throws {
        var nav = try Navigator(json: Self.longList())
        nav.forwardsActions = true
        let listed = nav.readingOrder().elements.count
        #expect(listed == 100 * 41)
        func cost(_ update: TreeUpdate) throws -> (units: Int, children: Int, whole: Int) {
            let before = nav.readingOrder()
            _ = try nav.apply(update)
            let after = nav.readingOrder()
            return (after.unitsLookedAt - before.unitsLookedAt, after.childrenLookedAt - before.childrenLookedAt, after.wholeSorts - before.wholeSorts)
        }
        // Row 10 of section 50 moves 80 points down, 8 below row 11's top: the two rows swap
        // (its cell and stepper move with it).
        let top = 50 * (40 + 20 * 72) + 40 + 10 * 72 + 80
        let moved = try cost(TreeUpdate(nodes: [node("r50.10.cell", label: "Item", frame: [16, Double(top), 250, 64]),
                                                node("r50.10.stepper", label: "Quantity", frame: [276, Double(top + 16), 98, 32])]))
        #expect(moved.whole == 0, "a scope was sorted whole")
        #expect(moved.units < 40, "units looked at: \(moved.units) (the list has 2,100)")
        #expect(moved.children < 60, "children looked at: \(moved.children) (its section's 21, not the list's)")
        let ids = nav.orderIDs()
        let at = try #require(ids.firstIndex(of: "r50.11.cell"))
        #expect(Array(ids[at..<(at + 4)]) == ["r50.11.cell", "r50.11.stepper", "r50.10.cell", "r50.10.stepper"])
        #expect(agrees(&nav))

        // A row added to section 20 between its rows 3 and 4, then removed.
        var row = Element(id: "extra")
        row.group = true
        let y = 20 * (40 + 20 * 72) + 40 + 3 * 72 + 36
        let section = (["h20"] + (0..<20).map { "r20.\($0)" })
        var withExtra = section
        withExtra.insert("extra", at: 5)
        let added = try cost(TreeUpdate(nodes: [node("s20", children: withExtra), TreeUpdate.Node(element: row, childIDs: ["extra.cell"]),
                                                node("extra.cell", label: "New", frame: [16, Double(y), 250, 30])]))
        // Children: the section's 21 a few times over (its frame is worked out again), not the
        // list's 100 sections.
        #expect(added.whole == 0 && added.units < 120 && added.children < 100, "added: \(added)")
        #expect(nav.orderIDs().count == listed + 1)
        #expect(agrees(&nav))
        let removed = try cost(TreeUpdate(nodes: [node("s20", children: section)]))
        #expect(removed.whole == 0 && removed.units < 120 && removed.children < 100, "removed: \(removed)")
        #expect(nav.orderIDs().count == listed)
        #expect(agrees(&nav))
    }

    // MARK: the order follows the tree exactly

    /// Random screens and random changes: after every change, the order the navigator kept by
    /// repairing scopes is the order built from scratch (elements, headings, accessibility).
    @Test("a repaired reading order is always the order built again from scratch")
    func repairedEqualsRebuilt() throws {
        for seed in 0..<Self.cases {
            checkRepairs(seed: seed, RandomTree(rng: SplitMix64(seed: 0xC0FFEE ^ UInt64(seed))))
        }
    }

    /// Rows that move a few points (tops 5 points apart and moves of up to 12, so rows split
    /// and join), rows added and removed, `order`s given and taken, on screens where every
    /// element has a frame (every sorted scope keeps rows) or most do, left to right and
    /// right to left, on a phone and on a tablet: the rows re-formed piece by piece are the
    /// order built from scratch, and most repairs re-form rows rather than sort a scope whole.
    @Test("moved, added and removed rows re-form the rows they touch exactly as a build from scratch")
    func rowChangesEqualRebuilt() throws {
        var byRows = 0, whole = 0
        for seed in 0..<Self.cases {
            var tree = RandomTree(rng: SplitMix64(seed: 0xB0B ^ UInt64(seed)))
            tree.framed = seed % 4 == 3 ? 90 : 100
            tree.rowChanges = 70
            tree.language = seed % 3 == 1 ? "ar" : "en"
            tree.device = seed % 5 == 2 ? .tablet : .phone
            let counts = checkRepairs(seed: seed, tree)
            byRows += counts.byRows
            whole += counts.whole
        }
        #expect(byRows > 2 * whole, "repairs by rows \(byRows), scopes sorted whole \(whole)")
    }

    /// Runs 40 random updates on `tree`'s screen, comparing after each the kept order with a
    /// fresh one; returns how many scopes were repaired by rows and how many sorted whole.
    @discardableResult
    func checkRepairs(seed: Int, _ tree: RandomTree) -> (byRows: Int, whole: Int) {
        var builder = tree
        var nav = Navigator(catalog: builder.catalog())
        nav.forwardsActions = true
        _ = nav.start()
        let start = nav.readingOrder()
        let (rowsBefore, wholeBefore) = (start.rowRepairs, start.wholeSorts)
        for step in 0..<40 {
            let update = builder.update(nav.screen)
            do { _ = try nav.apply(update) } catch { continue }
            let kept = nav.readingOrder()
            let fresh = ReadingOrder(screen: nav.screen, language: builder.language, rowThreshold: builder.device.rowThreshold)
            let ids = { (o: ReadingOrder) in o.elements.map { nav.screen.elements[$0].id } }
            guard ids(kept) == ids(fresh), kept.headings == fresh.headings, kept.modalRoot == fresh.modalRoot else {
                let tree = nav.screen.elements.indices.filter { !nav.screen.elements[$0].isRemoved }.map { i -> String in
                    let e = nav.screen.elements[i]
                    return "\(e.id)<\(e.parent.map { nav.screen.elements[$0].id } ?? "-")>\(e.hidden ? "H" : "")\(e.group ? "G" : "")\(e.modal ? "M" : "")\(e.order != nil ? "O" : "")\(fresh.accessible[i] ? "A" : "")\(e.frame.map { "@\(Int($0.x)),\(Int($0.y)),\(Int($0.height))" } ?? "")"
                }
                Issue.record("seed \(seed) step \(step) (\(builder.language), \(builder.device)): kept \(ids(kept)) headings \(kept.headings), rebuilt \(ids(fresh)) headings \(fresh.headings); update \(update.nodes.map { ($0.element.id, $0.childIDs ?? []) }); tree \(tree)")
                return (0, 0)
            }
            let live = nav.screen.elements.indices.filter { !nav.screen.elements[$0].isRemoved }
            guard live.allSatisfy({ kept.accessible[$0] == fresh.accessible[$0] }) else {
                let bad = live.filter { kept.accessible[$0] != fresh.accessible[$0] }.map { nav.screen.elements[$0].id }
                Issue.record("seed \(seed) step \(step): accessibility differs for \(bad); update \(update.nodes.map { ($0.element.id, $0.childIDs ?? []) })")
                return (0, 0)
            }
        }
        let end = nav.readingOrder()
        return (end.rowRepairs - rowsBefore, end.wholeSorts - wholeBefore)
    }

    static let cases = 300
}

/// Random screens and updates for the property test: rows of elements with frames (tops 5
/// points apart, so both sides of the 8-point row threshold occur), some groups, tab bars and
/// typed containers (placed by their first element), some hidden parts, headers, a modal now
/// and then; updates that change values, labels (accessibility flips), frames, traits, hidden
/// flags, grouping, and children lists.
struct RandomTree {
    var rng: SplitMix64
    var next = 0
    /// Percent of elements with a frame (100: every sorted scope keeps its rows).
    var framed = 85
    /// Percent of updates that move, add or remove rows or give an `order` (the others change
    /// one field of a few elements, and children lists).
    var rowChanges = 0
    var language = "en"
    var device = Device.phone

    init(rng: SplitMix64) { self.rng = rng }

    mutating func fresh() -> String { next += 1; return "e\(next)" }

    mutating func catalog() -> Catalog {
        var elements: [Element] = [Element(id: "root")]
        func add(_ parent: Int, depth: Int) {
            for _ in 0..<(depth == 0 ? 6 : rng.below(4)) {
                var e = Element(id: fresh())
                e.parent = parent
                randomize(&e)
                let me = elements.count
                elements.append(e)
                elements[parent].children.append(me)
                if depth < 2 && rng.chance(35) { add(me, depth: depth + 1) }
            }
        }
        add(0, depth: 0)
        let screen = Screen(id: "s", title: nil, focus: nil, magicTap: nil, escape: nil, elements: elements)
        return Catalog(name: nil, language: language, strings: [:], start: "s", device: device, screens: [screen])
    }

    mutating func randomize(_ e: inout Element) {
        e.label = rng.chance(60) ? .plain("L\(rng.below(9))") : nil
        e.value = rng.chance(20) ? "\(rng.below(5))" : nil
        e.traits = rng.chance(20) ? .header : (rng.chance(30) ? .button : [])
        e.frame = rng.chance(framed) ? Frame(x: Double(rng.below(4) * 90), y: Double(rng.below(72) * 5), width: 80, height: Double(20 + rng.below(30))) : nil
        e.group = rng.chance(15)
        if rng.chance(5) { e.traits.insert(.tabBar) }
        e.container = rng.chance(5) ? rng.pick([ContainerType.list, .segmentedControl, .semanticGroup]) : nil
        e.hidden = rng.chance(8)
        e.modal = rng.chance(3)
        e.accessible = rng.chance(10) ? rng.chance(50) : nil
    }

    mutating func update(_ screen: Screen) -> TreeUpdate {
        let live = screen.elements.indices.filter { !screen.elements[$0].isRemoved }
        if rng.chance(rowChanges) { return rowUpdate(screen, live) }
        var nodes: [TreeUpdate.Node] = []
        var touched: Set<String> = []
        for _ in 0..<(1 + rng.below(3)) {
            let slot = rng.pick(live)
            let e = screen.elements[slot]
            guard touched.insert(e.id).inserted else { continue }
            var changed = e
            switch rng.below(7) {
            case 0: changed.value = rng.chance(50) ? "\(rng.below(9))" : nil
            case 1: changed.label = rng.chance(50) ? .plain("L\(rng.below(9))") : nil
            case 2: changed.frame = Frame(x: Double(rng.below(4) * 90), y: Double(rng.below(72) * 5), width: 80, height: 30)
            case 3: changed.traits = rng.chance(50) ? .header : (rng.chance(20) ? .tabBar : [])
            case 4: changed.hidden.toggle()
            case 5: changed.container = changed.container == nil ? .list : nil
            default: changed.group.toggle()
            }
            if slot == 0 { changed.hidden = false }
            var childIDs: [String]?
            if rng.chance(40) {
                // New children list: keep some, drop some, add new ones.
                var ids = e.children.map { screen.elements[$0].id }.filter { _ in rng.chance(75) }
                if rng.chance(50) { ids.shuffle(using: &rng) }
                for _ in 0..<rng.below(3) {
                    var n = Element(id: fresh())
                    randomize(&n)
                    ids.insert(n.id, at: rng.below(ids.count + 1))
                    nodes.append(TreeUpdate.Node(element: n, childIDs: nil))
                }
                childIDs = ids
            }
            nodes.append(TreeUpdate.Node(element: changed, childIDs: childIDs))
        }
        return TreeUpdate(nodes: nodes)
    }

    /// One row change: a row (an element and everything in it) moves a few points, or a
    /// row is added to a container, or one is removed, or a container gets an `order`.
    mutating func rowUpdate(_ screen: Screen, _ live: [Int]) -> TreeUpdate {
        let slot = rng.pick(live)
        let e = screen.elements[slot]
        switch rng.below(10) {
        case 0..<4:
            // Up or down by up to 12 points (tops are 5 apart: rows split and join), now and
            // then a column to the side.
            let dy = Double(rng.int(in: -12...12))
            let dx = rng.chance(25) ? Double(rng.int(in: -1...1) * 90) : 0
            var nodes: [TreeUpdate.Node] = []
            var stack = [slot]
            while let x = stack.popLast() {
                var moved = screen.elements[x]
                stack += moved.children
                guard let f = moved.frame else { continue }
                moved.frame = Frame(x: f.x + dx, y: max(0, f.y + dy), width: f.width, height: f.height)
                nodes.append(TreeUpdate.Node(element: moved, childIDs: nil))
            }
            return TreeUpdate(nodes: nodes)
        case 4..<7:
            // A row added: a leaf, or a group of one to three leaves, near the others' tops.
            var nodes: [TreeUpdate.Node] = []
            var row = Element(id: fresh())
            let y = Double(rng.below(72) * 5 + rng.below(5))
            var leaves: [String] = []
            if rng.chance(60) {
                row.group = rng.chance(70)
                row.traits = rng.chance(10) ? .tabBar : []
                for k in 0..<(1 + rng.below(3)) {
                    var leaf = Element(id: fresh())
                    leaf.label = .plain("L\(rng.below(9))")
                    leaf.traits = rng.chance(20) ? .header : []
                    leaf.frame = Frame(x: Double(k * 90), y: y + Double(rng.below(3) * 5), width: 80, height: 30)
                    leaves.append(leaf.id)
                    nodes.append(TreeUpdate.Node(element: leaf, childIDs: nil))
                }
            } else {
                row.label = .plain("L\(rng.below(9))")
                row.traits = rng.chance(25) ? .header : []
                row.frame = Frame(x: Double(rng.below(4) * 90), y: y, width: 80, height: 30)
            }
            nodes.append(TreeUpdate.Node(element: row, childIDs: leaves.isEmpty ? nil : leaves))
            var ids = e.children.map { screen.elements[$0].id }
            ids.insert(row.id, at: rng.below(ids.count + 1))
            nodes.append(TreeUpdate.Node(element: e, childIDs: ids))
            return TreeUpdate(nodes: nodes)
        case 7..<9:
            // A row removed.
            guard !e.children.isEmpty else { return TreeUpdate(nodes: []) }
            var ids = e.children.map { screen.elements[$0].id }
            ids.remove(at: rng.below(ids.count))
            return TreeUpdate(nodes: [TreeUpdate.Node(element: e, childIDs: ids)])
        default:
            // An `order` naming some of the container's children (or a grandchild), or none;
            // not the root's (it would make the whole screen one `order`, sorted whole).
            guard slot != 0 else { return TreeUpdate(nodes: []) }
            var changed = e
            if e.order != nil || e.children.isEmpty {
                changed.order = nil
            } else {
                var ids = e.children.map { screen.elements[$0].id }.filter { _ in rng.chance(70) }
                if let c = e.children.first, let g = screen.elements[c].children.first, rng.chance(30) { ids.append(screen.elements[g].id) }
                ids.shuffle(using: &rng)
                changed.order = ids
            }
            return TreeUpdate(nodes: [TreeUpdate.Node(element: changed, childIDs: nil)])
        }
    }
}
