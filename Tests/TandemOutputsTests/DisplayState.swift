import TandemOutputs
import TandemPresentation
import TandemVocabulary

/// The virtual display's state file: its cells (the cursor ORed in as dots 7-8 by BRLTTY).
struct DisplayState: Sendable, Hashable, CustomStringConvertible {
    var cells: [Cell]
    var visual: String
    var connected: Bool
    /// How many cell updates the display has received.
    var updates: Int

    init?(stateFile text: String) {
        var cells: [Cell]?
        var visual = "", connected = false, updates = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let (key, value) = (line.prefix { $0 != " " }, line.drop { $0 != " " }.dropFirst())
            switch key {
            case "braille": cells = value.unicodeScalars.map { Cell(truncatingIfNeeded: $0.value - 0x2800) }
            case "visual": visual = String(value)
            case "connected": connected = value == "yes"
            case "updates": updates = Int(value) ?? 0
            default: break
            }
        }
        guard let cells else { return nil }
        self.cells = cells; self.visual = visual; self.connected = connected; self.updates = updates
    }

    /// What a display of `columns` cells shows for `frame`: its window padded with blanks, and
    /// dots 7-8 added on the cursor cell.
    static func cells(showing frame: BrailleFrame, columns: Int) -> [Cell] {
        cells(showing: frame.cells, cursor: frame.cursor, columns: columns)
    }

    /// What a display of `columns` cells shows for `cells` with the cursor on `cursor`.
    static func cells(showing cells: [Cell], cursor: Int?, columns: Int) -> [Cell] {
        var out = Array(cells.prefix(columns))
        out += Array(repeating: 0, count: max(0, columns - out.count))
        if let c = cursor, c >= 0, c < columns { out[c] |= 0xC0 }
        return out
    }

    func shows(_ frame: BrailleFrame) -> Bool { cells == Self.cells(showing: frame, columns: cells.count) }

    var description: String { unicodeBraille(cells) }
}
