import Foundation
import Testing

/// `tandem run` in a real pseudo-terminal (tmux), with no speech-dispatcher and no BRLTTY
/// reachable: it says so, falls back to the terminal view, and stays fully usable by keyboard.
@Suite("tandem run in a terminal", .serialized)
struct RunSessionTests {
    /// A private tmux server running `tandem run` on a copy of the grocery catalog.
    final class TmuxSession {
        let socket = "tandem-test-\(UUID().uuidString.prefix(8))"
        let dir: URL
        let catalog: URL
        let transcript: URL

        init() throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-run-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            catalog = dir.appendingPathComponent("grocery.catalog.json")
            transcript = dir.appendingPathComponent("run.jsonl")
            try FileManager.default.copyItem(at: CLITests.root.appendingPathComponent("Examples/grocery/grocery.catalog.json"), to: catalog)
            let command = [
                "env XDG_CONFIG_HOME=\(dir.path)/config SPEECHD_ADDRESS=unix_socket:\(dir.path)/no-speechd.sock SPEECHD_CMD=/bin/false",
                "BRLAPI_HOST=127.0.0.1:4091 \(CLITests.binary) run \(catalog.path) --transcript \(transcript.path);",
                "echo \"EXIT $?\"; stty -a; sleep 60",
            ].joined(separator: " ")
            try tmux(["new-session", "-d", "-x", "160", "-y", "50", command])
        }

        deinit {
            _ = try? tmux(["kill-server"])
            try? FileManager.default.removeItem(at: dir)
        }

        /// Runs tmux with posix_spawn and waitpid: Foundation's Process can miss the exit of a
        /// client whose `new-session` forked the tmux server (it stays a zombie, and the wait hangs).
        @discardableResult
        func tmux(_ args: [String]) throws -> String {
            let out = dir.appendingPathComponent("tmux-\(UUID().uuidString).out")
            defer { try? FileManager.default.removeItem(at: out) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, out.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let argv = (["/usr/bin/tmux", "-L", socket] + args).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            let rc = posix_spawn(&pid, "/usr/bin/tmux", &actions, nil, argv, environ)
            guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        }

        func screen() throws -> String { try tmux(["capture-pane", "-p", "-J", "-S", "-200"]) }

        func press(_ keys: String...) throws { try tmux(["send-keys"] + keys) }

        /// Waits until the screen contains `text` (10 s at most).
        func waitFor(_ text: String) throws -> Bool {
            for _ in 0..<100 {
                if try screen().contains(text) { return true }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return false
        }

        func transcriptLines() throws -> [String] {
            try String(contentsOf: transcript, encoding: .utf8).split(separator: "\n").map(String.init)
        }
    }

    @Test("with no daemon it says so, falls back to the terminal view, and the keyboard drives the session")
    func keyboardSessionWithoutDaemons() throws {
        let t = try TmuxSession()
        #expect(try t.waitFor("speech  » Mercado, cabeçalho"), "opening: where the user is")
        #expect(try t.waitFor("neither speech nor braille is reachable"))
        // Right arrow: next element (the header's explicit order: search, title, lists).
        try t.press("Right")
        #expect(try t.waitFor("speech  » Minhas listas, botão"))
        #expect(try t.waitFor("braille │ ⠨⠍⠊⠝⠓⠁⠎⠀⠇⠊⠎⠞⠁⠎⠀⠃⠞⠝ │ Minhas listas btn"))
        // Speech history: the previous utterance again.
        Thread.sleep(forTimeInterval: 1.5)
        try t.press("[")
        Thread.sleep(forTimeInterval: 0.5)
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
        let t = try TmuxSession()
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
        let t = try TmuxSession()
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
