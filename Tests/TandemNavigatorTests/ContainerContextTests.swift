import Testing
import TandemModel
import TandemNavigator

/// What a container tells its elements (`ElementContext`), computed with the reading order:
/// tab positions, list and landmark ends, data table cells.
@Suite("Container context")
struct ContainerContextTests {
    /// The context of every reachable element, by id, in reading order.
    static func contexts(_ children: String) throws -> [(id: String, context: ElementContext?)] {
        var nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "root", "children": [\(children)]}}]}
            """)
        let order = nav.readingOrder()
        return order.elements.map { (nav.screen.elements[$0].id, order.context(of: $0, in: nav.screen)) }
    }

    @Test("every element inside a tab bar is a tab, numbered in reading order among the bar's elements")
    func tabPositions() throws {
        let got = try Self.contexts("""
            {"id": "title", "label": "Home", "traits": ["header"], "frame": [0, 0, 390, 44]},
            {"id": "tabs", "traits": ["tabBar"], "children": [
              {"id": "tab.profile", "label": "Profile", "traits": ["button"], "frame": [260, 800, 130, 40]},
              {"id": "tab.home", "label": "Home", "traits": ["button", "selected"], "frame": [0, 800, 130, 40]},
              {"id": "tab.search", "label": "Search", "traits": ["button"], "frame": [130, 800, 130, 40]}]},
            {"id": "after", "label": "After", "frame": [0, 900, 390, 40]}
            """)
        #expect(got.map(\.id) == ["title", "tab.home", "tab.search", "tab.profile", "after"])
        #expect(got.map(\.context) == [nil, .tab(index: 1, count: 3), .tab(index: 2, count: 3), .tab(index: 3, count: 3), nil])
    }

    @Test("a tab bar's elements stay together even when another element sits between them on screen")
    func tabBarIsAGroup() throws {
        let got = try Self.contexts("""
            {"id": "tabs", "traits": ["tabBar"], "children": [
              {"id": "tab.a", "label": "A", "frame": [0, 0, 100, 40]},
              {"id": "tab.b", "label": "B", "frame": [0, 200, 100, 40]}]},
            {"id": "between", "label": "Between", "frame": [0, 100, 100, 40]}
            """)
        #expect(got.map(\.id) == ["tab.a", "tab.b", "between"])
    }

    @Test("a segmented control numbers its segments in reading order")
    func segments() throws {
        let got = try Self.contexts("""
            {"id": "size", "container": "segmentedControl", "children": [
              {"id": "size.30", "label": "30", "traits": ["button", "selected"], "frame": [135, 480, 120, 36]},
              {"id": "size.25", "label": "25", "traits": ["button"], "frame": [16, 480, 119, 36]}]}
            """)
        #expect(got.map(\.id) == ["size.25", "size.30"])
        #expect(got.map(\.context) == [.segment(index: 1, count: 2), .segment(index: 2, count: 2)])
    }

    @Test("hidden elements are not counted among the tabs")
    func hiddenTabsNotCounted() throws {
        let got = try Self.contexts("""
            {"id": "tabs", "traits": ["tabBar"], "children": [
              {"id": "tab.a", "label": "A", "frame": [0, 0, 100, 40]},
              {"id": "tab.hidden", "label": "H", "hidden": true, "frame": [100, 0, 100, 40]},
              {"id": "tab.b", "label": "B", "frame": [200, 0, 100, 40]}]}
            """)
        #expect(got.map(\.context) == [.tab(index: 1, count: 2), .tab(index: 2, count: 2)])
    }

    @Test("a list marks its first element list start and its last list end; a single element only start")
    func listEnds() throws {
        let got = try Self.contexts("""
            {"id": "list", "container": "list", "children": [
              {"id": "one", "label": "1", "frame": [0, 0, 100, 40]},
              {"id": "two", "label": "2", "frame": [0, 50, 100, 40]},
              {"id": "three", "label": "3", "frame": [0, 100, 100, 40]}]},
            {"id": "solo.list", "container": "list", "children": [{"id": "solo", "label": "S", "frame": [0, 200, 100, 40]}]}
            """)
        #expect(got.map(\.context) == [.listStart, nil, .listEnd, .listStart])
    }

    @Test("a landmark marks its first element landmark and its last end")
    func landmarkEnds() throws {
        let got = try Self.contexts("""
            {"id": "nav", "container": "landmark", "order": ["nav.b", "nav.a"], "children": [
              {"id": "nav.a", "label": "A"}, {"id": "nav.b", "label": "B"}]}
            """)
        #expect(got.map(\.id) == ["nav.b", "nav.a"])
        #expect(got.map(\.context) == [.landmarkStart, .landmarkEnd])
    }

    @Test("the outermost container decides: a list inside a landmark gives its elements nothing")
    func outermostContainerWins() throws {
        let got = try Self.contexts("""
            {"id": "region", "container": "landmark", "children": [
              {"id": "region.title", "label": "Region", "frame": [0, 0, 100, 40]},
              {"id": "inner.list", "container": "list", "children": [
                {"id": "item.1", "label": "1", "frame": [0, 50, 100, 40]},
                {"id": "item.2", "label": "2", "frame": [0, 100, 100, 40]}]}]}
            """)
        // The landmark's last unit is the nested list (a group), so nobody says "end".
        #expect(got.map(\.context) == [.landmarkStart, nil, nil])
    }

    @Test("a data table cell knows its row, column, spans and the header cells of its row and column")
    func dataTableCells() throws {
        var nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "table", "container": "dataTable", "children": [
              {"id": "h.item", "label": "Item", "cell": {"row": 0, "column": 0, "header": "column"}, "frame": [0, 0, 100, 40]},
              {"id": "h.price", "label": "Price", "cell": {"row": 0, "column": 1, "header": "column"}, "frame": [100, 0, 100, 40]},
              {"id": "banana", "label": "Banana", "cell": {"row": 1, "column": 0, "header": "row"}, "frame": [0, 50, 100, 40]},
              {"id": "banana.price", "label": "R$ 5,99", "cell": {"row": 1, "column": 1, "rowSpan": 2}, "frame": [100, 50, 100, 90]},
              {"id": "cafe", "label": "Café", "cell": {"row": 2, "column": 0, "header": "row"}, "frame": [0, 100, 100, 40]},
              {"id": "loose", "label": "Not a cell", "frame": [0, 200, 100, 40]}]}}]}
            """)
        let order = nav.readingOrder()
        let s = nav.screen
        func cell(_ id: String) -> TableCellContext? {
            guard case .tableCell(let c)? = order.context(of: s.index[id]!, in: s) else { return nil }
            return c
        }
        let hPrice = s.index["h.price"]!
        // The first cell of a row says its row; the column header directly above it is left out.
        #expect(cell("banana") == TableCellContext(rowHeaders: [], columnHeaders: [], row: 1, column: 0, rowSpan: 1, columnSpan: 1, firstInRow: true))
        // Not first in its row: no row headers, its column's header.
        #expect(cell("banana.price") == TableCellContext(rowHeaders: [], columnHeaders: [hPrice], row: 1, column: 1, rowSpan: 2, columnSpan: 1, firstInRow: false))
        // The item header is not directly above café, so café hears it; its row has no other header.
        #expect(cell("cafe")?.columnHeaders == [s.index["h.item"]!])
        #expect(cell("cafe")?.rowHeaders == [])
        // A header is not its own header.
        #expect(cell("h.item") == TableCellContext(rowHeaders: [], columnHeaders: [], row: 0, column: 0, rowSpan: 1, columnSpan: 1, firstInRow: true))
        #expect(cell("loose") == nil && order.context(of: s.index["loose"]!, in: s) == nil)
    }

    @Test("a cell's row headers are the other cells of its row that head it")
    func rowHeaders() throws {
        var nav = try Navigator(json: """
            {"format": "tandem.catalog/1", "screens": [{"id": "s", "root": {"id": "table", "container": "dataTable", "children": [
              {"id": "a", "label": "A", "cell": {"row": 0, "column": 0}, "frame": [0, 0, 100, 40]},
              {"id": "b.heads.row", "label": "B", "cell": {"row": 0, "column": 1, "header": "row"}, "frame": [100, 0, 100, 40]}]}}]}
            """)
        let order = nav.readingOrder()
        let s = nav.screen
        guard case .tableCell(let a)? = order.context(of: s.index["a"]!, in: s) else { Issue.record("a is a cell"); return }
        #expect(a.rowHeaders == [s.index["b.heads.row"]!])
    }
}
