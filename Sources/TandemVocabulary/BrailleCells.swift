/// One braille cell as a dot mask: bit n-1 is dot n (dots 1–8).
public typealias Cell = UInt8

/// Cells as Unicode braille (U+2800 + dot mask), the form printed everywhere.
public func unicodeBraille(_ cells: some Sequence<Cell>) -> String {
    String(String.UnicodeScalarView(cells.map { Unicode.Scalar(0x2800 + UInt32($0))! }))
}
