import TandemVocabulary
import Testing
@testable import TandemPresentation

/// Braille lines cut into windows as BRLTTY pans them.
@Suite("braille windows")
struct BrailleLineTests {
    /// Cells for text where letters are non-blank and spaces are blank (dot masks don't matter).
    static func line(_ text: String, cursor: Int? = nil) -> BrailleLine {
        BrailleLine(text: text, cells: text.map { $0 == " " ? 0 : 1 }, cursor: cursor)
    }

    @Test("a line that fits is one window")
    func fits() {
        #expect(Self.line("Banana btn").windows(width: 40) == [0..<10])
    }

    @Test("a window ends at the last blank that fits, and the next starts after the blanks")
    func wordWrap() {
        //          0         1         2
        //          0123456789012345678901234
        let l = Self.line("Quantity of bananas  2 items")
        #expect(l.windows(width: 12) == [0..<11, 12..<22, 23..<28])
    }

    @Test("a word longer than the display is cut at the width")
    func longWord() {
        #expect(Self.line("Supercalifragilistic").windows(width: 8) == [0..<8, 8..<16, 16..<20])
    }

    @Test("the window shown first is the one with the cursor")
    func cursorWindow() {
        let l = Self.line("Quantity of bananas 2 items", cursor: 20)
        let w = l.windows(width: 12)
        #expect(w[l.windowIndex(containingCursor: w)].contains(20))
        #expect(Self.line("abc").windowIndex(containingCursor: [0..<3]) == 0)
    }

    @Test("an empty line is one empty window")
    func empty() {
        #expect(Self.line("").windows(width: 40) == [0..<0])
    }

    @Test("cells print as Unicode braille, dot n as bit n-1")
    func unicode() {
        #expect(unicodeBraille([0, 1, 0b11, 0xFF]) == "⠀⠁⠃⣿")
    }
}
