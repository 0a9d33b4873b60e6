/// `accessibilityContainerType`: what kind of container VoiceOver announces an element's
/// elements as being in (Tandem extension field `container`).
public enum ContainerType: String, Sendable, Hashable, CaseIterable {
    /// Its first element says "list start", its last "list end".
    case list
    /// Its first element says "landmark", its last "end".
    case landmark
    /// Its cells (elements with `cell`) say their row and column, after their headers.
    case dataTable
    /// Keeps its elements together in the reading order, as `group` does.
    case semanticGroup
    /// Tandem's stand-in for a `UISegmentedControl`, which VoiceOver recognises by its class:
    /// each segment says its position ("2 of 3") after its traits.
    case segmentedControl
}

/// A data table cell's place (`accessibilityRowRange` / `accessibilityColumnRange`):
/// 0-based row and column, how many rows and columns it spans, and whether it is a header of
/// its row or its column (what the table's `accessibilityHeaderElements(forRow:)` and
/// `(forColumn:)` return).
public struct TableCell: Sendable, Hashable {
    public enum Header: String, Sendable, Hashable, CaseIterable {
        case row, column
    }

    public var row: Int
    public var column: Int
    public var rowSpan: Int
    public var columnSpan: Int
    public var header: Header?

    public init(row: Int, column: Int, rowSpan: Int = 1, columnSpan: Int = 1, header: Header? = nil) {
        self.row = row; self.column = column; self.rowSpan = rowSpan; self.columnSpan = columnSpan; self.header = header
    }
}

/// A `TableCell` behind a pointer, compared by value.
final class TableCellBox: Sendable, Hashable {
    let cell: TableCell
    init(_ cell: TableCell) { self.cell = cell }
    static func == (a: TableCellBox, b: TableCellBox) -> Bool { a.cell == b.cell }
    func hash(into hasher: inout Hasher) { hasher.combine(cell) }
}
