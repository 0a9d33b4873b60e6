import TandemModel

extension ReadingOrderBuilder {
    /// Records what container `c` tells its elements. Runs after the containers inside `c` did,
    /// and replaces what they said: the outermost container decides.
    mutating func assignContexts(_ c: Int, _ units: [ReadingUnit]) {
        let e = screen.elements[c]
        let inner = units.flatMap(\.elements)
        for i in inner { contexts[i] = nil }
        if e.traits.contains(.tabBar) {
            // Every element inside a tab bar is a tab, counted in reading order.
            for (k, i) in inner.enumerated() { contexts[i] = .tab(index: k + 1, count: inner.count) }
            return
        }
        switch e.container {
        case .segmentedControl?:
            for (k, i) in inner.enumerated() { contexts[i] = .segment(index: k + 1, count: inner.count) }
        case .list?, .landmark?:
            // Only the container's own elements are marked, not a nested group's.
            let landmark = e.container == .landmark
            if let first = units.first, first.single {
                contexts[first.elements[0]] = landmark ? .landmarkStart : .listStart
            }
            if units.count > 1, let last = units.last, last.single {
                contexts[last.elements[0]] = landmark ? .landmarkEnd : .listEnd
            }
        case .dataTable?:
            assignCells(inner)
        case .semanticGroup?, nil:
            break
        }
    }

    /// A data table's cells: the elements inside with a `cell`. A cell's row headers are the
    /// cells of its row that head their row, said only for the first cell of a row; its column
    /// headers are the cells of its column that head their column, except the one directly
    /// above the first cell of a row (as cashapp/AccessibilitySnapshot describes VoiceOver).
    mutating func assignCells(_ inner: [Int]) {
        let els = screen.elements
        var at: [Int: [Int: Int]] = [:]
        var firstColumn: [Int: Int] = [:]
        var rowHeaders: [Int: [Int]] = [:]
        var columnHeaders: [Int: [Int]] = [:]
        for i in inner {
            guard let cell = els[i].cell else { continue }
            if at[cell.row]?[cell.column] == nil { at[cell.row, default: [:]][cell.column] = i }
            firstColumn[cell.row] = min(firstColumn[cell.row] ?? cell.column, cell.column)
            switch cell.header {
            case .row?: rowHeaders[cell.row, default: []].append(i)
            case .column?: columnHeaders[cell.column, default: []].append(i)
            case nil: break
            }
        }
        for i in inner {
            guard let cell = els[i].cell else { continue }
            let firstInRow = firstColumn[cell.row] == cell.column
            let rows = firstInRow ? (rowHeaders[cell.row] ?? []).filter { $0 != i } : []
            let above = firstInRow ? at[cell.row - 1]?[cell.column] : nil
            let columns = (columnHeaders[cell.column] ?? []).filter { $0 != i && $0 != above }
            contexts[i] = .tableCell(TableCellContext(rowHeaders: rows, columnHeaders: columns, row: cell.row, column: cell.column,
                                                      rowSpan: cell.rowSpan, columnSpan: cell.columnSpan, firstInRow: firstInRow))
        }
    }
}
