import TandemPresentation
import TandemVocabulary

/// What one BrlAPI write puts on a display of `columns` cells: exactly `columns` cells (the
/// window's cells, cut or padded with blanks), and the cursor BrlAPI's way (1-based, 0 = none).
///
/// Always the display's own width: a frame cut for another width (the session has not yet
/// heard the display's size) is cut again here, because a region wider than the display makes
/// BRLTTY reject the write.
struct BrailleWindowWrite: Sendable, Hashable {
    var cells: [Cell]
    /// 1-based cell of the cursor, 0 when there is none (`BRLAPI_CURSOR_OFF`).
    var cursor: Int32

    init(frame: BrailleFrame, columns: Int) {
        let shown = frame.cells.prefix(columns)
        cells = Array(shown) + Array(repeating: 0, count: max(0, columns - shown.count))
        if let c = frame.cursor, c >= 0, c < columns {
            cursor = Int32(c + 1)
        } else {
            cursor = 0
        }
    }

    /// The cells as Unicode braille, sent as the write's text with charset UTF-8: BRLTTY shows
    /// U+2800+dots as exactly those dots whatever its text table, and never needs the process
    /// locale (a C locale would make `writeText` with non-ASCII text fail later).
    var text: String { unicodeBraille(cells) }
}
