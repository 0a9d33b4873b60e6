import Foundation
import TandemVocabulary
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

    @Test("in contracted braille, the word being edited at the cursor is computer braille (uncontracted)")
    func computerBrailleAtCursor() {
        let plain = Self.cells("Name the", "en", contracted: true, cursor: 5)
        let editing = Self.cells("Name the", "en", contracted: true, cursor: 5, editing: true)
        #expect(plain.0.hasSuffix("⠀⠮"), "grade 2 writes \"the\" as one cell")
        #expect(editing.0.hasSuffix("⠀⠞⠓⠑"), "at the cursor it is spelt out")
    }

    /// Numbers at the start, after a space, after punctuation and inside a value at the cursor,
    /// in every language and grade: each keeps its number sign, so "11" never reads "aa".
    @Test("numbers keep the number sign everywhere, also inside a value at the cursor",
          arguments: ["en", "pt-BR", "ru"], [false, true])
    func numbersKeepTheNumberSign(language: String, contracted: Bool) {
        let cases: [(text: String, cursor: Int?)] = [
            ("11 itens", nil), ("11 itens", 0),
            ("Feira 11 itens", nil),
            ("(11)", nil), ("a,11", nil), ("R$ 11,50", nil),
            ("Quantidade de banana, 11 no carrinho ajs", 22),
            ("Quantity, 11 in cart adj", 10),
            ("Qty 11", 4), ("Qty 11", 5),
        ]
        for c in cases {
            let (cells, cursor) = Self.cells(c.text, language, contracted: contracted, cursor: c.cursor, editing: c.cursor != nil)
            #expect(cells.contains("⠼⠁⠁"), "\(language)\(contracted ? " contracted" : ""): \"\(c.text)\" → \(cells)")
            if let at = c.cursor, at == c.text.firstIndex(of: "1").map({ c.text.distance(from: c.text.startIndex, to: $0) }) {
                let signAt = Array(cells).firstIndex(of: "⠼")
                #expect(cursor == signAt, "the cursor on a number sits on its number sign: \(c.text)")
            }
        }
    }

    /// A letter a–j straight after digits has the cell of a digit: without a sign between them
    /// "8h" reads "88" (Docs/braille.md#numbers). Each language's own sign: UEB's grade 1
    /// indicator ⠰, Portuguese dot 5 (Tandem's amendment of `pt-pt`), Russian dot 5 before a
    /// Cyrillic letter and the Latin-letter sign ⠠ before a Latin one.
    @Test("a letter a–j straight after digits is never read as one more digit",
          arguments: ["en", "pt-BR", "ru"], [false, true])
    func letterAfterDigitsIsNotADigit(language: String, contracted: Bool) {
        let letters = language == "ru" ? ["abcdefghij", "абцдефгхиж"] : ["abcdefghij"]
        for alphabet in letters {
            for (letter, digit) in zip(alphabet, "1234567890") {
                let asLetter = Self.cells("8\(letter)", language, contracted: contracted).0
                let asDigit = Self.cells("8\(digit)", language, contracted: contracted).0
                #expect(asLetter != asDigit, "\(language)\(contracted ? " contracted" : ""): \"8\(letter)\" reads as \"8\(digit)\" (\(asLetter))")
            }
        }
    }

    @Test("the sign that ends a number before a letter, as each language writes it", arguments: [false, true])
    func signBeforeALetterAfterDigits(contracted: Bool) {
        #expect(Self.cells("8h/12h", "en", contracted: contracted).0 == "⠼⠓⠰⠓⠸⠌⠼⠁⠃⠰⠓")
        #expect(Self.cells("8h/12h", "pt-BR", contracted: contracted).0 == "⠼⠓⠐⠓⠠⠂⠼⠁⠃⠐⠓")
        #expect(Self.cells("8h/12h", "ru", contracted: contracted).0 == "⠼⠓⠠⠓⠠⠌⠼⠁⠃⠠⠓")
        #expect(Self.cells("дом 8а", "ru", contracted: contracted).0.hasSuffix("⠀⠼⠓⠐⠁"))
        #expect(Self.cells("Entrega prevista para amanhã, das 8h às 12h", "pt-BR", contracted: contracted).0
                    .hasSuffix("⠀⠼⠓⠐⠓⠀⠫⠎⠀⠼⠁⠃⠐⠓"))
        // liblouis upstream's own test of this rule for Portuguese (pull request 2069).
        #expect(Self.cells("1a, 2z, 3B, c4, D5, e6f, 7g8.", "pt-BR", contracted: contracted).0
                    == "⠼⠁⠐⠁⠂⠀⠼⠃⠵⠂⠀⠼⠉⠨⠃⠂⠀⠉⠼⠙⠂⠀⠨⠙⠼⠑⠂⠀⠑⠼⠋⠐⠋⠂⠀⠼⠛⠐⠛⠼⠓⠄")
        // Only a letter after a digit changes: times, thousands, prices and capitals as before
        // (liblouis' numeric mode, the way upstream did it, would double the number sign after
        // `:` and repeat it after the thousands point with 3.24's Portuguese table).
        #expect(Self.cells("12:30", "pt-BR", contracted: contracted).0 == "⠼⠁⠃⠒⠼⠉⠚")
        #expect(Self.cells("10.000", "pt-BR", contracted: contracted).0 == "⠼⠁⠚⠄⠚⠚⠚")
        #expect(Self.cells("R$ 11,50", "pt-BR", contracted: contracted).0 == "⠨⠗⠰⠀⠼⠁⠁⠂⠑⠚")
        #expect(Self.cells("8 h", "pt-BR", contracted: contracted).0 == "⠼⠓⠀⠓")
        #expect(Self.cells("8H", "pt-BR", contracted: contracted).0 == "⠼⠓⠨⠓")
    }

    @Test("the Portuguese amendment is taken by liblouis for both grades, once per process")
    func portugueseAmendmentIsTaken() {
        let t = LouisTranslator.defaultTables["pt"]!
        #expect(t.amendments == LouisAmendments.portugueseLetterAfterDigits)
        #expect(t.amendments.count == 10)
        #expect(LouisTranslator().checkTables().isEmpty)
        #expect(LouisTranslator(contracted: true).checkTables().isEmpty)
        // Asking again adds nothing twice: the same cells.
        let once = Self.cells("8h", "pt-BR").0
        _ = LouisTranslator().checkTables()
        #expect(Self.cells("8h", "pt-BR").0 == once)
    }

    @Test("an amendment liblouis refuses is reported with its table list")
    func refusedAmendmentIsReported() {
        // Lists no other test uses (liblouis' cache is process-wide): American EBAE.
        let tables = ["en": LouisTranslator.Tables(uncontracted: "unicode.dis,en-us-g1.ctb", contracted: "unicode.dis,en-us-g2.ctb",
                                                   amendments: ["no-such-opcode x 1"])]
        #expect(LouisTranslator(tables: tables).checkTables() == ["unicode.dis,en-us-g1.ctb", "unicode.dis,en-us-g2.ctb"])
    }

    @Test("the price in a label and the value after it stay two numbers (a comma and blank between them)")
    func priceAndValueStayApart() {
        #expect(Self.cells("Bread $5.99, 0 in cart adj", "en", cursor: 13, editing: true).0.contains("⠼⠑⠲⠊⠊⠂⠀⠼⠚"))
        #expect(Self.cells("Pão R$ 5,99, 0 no carrinho ajs", "pt-BR", cursor: 13, editing: true).0.contains("⠼⠑⠂⠊⠊⠂⠀⠼⠚"))
        // Russian literary braille writes no blank after a comma; the number sign still starts the value.
        #expect(Self.cells("Хлеб 5,99, 0 в корзине", "ru", cursor: 11, editing: true).0.contains("⠂⠼⠚"))
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
