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

    @Test("typing into a service's text field: Enter starts editing, q and ? type, Backspace deletes, Escape ends it, and q quits again")
    func typing() throws {
        let serve = try ServeProcess(extra: ["--catalog", PackageRoot.path("Tests/Fixtures/cli/form.catalog.json")])
        let t = try TandemRunSession(connect: serve.socket)
        #expect(try t.waitFor("in front: Sign in, screen signin, on title"))
        try t.press("Right")
        #expect(try t.waitFor("speech  » Email, text field"))
        // the command said it came from a keyboard: the hint names the key, not a gesture
        #expect(try t.waitFor("speech  » Press Enter to edit"), "\((try? t.screen()) ?? "")")
        try t.press("Enter")
        #expect(try t.waitFor("speech  » Editing Email"))
        try t.press("q")
        #expect(try t.waitFor("speech  » q"), "\((try? t.screen()) ?? "")")
        try t.press("?")
        #expect(try t.waitFor("speech  » q?"))
        try t.press("BSpace")
        try t.press("a")
        #expect(try t.waitFor("speech  » qa"))
        try t.press("Escape")
        #expect(try t.waitFor("speech  » Done editing Email"))
        try t.press("q")
        #expect(try t.waitFor("EXIT 0"))
        #expect(serve.stop() == 0)
        let commands = serve.transcriptLines.compactMap { $0.firstMatch(of: /"type":"key","command":"([^"]*)"/)?.1 }.map(String.init)
        #expect(commands == ["next", "activate", "type q", "type ?", "delete", "type a", "escape"], "\(commands)")
    }

    @Test("when the service stops, the session ends with 69, says why, and restores the terminal")
    func serviceGoesAway() throws {
        let serve = try ServeProcess(extra: ["--catalog", Example("grocery").catalogPath])
        let t = try TandemRunSession(connect: serve.socket)
        #expect(try t.waitFor("in front: Mercado"))
        #expect(serve.stop() == 0)
        #expect(try t.waitFor("the service closed the connection"))
        #expect(try t.waitFor("EXIT 69"))
        #expect(try t.waitFor("icanon"))
        let screen = try t.screen()
        #expect(screen.contains(" icanon ") && screen.contains(" echo "), "the terminal is restored: \(screen)")
    }

    @Test("scripts/client-demo.sh: a service, the example app and this terminal in one command; q stops all three",
          arguments: ["swift", "python"])
    func clientDemo(_ app: String) throws {
        let t = try TandemRunSession(environment: ["TANDEM_BUILD_DIR": TandemBinary.buildDirectory.path],
                                     arguments: [app], program: PackageRoot.path("scripts/client-demo.sh"))
        #expect(try t.waitFor("in front: Groceries, screen list, on title"))
        // title → Banana's cell → its stepper; up: increment, answered by the app.
        try t.press("Right")
        #expect(try t.waitFor("speech  » Banana, 1 kg, $1.99"))
        try t.press("Right")
        #expect(try t.waitFor("speech  » Banana quantity, 0 in cart, adjustable"))
        try t.press("Up")
        #expect(try t.waitFor("speech  » 1 in cart"))
        try t.press("q")
        #expect(try t.waitFor("EXIT 0"))
        let screen = try t.screen()
        #expect(screen.contains("<- action increment banana.stepper") && screen.contains("-> set banana.stepper 1 in cart"),
                "the script shows what the app did: \(screen)")
        // The script's private socket, as the session named it: its folder is gone, and so is
        // every process that was given it (the service and the app).
        let socket = try #require(screen.firstMatch(of: /connected to (\S+) as c/)?.1).description
        #expect(!FileManager.default.fileExists(atPath: (socket as NSString).deletingLastPathComponent))
        #expect(Self.processes(mentioning: socket).isEmpty, "\(Self.processes(mentioning: socket))")
    }

    /// The command lines of running processes that contain `text`.
    static func processes(mentioning text: String) -> [String] {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { Int($0) != nil } ?? []
        return pids.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return line.contains(text) ? line : nil
        }
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
