import TandemModel

extension ReadingOrder {
    /// What VoiceOver says about a reachable element's place in its container, if anything
    /// (Docs/formats.md#containers). The outermost container that gives context decides.
    ///
    /// Worked out when asked, from the container's scope (its elements are contiguous in the
    /// order): so a tree update repairs nothing here, and a step costs the container's size.
    public func context(of element: Int, in screen: Screen) -> ElementContext? {
        guard let here = position(of: element) else { return nil }
        let top = modalRoot ?? 0
        var container: Int?
        var p = element == top ? nil : screen.elements[element].parent
        while let x = p {
            if screen.elements[x].givesContext, scopes[x] != nil { container = x }
            if x == top { break }
            p = screen.elements[x].parent
        }
        guard let c = container, let scope = scopes[c], let first = scope.first, let start = position(of: first) else { return nil }
        let inner = elements[start..<(start + scope.count)]
        let e = screen.elements[c]
        if e.traits.contains(.tabBar) {
            // Every element inside a tab bar is a tab, counted in reading order.
            return .tab(index: here - start + 1, count: scope.count)
        }
        switch e.container {
        case .segmentedControl?:
            return .segment(index: here - start + 1, count: scope.count)
        case .list?, .landmark?:
            // Only the container's own elements are marked, not a nested group's.
            guard isDirect(element, in: c, screen) else { return nil }
            let landmark = e.container == .landmark
            if here == start { return landmark ? .landmarkStart : .listStart }
            if here == start + scope.count - 1 { return landmark ? .landmarkEnd : .listEnd }
            return nil
        case .dataTable?:
            return cellContext(element, among: inner, screen)
        case .semanticGroup?, nil:
            return nil
        }
    }

    /// Whether `element` is one of `c`'s own units: no group or other scope between them.
    private func isDirect(_ element: Int, in c: Int, _ screen: Screen) -> Bool {
        var p = screen.elements[element].parent
        while let x = p, x != c {
            if scopes[x] != nil { return false }
            p = screen.elements[x].parent
        }
        return true
    }

    /// A data table's cell: the elements inside with a `cell`. A cell's row headers are the
    /// cells of its row that head their row, said only for the first cell of a row; its column
    /// headers are the cells of its column that head their column, except the one directly
    /// above the first cell of a row (as cashapp/AccessibilitySnapshot describes VoiceOver).
    private func cellContext(_ i: Int, among inner: ArraySlice<Int>, _ screen: Screen) -> ElementContext? {
        guard let cell = screen.elements[i].cell else { return nil }
        var firstColumn = cell.column
        var above: Int?
        var rowHeaders: [Int] = []
        var columnHeaders: [Int] = []
        for j in inner {
            guard let other = screen.elements[j].cell else { continue }
            if other.row == cell.row { firstColumn = min(firstColumn, other.column) }
            if other.row == cell.row - 1, other.column == cell.column, above == nil { above = j }
            switch other.header {
            case .row? where other.row == cell.row && j != i: rowHeaders.append(j)
            case .column? where other.column == cell.column && j != i: columnHeaders.append(j)
            default: break
            }
        }
        let firstInRow = firstColumn == cell.column
        return .tableCell(TableCellContext(rowHeaders: firstInRow ? rowHeaders : [],
                                           columnHeaders: columnHeaders.filter { !firstInRow || $0 != above },
                                           row: cell.row, column: cell.column,
                                           rowSpan: cell.rowSpan, columnSpan: cell.columnSpan, firstInRow: firstInRow))
    }
}
