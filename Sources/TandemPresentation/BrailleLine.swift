import TandemVocabulary
/// A line for the braille display: its text, the translated cells and where the cursor is.
public struct BrailleLine: Sendable, Hashable {
    public var text: String
    public var cells: [Cell]
    /// Cell index of the cursor in `cells`, if shown.
    public var cursor: Int?

    public init(text: String, cells: [Cell], cursor: Int?) {
        self.text = text; self.cells = cells; self.cursor = cursor
    }

    /// Splits the cells into windows of `width` cells, as BRLTTY pans: a window ends after the
    /// last blank that fits when a word would be cut, and the next starts past the blanks.
    public func windows(width: Int) -> [Range<Int>] {
        let width = max(1, width)
        guard !cells.isEmpty else { return [0..<0] }
        var out: [Range<Int>] = []
        var start = 0
        while start < cells.count {
            var end = min(start + width, cells.count)
            if end < cells.count, cells[end] != 0, let blank = cells[start..<end].lastIndex(of: 0), blank > start {
                end = blank
            }
            out.append(start..<end)
            start = end
            while start < cells.count, cells[start] == 0 { start += 1 }
        }
        return out
    }

    /// The index of the window holding the cursor (the first window when there is none).
    public func windowIndex(containingCursor windows: [Range<Int>]) -> Int {
        guard let c = cursor else { return 0 }
        return windows.firstIndex { $0.contains(c) } ?? windows.firstIndex { $0.upperBound == c } ?? 0
    }
}

/// Turns text into braille cells. The real one is liblouis (in TandemOutputs); tests may use
/// a fake. Must be safe to call from any thread.
public protocol BrailleTranslator: Sendable {
    /// Translates `text` for `language`; `cursor` is a character offset in `text`, returned as
    /// a cell offset. `editing`: the word at the cursor is shown in computer braille.
    func translate(_ text: String, language: String, cursor: Int?, editing: Bool) -> (cells: [Cell], cursor: Int?)
    /// The character a braille keyboard's chord types (`dots`: bit 0 is dot 1 … bit 7 dot 8),
    /// read in `language`'s computer braille; nil when the chord types none.
    func character(forDots dots: Int, language: String) -> Character?
}

extension BrailleTranslator {
    /// A translator that reads no chords (a test's fake).
    public func character(forDots dots: Int, language: String) -> Character? { nil }
}
