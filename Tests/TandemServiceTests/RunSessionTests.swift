import Foundation
import Testing
import TandemTestSupport

/// `tandem run` in a real pseudo-terminal (tmux), with no speech-dispatcher and no BRLTTY
/// reachable: it says so, falls back to the terminal view, and stays fully usable by keyboard.
@Suite("tandem run in a terminal", .serialized)
struct RunSessionTests {
    @Test("with no daemon it says so, falls back to the terminal view, and the keyboard drives the session")
    func keyboardSessionWithoutDaemons() throws {
        let t = try TandemRunSession()
        #expect(try t.waitFor("speech  » Mercado, cabeçalho"), "opening: where the user is")
        #expect(try t.waitFor("neither speech nor braille is reachable"))
        // Right arrow: next element (the header's explicit order: search, title, lists).
        try t.press("Right")
        #expect(try t.waitFor("speech  » Minhas listas, botão"))
        #expect(try t.waitFor("braille │ ⠨⠍⠊⠝⠓⠁⠎⠀⠇⠊⠎⠞⠁⠎⠀⠃⠞⠝ │ Minhas listas btn"))
        // Speech history: the most recent utterance again (the view prints it a second time).
        try t.press("[")
        #expect(waitUntil(timeout: .seconds(10)) {
            ((try? t.screen()) ?? "").components(separatedBy: "speech  » Minhas listas, botão").count > 2
        }, "the review says the last utterance again")
        // A tester's mark.
        try t.press("!")
        #expect(try t.waitFor("speech  » Marca registrada"))
        try t.press("q")
        #expect(try t.waitFor("EXIT 0"))
        #expect(try t.waitFor("icanon"), "stty reports the terminal's mode after the exit")
        let screen = try t.screen()
        #expect(screen.contains(" icanon ") && screen.contains(" echo "), "the terminal is restored: \(screen)")
        let lines = try t.transcriptLines()
        #expect(lines.contains { $0.contains(#""type":"history""#) })
        #expect(lines.contains { $0.contains(#""type":"mark","screen":"catalog","id":"header.lists""#) })
        #expect(lines.contains { $0.contains(#""type":"output","output":"speech","available":"no""#) })
    }

    @Test("an edited catalog is reloaded with focus kept; a broken edit is reported and the last good one stays")
    func liveReload() throws {
        let t = try TandemRunSession()
        #expect(try t.waitFor("speech  » Mercado, cabeçalho"))
        try t.press("Right")
        #expect(try t.waitFor("Minhas listas, botão"))
        Thread.sleep(forTimeInterval: 0.5)
        var text = try String(contentsOf: t.catalog, encoding: .utf8)
        text = text.replacingOccurrences(of: #""label": "Minhas listas", "traits": ["button"]"#, with: #""label": "Listas salvas", "traits": ["button"]"#)
        try text.write(to: t.catalog, atomically: true, encoding: .utf8)
        #expect(try t.waitFor("Catálogo recarregado"))
        #expect(try t.waitFor("│ Listas salvas btn"), "focus stays on the same element, now relabelled")
        try "{ \"format\": \"tandem.catalog/1\", \"screens\": [ }".write(to: t.catalog, atomically: true, encoding: .utf8)
        #expect(try t.waitFor("Erro no catálogo: \(t.catalog.path):1:"))
        // The last good catalog is still in use.
        try t.press("Left")
        #expect(try t.waitFor("speech  » Mercado, cabeçalho\n") || t.screen().components(separatedBy: "Mercado, cabeçalho").count > 2)
        try t.press("q")
        #expect(try t.waitFor("EXIT 0"))
        let lines = try t.transcriptLines()
        #expect(lines.contains { $0.contains(#""type":"reload","screen":"catalog""#) })
        #expect(lines.contains { $0.contains(#""type":"reload-failed""#) })
    }

    @Test("the grocery story from opening to checkout, by keyboard alone")
    func groceryByKeyboard() throws {
        let t = try TandemRunSession()
        func step(_ keys: [String], expect text: String, pause: Double = 0.3) throws {
            for k in keys { try t.press(k); Thread.sleep(forTimeInterval: 0.15) }
            #expect(try t.waitFor(text), "after \(keys): \(text)")
            Thread.sleep(forTimeInterval: pause)
        }
        #expect(try t.waitFor("speech  » Mercado, cabeçalho"))
        try step(["Left"], expect: "speech  » Buscar, botão")
        try step(["Right", "Right", "Right"], expect: "speech  » Buscar produtos, campo de busca")
        try step(["m"], expect: "speech  » Banana, 1 kg, R$ 5,99, botão")
        try step(["Right"], expect: "speech  » Quantidade de banana, 0 no carrinho, ajustável")
        try step(["Up", "Up", "Up", "Up", "Up"], expect: "speech  » 5 no carrinho")
        try step(["Right", "Right", "Up"], expect: "speech  » Café adicionado ao carrinho", pause: 1.5)
        try step(["Home", "Right", "Right", "Enter"], expect: "speech  » Minhas listas, cabeçalho")
        try step(["Right", "Right"], expect: "speech  » Feira da semana, 12 itens")
        try step(["Tab", "Tab", "Tab"], expect: "speech  » Excluir")
        try step(["Enter"], expect: "speech  » Churrasco de domingo, 7 itens", pause: 0.5)
        #expect(try t.screen().contains("speech  » Lista Feira da semana excluída"))
        try step(["Escape"], expect: "braille │ ⠨⠍⠊⠝⠓⠁⠎⠀⠇⠊⠎⠞⠁⠎⠀⠃⠞⠝ │ Minhas listas btn")
        try step(["End"], expect: "speech  » Finalizar compra, botão")
        try step(["Enter"], expect: "speech  » Finalizando compra, 0%")
        #expect(try t.waitFor("speech  » Pedido confirmado, cabeçalho"))
        #expect(try t.screen().contains("speech  » 100%"))
        try t.press("q")
        #expect(try t.waitFor("EXIT 0"))
        let focus = try t.transcriptLines().filter { $0.contains(#""type":"focus""#) }
        #expect(focus.last?.contains(#""id":"confirmed.title""#) == true)
    }
}
