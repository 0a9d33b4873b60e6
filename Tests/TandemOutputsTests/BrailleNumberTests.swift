import Foundation
import Testing
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession
import TandemTestSupport

/// Numbers on the real display: a stepper's value at the cursor keeps its number sign.
@Suite(.serialized) struct BrailleNumberTests {
    @Test func aPortugueseStepperValueAtTheCursorIsShownAsANumberNotAsLetters() throws {
        let (catalog, _) = try BrailleCatalogs.grocery()
        let braille = try BrailleFixture(cells: 40)
        defer { braille.stop() }
        let live = try braille.showSession(catalog: catalog)
        // Mercado → Minhas listas → Buscar produtos → Banana → the banana stepper.
        for _ in 0..<4 { braille.press("LNDN") }
        #expect(live.wait { $0.lastFrame?.text.hasPrefix("Quantidade de banana") == true })
        for _ in 0..<11 { braille.press("KEY_CURSOR_UP") }
        #expect(live.wait { $0.lastFrame?.text.contains("11 no carrinho") == true })
        let frame = try #require(live.lastFrame)
        let shown = braille.waitForDisplay { $0.shows(frame) }
        let cells = shown.state?.description ?? ""
        #expect(shown.ok, "the stepper on the display: \(cells)")
        // "Quantidade de banana, 11": the comma, a blank, the number sign, then a a (1 1),
        // with BRLTTY's cursor (dots 7-8) ORed onto the number sign.
        #expect(cells.contains("⠙⠑⠀⠃⠁⠝⠁⠝⠁⠂⠀⣼⠁⠁⠀⠝⠕"), "11 with its number sign: \(cells)")
    }

    /// "8h às 12h" in pt-BR: dot 5 between each number and its "h", so the display does not
    /// read "88 às 128" (issue 26, item 5; Docs/braille.md#numbers).
    @Test func aPortugueseLetterAfterDigitsIsShownAfterDotFive() throws {
        let catalog = try decodeCatalog("""
        { "format": "tandem.catalog/1", "name": "Entrega", "language": "pt-BR", "start": "s",
          "screens": [ { "id": "s", "title": "Entrega", "focus": "hours", "root": { "id": "root", "children": [
            { "id": "hours", "label": "Entrega das 8h às 12h", "traits": ["staticText"] } ] } } ] }
        """, file: "delivery.catalog.json")
        let braille = try BrailleFixture(cells: 40)
        defer { braille.stop() }
        _ = try braille.showSession(catalog: catalog)
        let shown = braille.waitForDisplay { $0.description.contains("⠼⠓") }
        let cells = shown.state?.description ?? ""
        // ⠙⠁⠎ "das", a blank, ⠼⠓ 8, ⠐⠓ h, ⠫⠎ "às", ⠼⠁⠃ 12, ⠐⠓ h.
        #expect(cells.contains("⠙⠁⠎⠀⠼⠓⠐⠓⠀⠫⠎⠀⠼⠁⠃⠐⠓"), "8h às 12h on the display: \(cells)")
    }
}
