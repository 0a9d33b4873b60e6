import Foundation
import Testing
import TandemTestSupport

/// Typing into a field in the real `tandem run` (a tmux terminal, no daemons): the terminal's
/// reader hands each key to the session, which types while a field is being edited.
@Suite("typing in tandem run", .serialized)
struct RunTypingTests {
    @Test("Enter on the search field starts editing; q and a type, Backspace deletes, Escape ends it; then q quits; the stepper's hint names the arrows")
    func typingInTheTerminal() throws {
        let t = try TandemRunSession()
        #expect(try t.waitFor("speech  » Mercado, cabeçalho"))
        var onField = false
        for _ in 0..<4 where !onField {
            try t.press("Right")
            Thread.sleep(forTimeInterval: 0.3)
            onField = try t.screen().contains("│ Buscar produtos bsc")
        }
        #expect(onField, "the search field is reached: \((try? t.screen()) ?? "")")
        try t.press("Enter")
        #expect(try t.waitFor("speech  » Editando Buscar produtos"))
        try t.press("q")
        #expect(try t.waitFor("speech  » q\n"))
        try t.press("a")
        #expect(try t.waitFor("speech  » qa"))
        try t.press("BSpace")
        #expect(waitUntil(timeout: .seconds(10)) { ((try? t.screen()) ?? "").components(separatedBy: "speech  » q\n").count > 2 },
                "Backspace deleted the a: \((try? t.screen()) ?? "")")
        try t.press("Escape")
        #expect(try t.waitFor("speech  » Edição concluída: Buscar produtos"))
        // Moving on: the stepper's hint names the terminal's arrows, not a swipe.
        var hint = false
        for _ in 0..<4 where !hint {
            try t.press("Right")
            hint = waitUntil(timeout: .seconds(4)) { ((try? t.screen()) ?? "").contains("Pressione Seta para cima ou Seta para baixo para ajustar o valor") }
        }
        #expect(hint, "\((try? t.screen()) ?? "")")
        try t.press("q")
        #expect(try t.waitFor("EXIT 0"))
        let commands = try t.transcriptLines().filter { $0.contains(#""type":"key""#) }
        #expect(commands.contains { $0.hasSuffix(#""command":"type q"}"#) } && commands.contains { $0.hasSuffix(#""command":"delete"}"#) },
                "\(commands)")
        let field = try t.transcriptLines().filter { $0.contains(#""text":"Buscar produtos"#) }
        #expect(!field.isEmpty)
    }
}
