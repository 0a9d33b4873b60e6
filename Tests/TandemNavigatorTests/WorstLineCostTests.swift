import Testing
import TandemModel
import TandemTestSupport
@testable import TandemNavigator

/// The single lines within the limits that used to cost most (issue 27,
/// Docs/reliability.md#line-bound; `tandem-bench hostile worst`): each cost counted in the
/// work it does — order slots spliced, list slots read by declaration order, children-list
/// slots an update's edits scan or move, scopes sorted whole — never in time, and the order
/// after every line equal to one built from scratch.
@Suite("worst line cost")
struct WorstLineCostTests {
    static let catalog = """
        {"format": "tandem.catalog/1", "language": "en", "screens": [{"id": "big", "root": {"id": "root", "children": [
          {"id": "top", "label": "Top", "frame": [0, -100, 390, 44]}, {"id": "list"}, {"id": "side"}]}}]}
        """

    static func row(_ k: Int, y: Double? = nil, hidden: Bool = false) -> TreeUpdate.Node {
        var e = Element(id: "r\(k)")
        e.label = .plain("Row \(k)")
        e.frame = Frame(x: 0, y: y ?? Double(k * 50), width: 390, height: 44)
        e.hidden = hidden
        return TreeUpdate.Node(element: e, childIDs: nil)
    }

    /// A navigator on a screen whose container "list" holds `count` rows with frames (one
    /// sorted scope with the root), its order built.
    static func navigator(rows count: Int) throws -> Navigator {
        var nav = try Navigator(json: catalog)
        let list = TreeUpdate.Node(element: Element(id: "list"), childIDs: (0..<count).map { "r\($0)" })
        _ = try nav.apply(TreeUpdate(nodes: [list] + (0..<count).map { row($0) }))
        _ = nav.readingOrder()
        return nav
    }

    /// The order equals one built from scratch (elements and headings).
    static func expectFresh(_ nav: inout Navigator, sourceLocation: SourceLocation = #_sourceLocation) {
        let order = nav.readingOrder()
        let fresh = ReadingOrder(screen: nav.screen, language: "en")
        #expect(order.elements == fresh.elements, "the order differs from one built afresh", sourceLocation: sourceLocation)
        #expect(order.headings == fresh.headings, sourceLocation: sourceLocation)
    }

    @Test("an update hiding every eighth of 8,000 rows splices the order once, not once a row")
    func manyStretchesSpliceOnce() throws {
        var nav = try Self.navigator(rows: 8_000)
        let before = nav.readingOrder()
        // 1,000 rows hidden far apart: 1,000 stretches of rows, each one element shorter.
        _ = try nav.apply(TreeUpdate(nodes: stride(from: 0, to: 8_000, by: 8).map { Self.row($0, hidden: true) }))
        let after = nav.readingOrder()
        #expect(after.wholeRebuilds == before.wholeRebuilds && after.wholeSorts == before.wholeSorts, "the rows were not repaired by their stretches")
        #expect(after.rowRepairs > before.rowRepairs)
        let spliced = after.spliced - before.spliced
        // One pass over the order from the first stretch on (before: each stretch moved and
        // renumbered the rest of the order, about 4,000,000 slots).
        #expect(spliced <= 8_100, "\(spliced) order slots spliced for 1,000 rows hidden among 8,000")
        #expect(after.elements.count == 1 + 7_000)
        Self.expectFresh(&nav)
    }

    @Test("units at one left edge in one row are put in declaration order reading the long list once")
    func declarationOrderReadsTheListOnce() throws {
        var nav = try Self.navigator(rows: 3_000)
        let before = nav.readingOrder()
        // 400 odd rows each moved onto the row before it, at the same left edge: each row of
        // two is ordered by declaration (before: two scans of the 3,000-child list a comparison).
        _ = try nav.apply(TreeUpdate(nodes: stride(from: 1, to: 800, by: 2).map { Self.row($0, y: Double(($0 - 1) * 50)) }))
        let after = nav.readingOrder()
        #expect(after.rowRepairs > before.rowRepairs, "the rows were not repaired by their stretches")
        let looked = after.declarationLooked - before.declarationLooked
        #expect(looked > 0 && looked <= 3_100, "\(looked) list slots read to order 400 pairs")
        Self.expectFresh(&nav)
        #expect(nav.orderIDs().prefix(5) == ["top", "r0", "r1", "r2", "r3"])
    }

    @Test("a 3,000-child list sent again reversed sorts its scope whole instead of re-placing every row")
    func reversedListSortsWhole() throws {
        var nav = try Self.navigator(rows: 3_000)
        let before = nav.readingOrder()
        let reversed = (0..<3_000).reversed().map { "r\($0)" }
        _ = try nav.apply(TreeUpdate(nodes: [TreeUpdate.Node(element: Element(id: "list"), childIDs: reversed)]))
        let after = nav.readingOrder()
        #expect(after.rowRepairs == before.rowRepairs, "every row was re-placed one by one")
        #expect(after.wholeSorts == before.wholeSorts + 1)
        Self.expectFresh(&nav)
    }

