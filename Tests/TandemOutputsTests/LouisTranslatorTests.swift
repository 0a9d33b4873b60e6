import Foundation
import Testing
import TandemPresentation
@testable import TandemOutputs

/// Braille translation through the real liblouis tables Debian ships.
@Suite("liblouis translator")
struct LouisTranslatorTests {
    static func cells(_ text: String, _ language: String, contracted: Bool = false, cursor: Int? = nil, editing: Bool = false) -> (String, Int?) {
        let t = LouisTranslator(contracted: contracted).translate(text, language: language, cursor: cursor, editing: editing)
        return (unicodeBraille(t.cells), t.cursor)
    }

    @Test("English uncontracted UEB, as Docs/formats.md#transcript's example shows it")
    func english() {
        #expect(Self.cells("Groceries hdr", "en").0 == "⠠⠛⠗⠕⠉⠑⠗⠊⠑⠎⠀⠓⠙⠗")
    }

    @Test("contracted English uses grade 2 contractions")
    func contractedEnglish() {
        #expect(Self.cells("the", "en", contracted: true).0 == "⠮")
        #expect(Self.cells("the", "en").0 == "⠞⠓⠑")
    }

    @Test("pt-BR uses the Portuguese tables (no Brazilian table exists)")
    func portuguese() {
        #expect(LouisTranslator().tableList(for: "pt-BR") == "unicode.dis,pt-pt-g1.utb")
        #expect(Self.cells("ação", "pt-BR").0 == "⠁⠯⠜⠕")
        #expect(Self.cells("ação", "pt-BR", contracted: true).0 == "⠁⠯⠼")
    }

    @Test("Russian literary braille writes Cyrillic as dots, with no space after a comma")
    func russian() {
        #expect(Self.cells("Привет, мир", "ru").0 == "⠏⠗⠊⠺⠑⠞⠂⠍⠊⠗")
        #expect(LouisTranslator(contracted: true).tableList(for: "ru") == "unicode.dis,ru-ru-g1.ctb")
    }

    @Test("the cursor lands on the cell of its character, even after a capital sign")
    func cursorAfterCapital() {
        // "Ab 0 cd": ⠠⠁⠃⠀⠼⠚⠀⠉⠙ — the capital sign shifts every later cell by one; liblouis'
        // own cursorPos drifts here, the input positions do not.
        let (cells, cursor) = Self.cells("Ab 0 cd", "en", cursor: 3)
        #expect(cells.hasPrefix("⠠⠁⠃⠀"))
        #expect(cursor == 4)
    }

    @Test("in a value being changed, the word at the cursor is computer braille")
    func computerBrailleAtCursor() {
        let plain = Self.cells("Quantity 12", "en", cursor: 9)
        let editing = Self.cells("Quantity 12", "en", cursor: 9, editing: true)
        #expect(plain.0.hasSuffix("⠼⠁⠃"), "literary numbers take a number sign")
        #expect(!editing.0.hasSuffix("⠼⠁⠃"))
        #expect(editing.0 != plain.0)
    }

    @Test("every table list the translator uses compiles")
    func tablesExist() {
        #expect(LouisTranslator().checkTables().isEmpty)
        #expect(LouisTranslator().tableReport() == nil)
    }

    @Test("a table liblouis cannot load is reported by name, with what to install, before any blank cell")
    func missingTableIsReported() {
        let tables = ["en": LouisTranslator.Tables(uncontracted: "unicode.dis,en-ueb-g1.ctb", contracted: "unicode.dis,no-such-table.ctb")]
        let translator = LouisTranslator(tables: tables)
        #expect(translator.checkTables() == ["unicode.dis,no-such-table.ctb"])
        #expect(translator.tableReport() == "liblouis cannot load the braille tables unicode.dis,no-such-table.ctb, so braille would be blank "
                + "(install liblouis-data, or check LOUIS_TABLEPATH)")
    }

    @Test("two translators used from two threads at once give the same cells and do not crash")
    func concurrentTranslators() async {
        let texts = ["Закрыть кнп", "Banana, 1 kg, R$ 5,99 btn", "Finalizando compra 40%"]
        let expected = texts.map { t in Self.cells(t, t.first == "З" ? "ru" : "pt-BR").0 }
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let translator = LouisTranslator()
                    for i in 0..<300 {
                        let k = i % texts.count
                        let got = unicodeBraille(translator.translate(texts[k], language: k == 0 ? "ru" : "pt-BR", cursor: nil, editing: false).cells)
                        if got != expected[k] { return false }
                    }
                    return true
                }
            }
            for await ok in group { #expect(ok) }
        }
    }
}
