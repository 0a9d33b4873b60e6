import Foundation
import Testing
import TandemTestSupport

/// `tandem run --connect` in a real pseudo-terminal (tmux), attached to a real `tandem serve`
/// running the grocery catalog as its app: the terminal's keys drive the service, and what the
/// service says comes back to the terminal's view.
@Suite("tandem run --connect in a terminal", .serialized)
struct ConnectedRunTests {
    @Test("keys go to the service as commands; its speech and braille are shown; q quits and restores the terminal")
    func keysAndView() throws {
        let serve = try ServeProcess(extra: ["--catalog", Example("grocery").catalogPath])
        let t = try TandemRunSession(connect: serve.socket)
        #expect(try t.waitFor("connected to \(serve.socket)"))
        #expect(try t.waitFor("in front: Mercado — grocery catalog, screen catalog, on header.title"))
        // Right arrow: next, as in `tandem run` (the header's explicit order: title, lists).
        try t.press("Right")
        #expect(try t.waitFor("braille │ ⠨⠍⠊⠝⠓⠁⠎⠀⠇⠊⠎⠞⠁⠎⠀⠃⠞⠝ │ Minhas listas btn"))
        #expect(try t.waitFor("speech  » Minhas listas, botão"))
        // ?: this terminal's keys, spoken by the service.
        try t.press("?")
        #expect(try t.waitFor("speech  » right: move to the next element.") && t.waitFor("ctrl-d or q: quit"))
        try t.press("q")
        #expect(try t.waitFor("EXIT 0"))
        #expect(try t.waitFor("icanon"), "stty reports the terminal's mode after the exit")
        let screen = try t.screen()
        #expect(screen.contains(" icanon ") && screen.contains(" echo "), "the terminal is restored: \(screen)")
        #expect(serve.stop() == 0)
        // The service's own transcript, complete once it has stopped.
        #expect(serve.transcriptLines.contains { $0.contains(#""ch":"event","type":"key","command":"next""#) },
                "the service received the key as a command")
    }

    @Test("when the service stops, the session ends with 69, says why, and restores the terminal")
    func serviceGoesAway() throws {
        let serve = try ServeProcess(extra: ["--catalog", Example("grocery").catalogPath])
        let t = try TandemRunSession(connect: serve.socket)
        #expect(try t.waitFor("in front: Mercado"))
        #expect(serve.stop() == 0)
        #expect(try t.waitFor("the service ended the connection"))
        #expect(try t.waitFor("EXIT 69"))
        #expect(try t.waitFor("icanon"))
        let screen = try t.screen()
        #expect(screen.contains(" icanon ") && screen.contains(" echo "), "the terminal is restored: \(screen)")
    }

    @Test("no service at the socket: exit 69 before the terminal is touched")
    func noService() throws {
        let folder = try temporaryDirectory(prefix: "tandem-connect-")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try ProcessRunner.run([try TandemBinary.path(), "run", "--connect", folder + "/control.sock"], timeout: .seconds(30))
        #expect(result.status == 69)
        #expect(result.stderr.contains("no tandem serve answers at \(folder)/control.sock"), "\(result.stderr)")
        let both = try ProcessRunner.run([try TandemBinary.path(), "run", "some.catalog.json", "--connect", folder + "/control.sock"],
                                         timeout: .seconds(30))
        #expect(both.status == 64 && both.stderr.contains("no catalog with --connect"), "\(both.stderr)")
    }
}
