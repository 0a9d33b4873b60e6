import Testing
import TandemModel
import TandemTestSupport
@testable import TandemNavigator

/// Children lists edited by id (`TreeUpdate.edits`, Docs/protocol.md#edits): what they change,
/// what they refuse, what they cost, and that they give the reading order a whole list gives.
@Suite("children-list edits")
struct ChildrenEditTests {
    typealias Edit = TreeUpdate.ChildrenEdit

    func app() throws -> Navigator {
        var nav = try Navigator(json: TreeUpdateTests.list)
        nav.forwardsActions = true
        return nav
    }

    func node(_ id: String, label: String? = nil, frame: [Double]? = nil, children: [String]? = nil) -> TreeUpdate.Node {
        var e = Element(id: id)
        e.label = label.map(LabelText.plain)
        if let f = frame { e.frame = Frame(x: f[0], y: f[1], width: f[2], height: f[3]) }
        return TreeUpdate.Node(element: e, childIDs: children)
    }

    func children(_ nav: Navigator, _ id: String) -> [String] {
        nav.screen[id]!.children.map { nav.screen.elements[$0].id }
    }

    @Test("an edit inserts a new row after a sibling, before one, or at the end, and each reads in frame order")
    func insert() throws {
        var nav = try app()
        _ = try nav.apply(TreeUpdate(nodes: [node("row.avocado", label: "Avocado", frame: [0, 85, 300, 20])],
                                     edits: [Edit(parent: "rows", insert: ["row.avocado"], place: .after("row.apple"))]))
        #expect(children(nav, "rows") == ["row.apple", "row.avocado", "row.banana", "row.cherry"])
        _ = try nav.apply(TreeUpdate(nodes: [node("row.almond", label: "Almond", frame: [0, 50, 300, 8])],
                                     edits: [Edit(parent: "rows", insert: ["row.almond"], place: .before("row.apple"))]))
        _ = try nav.apply(TreeUpdate(nodes: [node("row.date", label: "Date", frame: [0, 210, 300, 44])],
                                     edits: [Edit(parent: "rows", insert: ["row.date"])]))
        #expect(children(nav, "rows") == ["row.almond", "row.apple", "row.avocado", "row.banana", "row.cherry", "row.date"])
        #expect(nav.orderIDs() == ["title", "row.almond", "row.apple", "row.avocado", "row.banana", "row.cherry", "row.date", "checkout"])
    }

    @Test("an edit removes the focused row with its subtree; focus goes to the next row")
    func removeFocused() throws {
        var nav = try app()
        // A part of the row with nothing to say (the row stays the element read).
        _ = try nav.apply(TreeUpdate(nodes: [node("row.banana.price", frame: [200, 110, 50, 20])],
                                     edits: [Edit(parent: "row.banana", insert: ["row.banana.price"])]))
        try nav.focus("row.banana")
        let events = try nav.apply(TreeUpdate(nodes: [], edits: [Edit(parent: "rows", remove: ["row.banana"])]))
        #expect(events.contains(.focused(screen: "list", element: "row.cherry", reason: .lost)))
        #expect(nav.screen.index["row.banana"] == nil && nav.screen.index["row.banana.price"] == nil)
        #expect(nav.orderIDs() == ["title", "row.apple", "row.cherry", "checkout"])
    }

    @Test("a child removed from one list and inserted in another moves there; removed and inserted in one list, it moves within it")
    func move() throws {
        var nav = try app()
        _ = try nav.apply(TreeUpdate(nodes: [], edits: [Edit(parent: "rows", remove: ["row.cherry"]),
                                                        Edit(parent: "root", insert: ["row.cherry"], place: .after("title"))]))
        #expect(children(nav, "root") == ["title", "row.cherry", "rows", "checkout"])
        #expect(nav.screen.index["row.cherry"] != nil)
        _ = try nav.apply(TreeUpdate(nodes: [], edits: [Edit(parent: "rows", remove: ["row.apple"], insert: ["row.apple"], place: .after("row.banana"))]))
        #expect(children(nav, "rows") == ["row.banana", "row.apple"])
        #expect(nav.orderIDs() == ["title", "row.apple", "row.banana", "row.cherry", "checkout"], "frames decide, not the list")
    }