    @Test("2,000 edits each moving the last of 5,000 children to the front cost the list once, not once an edit")
    func manyEditsOfOneList() throws {
        let nav = try Self.navigator(rows: 5_000)
        var screen = nav.screen
        let edits = (0..<2_000).map { k in
            TreeUpdate.ChildrenEdit(parent: "list", remove: ["r\(4_999 - k)"], insert: ["r\(4_999 - k)"],
                                    place: .before(k == 0 ? "r0" : "r\(5_000 - k)"))
        }
        let change = try screen.apply(TreeUpdate(nodes: [], edits: edits))
        // Linked while the edits run: read once, written back once (before: a scan and two
        // moves of the list an edit, about 20,000,000 slots).
        #expect(change.listWork <= 2 * 5_000, "\(change.listWork) list slots for 2,000 edits")
        let kids = screen.elements[screen.index["list"]!].children.map { screen.elements[$0].id }
        #expect(kids == (3_000..<5_000).map { "r\($0)" } + (0..<3_000).map { "r\($0)" })
        var nav2 = nav
        _ = try nav2.apply(TreeUpdate(nodes: [], edits: edits))
        Self.expectFresh(&nav2)
    }

    @Test("one edit removing 4,000 of 5,000 children, the last first, filters the list once")
    func oneEditRemovingMany() throws {
        let nav = try Self.navigator(rows: 5_000)
        var screen = nav.screen
        let gone = (1_000..<5_000).reversed().map { "r\($0)" }
        let change = try screen.apply(TreeUpdate(nodes: [], edits: [TreeUpdate.ChildrenEdit(parent: "list", remove: gone)]))
        #expect(change.listWork <= 5_000, "\(change.listWork) list slots to remove 4,000 children")
        #expect(screen.elements[screen.index["list"]!].children.count == 1_000)
        #expect(screen.liveCount == 4 + 1_000)
        #expect(Set(change.removed) == Set(gone))
    }

    @Test("1,000 updates each adding a row to 3,000 grow the element table and its index a few times, not every few updates")
    func addingGrowsGeometrically() throws {
        let nav = try Self.navigator(rows: 3_000)
        var screen = nav.screen
        var grown = 0, rehashed = 0
        for k in 0..<1_000 {
            let (elements, index) = (screen.elements.capacity, screen.index.capacity)
            let id = "r\(10_000 + k)"
            _ = try screen.apply(TreeUpdate(nodes: [Self.row(10_000 + k)], edits: [TreeUpdate.ChildrenEdit(parent: "list", insert: [id])]))
            if screen.elements.capacity != elements { grown += 1 }
            if screen.index.capacity != index { rehashed += 1 }
        }
        // Each growth copies the whole table (each rehash hashes every id): geometric growth
        // does it about once here (before: room for exactly one more, a copy nearly every update).
        #expect(grown <= 3, "the element table grew \(grown) times in 1,000 one-row updates")
        #expect(rehashed <= 3, "the index grew \(rehashed) times in 1,000 one-row updates")
        #expect(screen.liveCount == 4 + 4_000)
    }

    @Test("random edits of a long and a short list in one update leave each list as the edits one by one on arrays")
    func linkedEditsMatchOneByOne() throws {
        var random = SplitMix64(seed: 27)
        for round in 0..<20 {
            let nav = try Self.navigator(rows: 300)
            var together = nav.screen
            // Rows live in "list" (long) and "side" (short); each edit removes some children of
            // one and puts some of the removed (or of those taken from the other) back.
            var lists: [String: [String]] = ["list": (0..<300).map { "r\($0)" }, "side": []]
            var edits: [TreeUpdate.ChildrenEdit] = []
            var loose: [String] = []
            for _ in 0..<(5 + Int(random.next() % 60)) {
                let parent = random.next() % 3 == 0 ? "side" : "list"
                var kids = lists[parent]!
                var remove: [String] = []
                for _ in 0..<Int(random.next() % 4) where !kids.isEmpty {
                    remove.append(kids.remove(at: Int(random.next() % UInt64(kids.count))))
                }
                var insert: [String] = []
                var pool = loose + remove
                for _ in 0..<Int(random.next() % 4) where !pool.isEmpty {
                    insert.append(pool.remove(at: Int(random.next() % UInt64(pool.count))))
                }
                guard !remove.isEmpty || !insert.isEmpty else { continue }
                loose = pool
                var place = TreeUpdate.ChildrenEdit.Place.end
                if !insert.isEmpty, !kids.isEmpty {
                    let k = Int(random.next() % UInt64(kids.count))
                    switch random.next() % 3 {
                    case 0: place = .after(kids[k]); kids.insert(contentsOf: insert, at: k + 1)
                    case 1: place = .before(kids[k]); kids.insert(contentsOf: insert, at: k)
                    default: kids += insert
                    }
                } else {
                    kids += insert
                }
                lists[parent] = kids
                edits.append(TreeUpdate.ChildrenEdit(parent: parent, remove: remove, insert: insert, place: place))
            }
            // `lists` applied each edit to arrays; what is still loose at the end is removed.
            _ = try together.apply(TreeUpdate(nodes: [], edits: edits))
            for parent in ["list", "side"] {
                let kids = together.elements[together.index[parent]!].children.map { together.elements[$0].id }
                #expect(kids == lists[parent]!, "round \(round): \(parent) is not what the edits one by one make it")
                for id in kids { #expect(together.elements[together.index[id]!].parent == together.index[parent]) }
            }
            #expect(together.liveCount == 4 + 300 - loose.count)
            var order = nav
            _ = try order.apply(TreeUpdate(nodes: [], edits: edits))
            Self.expectFresh(&order)
        }
    }
}
