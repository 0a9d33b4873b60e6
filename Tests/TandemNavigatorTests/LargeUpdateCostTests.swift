import Testing
import TandemModel
@testable import TandemNavigator

/// An update as large as the screen builds the reading order whole, once, instead of
/// repairing it element by element (issue 27: a megabyte update held the session several
/// times as long as a megabyte screen). Counted in whole builds and elements computed,
/// never in time; the order must equal one built from scratch either way.
@Suite("large update cost")
struct LargeUpdateCostTests {
    func labelled(_ id: String, children: [String]? = nil, y: Double? = nil) -> TreeUpdate.Node {
        var e = Element(id: id)
        e.label = .plain("Label \(id)")
        if let y { e.frame = Frame(x: 0, y: y, width: 300, height: 40) }
        return TreeUpdate.Node(element: e, childIDs: children)
    }

    /// Applies `update`; the whole builds, repairs' computes and the order's ids afterwards.
    func cost(_ nav: inout Navigator, _ update: TreeUpdate) throws -> (whole: Int, computes: Int) {
        let before = nav.readingOrder()
        _ = try nav.apply(update)
        let after = nav.readingOrder()
        let fresh = ReadingOrder(screen: nav.screen, language: "en")
        #expect(nav.orderIDs() == fresh.elements.map { nav.screen.elements[$0].id })
        #expect(after.headings == fresh.headings)
        return (after.wholeRebuilds - before.wholeRebuilds, after.computes - before.computes)
    }

    @Test("2,000 rows added to a screen of two elements: the order is built whole once, each element computed once")
    func largeAddBuildsWhole() throws {
        var nav = try Navigator(json: DeepChainCostTests.catalog)
        let n = 2_000
        let ids = (0..<n).map { "r\($0)" }
        let added = try cost(&nav, TreeUpdate(nodes: [labelled("top", children: ids)] + ids.enumerated().map { labelled($1, y: Double($0 * 50)) }))
        #expect(added.whole == 1, "the order was repaired element by element")
        #expect(added.computes == nav.screen.liveCount, "\(added.computes) computes for \(nav.screen.liveCount) elements")
        #expect(nav.orderIDs() == ids)
    }

    @Test("five chains of 220 new elements are built whole too; 20 rows changed of 2,000, and a chain of 249, are repaired")
    func smallChangesRepair() throws {
        // Five chains 220 deep (the depth limit is 250).
        var nav = try Navigator(json: DeepChainCostTests.catalog)
        var chains = [labelled("top", children: (0..<5).map { "c\($0)x0" })]
        for c in 0..<5 {
            for i in 0..<220 { chains.append(labelled("c\(c)x\(i)", children: i < 219 ? ["c\(c)x\(i + 1)"] : nil)) }
        }
        #expect(try cost(&nav, TreeUpdate(nodes: chains)).whole == 1)

        var list = try Navigator(json: DeepChainCostTests.catalog)
        let ids = (0..<2_000).map { "r\($0)" }
        _ = try list.apply(TreeUpdate(nodes: [labelled("top", children: ids)] + ids.enumerated().map { labelled($1, y: Double($0 * 50)) }))
        // Rows 100…119 move below row 1,999: they change place, the rest does not.
        let moved = try cost(&list, TreeUpdate(nodes: (100..<120).map { labelled("r\($0)", y: Double(200_000 + $0)) }))
        #expect(moved.whole == 0)
        #expect(moved.computes < 100, "\(moved.computes) computes for 20 rows moved")
        #expect(list.orderIDs().suffix(20) == (100..<120).map { "r\($0)" })

        var deep = try Navigator(json: DeepChainCostTests.catalog)
        var short = [labelled("top", children: ["d0"])]
        for i in 0..<249 { short.append(labelled("d\(i)", children: i < 248 ? ["d\(i + 1)"] : nil)) }
        #expect(try cost(&deep, TreeUpdate(nodes: short)).whole == 0)
    }

    @Test("chains of new elements, each with a children list, count once each toward a whole build: 1,984 on 10,000 rows are repaired")
    func chainsCountedOnce() throws {
        // 10,000 rows, then eight chains 248 deep under one of them: 1,984 new elements, each
        // both new and given a children list — a sixth of the screen, not the quarter (counted
        // twice, they made 3,968 and a whole build of 12,000 elements).
        var nav = try Navigator(json: DeepChainCostTests.catalog)
        let ids = (0..<10_000).map { "r\($0)" }
        for start in stride(from: 0, to: ids.count, by: 4_000) {
            let rows = ids[start..<min(ids.count, start + 4_000)]
            _ = try nav.apply(TreeUpdate(nodes: [labelled("top", children: Array(ids[..<(start + rows.count)]))]
                                          + rows.map { labelled($0, y: Double(Int($0.dropFirst())! * 50)) }))
        }
        var chains = [labelled("r5", children: (0..<8).map { "c\($0)x0" }, y: 250)]
        for c in 0..<8 {
            for i in 0..<248 { chains.append(labelled("c\(c)x\(i)", children: i < 247 ? ["c\(c)x\(i + 1)"] : nil)) }
        }
        let added = try cost(&nav, TreeUpdate(nodes: chains))
        #expect(added.whole == 0, "the order was built whole for a sixth of the screen")
        #expect(added.computes < 4_000, "\(added.computes) computes for 1,984 new elements")
    }
}
