/// What VoiceOver adds about an element's place in the container it is in (the context
/// cashapp/AccessibilitySnapshot's parser computes): its position among a tab bar's tabs, the
/// start or end of a list or landmark, or a data table cell's row, column and headers.
///
/// The outermost container that gives context decides: an element inside a list that is inside
/// a landmark gets the landmark's context or none, never the list's.
public enum ElementContext: Sendable, Hashable {
    /// An element inside a container with the `tabBar` trait: tab `index` (from 1) of `count`.
    case tab(index: Int, count: Int)
    /// An element of a segmented control: segment `index` (from 1) of `count`; still a button.
    case segment(index: Int, count: Int)
    /// The first or last element of a `list` container.
    case listStart, listEnd
    /// The first or last element of a `landmark` container.
    case landmarkStart, landmarkEnd
    /// A cell of a `dataTable` container.
    case tableCell(TableCellContext)
}

/// A data table cell as VoiceOver describes it: its headers, then its place.
public struct TableCellContext: Sendable, Hashable {
    /// Header cells of the cell's row (said only for the first cell of a row), element indices.
    public var rowHeaders: [Int]
    /// Header cells of the cell's column, element indices.
    public var columnHeaders: [Int]
    /// 0-based, as in the catalog.
    public var row: Int
    public var column: Int
    public var rowSpan: Int
    public var columnSpan: Int
    /// No cell of the table is before it in its row: VoiceOver then says the row number.
    public var firstInRow: Bool

    public init(rowHeaders: [Int], columnHeaders: [Int], row: Int, column: Int, rowSpan: Int, columnSpan: Int, firstInRow: Bool) {
        self.rowHeaders = rowHeaders; self.columnHeaders = columnHeaders; self.row = row; self.column = column
        self.rowSpan = rowSpan; self.columnSpan = columnSpan; self.firstInRow = firstInRow
    }
}
