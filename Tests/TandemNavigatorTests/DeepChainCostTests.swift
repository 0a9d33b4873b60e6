import Testing
import TandemModel
@testable import TandemNavigator

/// A deep chain costs what a wide list of the same size costs (issue 27, item 1): counted in
/// elements recomputed, never in time.
@Suite("deep chain cost")
struct DeepChainCostTests {
    static let catalog = """
        {"format": "tandem.catalog/1", "language": "en", "screens": [{"id": "deep", "root": {"id": "root", "children": [
          {"id": "top", "label": "Top"}]}}]}
        """

    func labelled(_ id: String, children: [String]?) -> TreeUpdate.Node {
        var e = Element(id: id)
        e.label = .plain("Label \(id)")
        return TreeUpdate.Node(element: e, childIDs: children)
    }

    /// Elements recomputed by one update, after the order was built.
    func computes(_ update: TreeUpdate) throws -> (count: Int, nav: Navigator) {
        var nav = try Navigator(json: Self.catalog)
        let before = nav.readingOrder().computes
        _ = try nav.apply(update)
        return (nav.readingOrder().computes - before, nav)
    }

    @Test("a chain of 249 new elements recomputes each about once, as a list of 249 does, and reads in order")
    func chainIsLinear() throws {
        let n = 249
        var chain = [labelled("top", children: ["d0"])]
        for i in 0..<n { chain.append(labelled("d\(i)", children: i < n - 1 ? ["d\(i + 1)"] : nil)) }
        let deep = try computes(TreeUpdate(nodes: chain))
        let list = try computes(TreeUpdate(nodes: [labelled("top", children: (0..<n).map { "d\($0)" })]
                                           + (0..<n).map { labelled("d\($0)", children: nil) }))
        // Each new element, "top" and the root: once each. A walk to the top from every new
        // element (the cost before) is 249 · 250 / 2 = 31,125.
        #expect(deep.count <= n + 3, "a chain of \(n) recomputed \(deep.count) elements")
        #expect(deep.count <= list.count + 2, "the chain cost \(deep.count), the list \(list.count)")
        var nav = deep.nav
        let ids = nav.readingOrder().elements.map { nav.screen.elements[$0].id }
        let fresh = ReadingOrder(screen: nav.screen, language: "en")
        #expect(ids == fresh.elements.map { nav.screen.elements[$0].id })
        #expect(!ids.isEmpty)
    }

    @Test("an update deeper than maxDepth, or a subtree moved to go deeper, is refused whole naming the limit")
    func depthLimit() throws {
        var nav = try Navigator(json: Self.catalog)
        var chain = [labelled("top", children: ["d0"])]
        for i in 0..<(Screen.maxDepth - 1) { chain.append(labelled("d\(i)", children: i < Screen.maxDepth - 2 ? ["d\(i + 1)"] : nil)) }
        _ = try nav.apply(TreeUpdate(nodes: chain))           // "d248" is at 250
        #expect(throws: TreeUpdateError("\"x\" would be 251 levels below the root, deeper than the limit of 250 (maxDepth)")) {
            _ = try nav.apply(TreeUpdate(nodes: [self.labelled("d248", children: ["x"]), self.labelled("x", children: nil)]))
        }
        // A branch of two under "root", moved under "d100": its leaf would be at 103, fine;
        // under "d248" it would be at 252.
        _ = try nav.apply(TreeUpdate(nodes: [labelled("root", children: ["top", "b0"]), labelled("b0", children: ["b1"]), labelled("b1", children: nil)]))
        #expect(throws: TreeUpdateError("moving \"b0\" under \"d248\" would put its subtree 252 levels below the root, deeper than the limit of 250 (maxDepth)")) {
            _ = try nav.apply(TreeUpdate(nodes: [self.labelled("root", children: ["top"]), self.labelled("d248", children: ["b0"])]))
        }
        _ = try nav.apply(TreeUpdate(nodes: [labelled("root", children: ["top"]), labelled("d100", children: ["d101", "b0"])]))
        #expect(nav.screen["b1"] != nil)
    }

    @Test("an update that would make the screen more than maxElements is refused whole naming the limit")
    func elementLimit() throws {
        var nav = try Navigator(json: Self.catalog)
        let ids = (0..<(Screen.maxElements - 1)).map { "e\($0)" }
        #expect(throws: TreeUpdateError("the update would make the screen 50001 elements, over the limit of 50000 (maxElements)")) {
            _ = try nav.apply(TreeUpdate(nodes: [self.labelled("top", children: ids)] + ids.map { self.labelled($0, children: nil) }))
        }
        #expect(nav.screen.liveCount == 2)
        // One fewer fits.
        _ = try nav.apply(TreeUpdate(nodes: [labelled("top", children: Array(ids.dropLast()))] + ids.dropLast().map { labelled($0, children: nil) }))
        #expect(nav.screen.liveCount == Screen.maxElements)
    }
}