    @Test("refused edits change nothing and say which edit and id were wrong", arguments: [
        ("an unknown parent", [Edit(parent: "ghost", insert: ["title"])], #"edits[0].parent: "ghost" is neither in the tree nor a node of this update"#),
        ("removing an id that is not a child", [Edit(parent: "rows", remove: ["row.apple", "title"])], #"edits[0].remove[1]: "title" is not a child of "rows""#),
        ("removing an unknown id", [Edit(parent: "rows", remove: ["row.ghost"])], #"edits[0].remove[0]: "row.ghost" is not a child of "rows" (no element has that id)"#),
        ("a place not in the list", [Edit(parent: "rows", insert: ["row.new"], place: .after("title"))], #"edits[0].after: "title" is not a child of "rows""#),
        ("a place the edit removes", [Edit(parent: "rows", remove: ["row.apple"], insert: ["row.new"], place: .before("row.apple"))], #"edits[0].before: "row.apple" is not a child of "rows" (this edit removes it)"#),
        ("inserting an unknown id", [Edit(parent: "rows", insert: ["row.ghost"])], #"edits[0].insert[0]: "row.ghost" is neither in the tree nor a node of this update"#),
        ("inserting a child twice", [Edit(parent: "rows", insert: ["row.apple"])], #"edits[0].insert[0]: "row.apple" is a child of "rows" already"#),
        ("inserting a child of another list", [Edit(parent: "rows", insert: ["title"])], #"edits[0].insert[0]: "title" is still a child of "root" (remove it there first)"#),
        ("inserting the root", [Edit(parent: "rows", insert: ["root"])], #"edits[0].insert[0]: the root "root" cannot be a child of "rows""#),
        ("a cycle", [Edit(parent: "root", remove: ["rows"]), Edit(parent: "row.apple", insert: ["rows"])], #"the children of "row.apple" make a cycle"#),
        ("an edit that changes nothing", [Edit(parent: "rows")], #"edits[0]: an edit needs "remove" or "insert""#),
        ("a second edit on the list the first left", [Edit(parent: "rows", remove: ["row.apple"]), Edit(parent: "rows", remove: ["row.apple"])], #"edits[1].remove[0]: "row.apple" is not a child of "rows""#),
    ] as [(String, [Edit], String)])
    func refused(_ name: String, _ edits: [Edit], _ expected: String) throws {
        var nav = try app()
        let before = nav.screen
        let update = TreeUpdate(nodes: [node("row.new", label: "New", frame: [0, 300, 300, 44])].filter { _ in edits.contains { $0.insert.contains("row.new") } },
                                edits: edits)
        do {
            _ = try nav.apply(update)
            Issue.record("\(name): applied")
        } catch {
            #expect(error.message.hasPrefix(expected) || error.message.contains(expected), "\(name): \(error.message)")
        }
        #expect(nav.screen == before, "\(name): nothing changed")
    }

    @Test("a node given with its whole children list cannot be edited in the same update; a new node an edit takes out again is named by nothing")
    func listAndEdit() throws {
        var nav = try app()
        #expect(throws: TreeUpdateError(#"edits[0]: "rows" comes with its whole children list in this update; give the list or edit it, not both"#)) {
            try nav.apply(TreeUpdate(nodes: [node("rows", children: ["row.apple"])], edits: [Edit(parent: "rows", remove: ["row.banana"])]))
        }
        #expect(throws: TreeUpdateError(#"node "row.new" is new, but no children list or edit in this update names it"#)) {
            try nav.apply(TreeUpdate(nodes: [node("row.new", label: "New")],
                                     edits: [Edit(parent: "rows", insert: ["row.new"]), Edit(parent: "rows", remove: ["row.new"])]))
        }
        let untouched = try app()
        #expect(nav.screen == untouched.screen)
    }

    /// A list of `n` rows in no group or section, 72 points a row: the flat layout.
    static func flatList(_ n: Int) -> String {
        let rows = (0..<n).map { #"{"id": "r\#($0)", "group": true, "children": [{"id": "r\#($0).cell", "label": "Item \#($0)", "frame": [16, \#(100 + $0 * 72), 250, 64]}, {"id": "r\#($0).stepper", "label": "Quantity", "frame": [276, \#(116 + $0 * 72), 98, 32]}]}"# }
        return """
            {"format": "tandem.catalog/1", "language": "en", "screens": [{"id": "list", "root": {"id": "root", "children": [
              {"id": "title", "label": "Items", "traits": ["header"], "frame": [0, 44, 390, 44]},
              {"id": "rows", "children": [\(rows.joined(separator: ","))]}]}}]}
            """
    }

    func newRow(_ id: String, y: Double) -> [TreeUpdate.Node] {
        var row = Element(id: id)
        row.group = true
        return [TreeUpdate.Node(element: row, childIDs: ["\(id).cell"]), node("\(id).cell", label: "New", frame: [16, y, 250, 30])]
    }

    @Test("a row inserted, removed or moved in a long flat list by an edit looks at no sibling and re-forms only its rows")
    func editCost() throws {
        var nav = try Navigator(json: Self.flatList(2_000))
        nav.forwardsActions = true
        let listed = nav.readingOrder().elements.count
        func cost(_ update: TreeUpdate) throws -> (units: Int, children: Int, whole: Int) {
            let before = nav.readingOrder()
            _ = try nav.apply(update)
            let after = nav.readingOrder()
            return (after.unitsLookedAt - before.unitsLookedAt, after.childrenLookedAt - before.childrenLookedAt, after.wholeSorts - before.wholeSorts)
        }
        let y = Double(100 + 1_000 * 72 + 36)
        let added = try cost(TreeUpdate(nodes: newRow("extra", y: y), edits: [Edit(parent: "rows", insert: ["extra"], place: .after("r1000"))]))
        #expect(added.whole == 0 && added.units < 20 && added.children < 10, "added: \(added)")
        #expect(nav.orderIDs().count == listed + 1)
        #expect(TreeUpdateTests().agrees(&nav))
        // A row of the list moves down 4 points: the list's frame (the union of 2,001 rows) is kept, not worked out again.
        let moved = try cost(TreeUpdate(nodes: [node("r500.cell", label: "Item 500", frame: [16, Double(100 + 500 * 72 + 4), 250, 64])]))
        #expect(moved.whole == 0 && moved.children < 10, "moved: \(moved)")
        let removed = try cost(TreeUpdate(nodes: [], edits: [Edit(parent: "rows", remove: ["extra"])]))
        #expect(removed.whole == 0 && removed.units < 20 && removed.children < 10, "removed: \(removed)")
        #expect(nav.orderIDs().count == listed)
        #expect(TreeUpdateTests().agrees(&nav))
        // The whole list sent again with one row more differs in one stretch: it costs as the edit
        // (in the reading order; the list itself is read and checked whole).
        var ids = (0..<2_000).map { "r\($0)" }
        ids.insert("extra2", at: 1_001)
        let whole = try cost(TreeUpdate(nodes: newRow("extra2", y: y) + [node("rows", children: ids)]))
        #expect(whole.whole == 0 && whole.units < 20 && whole.children < 10, "whole list: \(whole)")
        #expect(TreeUpdateTests().agrees(&nav))
    }

    @Test("the last row at the list's edge removed: the list's frame shrinks to its other rows")
    func edgeRemoved() throws {
        var nav = try Navigator(json: Self.flatList(5))
        nav.forwardsActions = true
        let rows = try #require(nav.screen.index["rows"])
        #expect(nav.readingOrder().frames[rows] == Frame(x: 16, y: 100, width: 358, height: 4 * 72 + 64))
        _ = try nav.apply(TreeUpdate(nodes: [], edits: [Edit(parent: "rows", remove: ["r4"])]))
        #expect(nav.readingOrder().frames[rows] == Frame(x: 16, y: 100, width: 358, height: 3 * 72 + 64))
        _ = try nav.apply(TreeUpdate(nodes: [], edits: [Edit(parent: "rows", remove: ["r0"])]))
        #expect(nav.readingOrder().frames[rows] == Frame(x: 16, y: 172, width: 358, height: 2 * 72 + 64))
        #expect(TreeUpdateTests().agrees(&nav))
    }

    // MARK: edits and whole lists agree

    /// A whole-list update as edits: every list a node gives becomes removals of the children
    /// that leave it or fall out of order, then insertions of runs after the child before them
    /// (before the first kept one, or at the end); all removals come first, so that a child may
    /// move between lists.
    static func asEdits(_ update: TreeUpdate, on screen: Screen) -> TreeUpdate {
        var nodes: [TreeUpdate.Node] = []
        var removals: [Edit] = [], insertions: [Edit] = []
        for n in update.nodes {
            guard let new = n.childIDs else { nodes.append(n); continue }
            let id = n.element.id
            nodes.append(TreeUpdate.Node(element: n.element, childIDs: nil))
            let old = screen.index[id].map { screen.elements[$0].children.map { screen.elements[$0].id } } ?? []
            var at: [String: Int] = [:]
            for (k, c) in new.enumerated() { at[c] = k }
            var kept: Set<String> = [], remove: [String] = []
            var last = -1
            for c in old {
                if let k = at[c], k > last { kept.insert(c); last = k } else { remove.append(c) }
            }
            if !remove.isEmpty { removals.append(Edit(parent: id, remove: remove)) }
            var k = 0
            while k < new.count {
                guard !kept.contains(new[k]) else { k += 1; continue }
                let start = k
                while k < new.count, !kept.contains(new[k]) { k += 1 }
                let place: Edit.Place = start > 0 ? .after(new[start - 1]) : (k < new.count ? .before(new[k]) : .end)
                insertions.append(Edit(parent: id, insert: Array(new[start..<k]), place: place))
            }
        }
        return TreeUpdate(nodes: nodes, edits: removals + insertions, focus: update.focus)
    }

    /// The tree by ids: each element's parent and children.
    static func shape(_ screen: Screen) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for e in screen.elements where !e.isRemoved { out[e.id] = e.children.map { screen.elements[$0].id } }
        return out
    }

    /// Random screens and random updates (those of the reading-order property tests), each sent
    /// to one navigator as it is and to another with its children lists as edits: the trees,
    /// the reading orders, the headings and accessibility agree after every step, and the order
    /// kept with edits is the order built from scratch.
    @Test("edits give the same tree and reading order as sending the whole lists")
    func editsEqualWholeLists() throws {
        var edits = 0, moves = 0
        for seed in 0..<150 {
            var builder = RandomTree(rng: SplitMix64(seed: 0xED17 ^ UInt64(seed)))
            builder.framed = seed % 4 == 3 ? 90 : 100
            builder.rowChanges = seed % 2 == 0 ? 70 : 0
            var whole = Navigator(catalog: builder.catalog())
            whole.forwardsActions = true
            _ = whole.start()
            var edited = whole
            for step in 0..<40 {
                let wholeUpdate = builder.update(whole.screen)
                let update = Self.asEdits(wholeUpdate, on: edited.screen)
                do { _ = try whole.apply(wholeUpdate) } catch { continue }
                edits += update.edits.isEmpty ? 0 : 1
                moves += update.edits.contains { e in e.insert.contains { edited.screen.index[$0] != nil } } ? 1 : 0
                do { _ = try edited.apply(update) } catch {
                    Issue.record("seed \(seed) step \(step): the edits were refused: \(error.message); \(update.edits)")
                    return
                }
                guard Self.shape(whole.screen) == Self.shape(edited.screen) else {
                    Issue.record("seed \(seed) step \(step): the trees differ after \(update.edits)")
                    return
                }
                let fresh = ReadingOrder(screen: edited.screen, language: builder.language, rowThreshold: builder.device.rowThreshold)
                let freshIDs = fresh.elements.map { edited.screen.elements[$0].id }
                guard whole.orderIDs() == edited.orderIDs(), edited.orderIDs() == freshIDs,
                      whole.readingOrder().headings == edited.readingOrder().headings, fresh.headings == edited.readingOrder().headings else {
                    Issue.record("seed \(seed) step \(step): orders differ: whole \(whole.orderIDs()), edits \(edited.orderIDs()), fresh \(freshIDs); \(update.edits)")
                    return
                }
                let kept = edited.readingOrder()
                let live = edited.screen.elements.indices.filter { !edited.screen.elements[$0].isRemoved }
                guard live.allSatisfy({ kept.accessible[$0] == fresh.accessible[$0] && kept.frames[$0] == fresh.frames[$0] }) else {
                    let bad = live.filter { kept.accessible[$0] != fresh.accessible[$0] || kept.frames[$0] != fresh.frames[$0] }.map { edited.screen.elements[$0].id }
                    Issue.record("seed \(seed) step \(step): accessibility or frames differ for \(bad)")
                    return
                }
            }
        }
        #expect(edits > 1_500 && moves > 100, "updates with edits \(edits), with an element moved by an edit \(moves)")
    }
}

/// The union of children's frames kept piece by piece.
@Suite("child frames")
struct ChildFramesTests {
    @Test("frames added and removed in any order give the union of those left, as worked out from scratch")
    func keptUnion() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            var kept = ChildFrames()
            var present: [Frame] = []
            for _ in 0..<60 {
                if present.isEmpty || rng.chance(60) {
                    let f = Frame(x: Double(rng.below(5) * 10), y: Double(rng.below(8) * 10), width: Double(10 + rng.below(3) * 10), height: 10)
                    present.append(f)
                    kept.add(f)
                } else {
                    kept.remove(present.remove(at: rng.below(present.count)))
                }
                if kept.stale {
                    // What `recount` does: all the children again.
                    kept = ChildFrames()
                    for f in present { kept.add(f) }
                }
                let expected = present.dropFirst().reduce(present.first) { $0!.union($1) }
                #expect(kept.frame == expected)
            }
        }
    }
}
