import Foundation
import Testing
import TandemPresentation
@testable import TandemOutputs

/// `tandem run` as a blind tester uses it: in a real terminal (tmux), speaking through a private
/// speech-dispatcher and showing on a private BRLTTY's virtual display, driven by the keyboard
/// and by the display's own keys at once.
@Suite("tandem run with speech-dispatcher and BRLTTY", .serialized)
struct RunWithDaemonsTests {
    static var binary: String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [beside, beside.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("tandem").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return BrailleHarness.packageRoot + "/.build/debug/tandem"
    }

    /// The cells a 40-cell display shows for `text` with the cursor on its first cell.
    static func cells(_ text: String, language: String = "pt-BR") -> [Cell] {
        let t = LouisTranslator().translate(text, language: language, cursor: 0, editing: false)
        var out = t.cells + Array(repeating: 0, count: max(0, 40 - t.cells.count))
        out[0] |= 0xC0
        return Array(out.prefix(40))
    }

    @Test("keyboard and display keys drive one session; speech-dispatcher says it and the display shows it")
    func keyboardAndDisplayKeys() throws {
        let speech = try SpeechDaemon()
        defer { speech.stop() }
        let braille = try BrailleHarness(cells: 40)
        defer { braille.stop() }
        let dir = NSTemporaryDirectory() + "tandem-run-daemons-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let transcript = dir + "/run.jsonl"
        let socket = "tandem-daemons-\(UUID().uuidString.prefix(8))"
        func tmux(_ args: [String]) -> String {
            let out = dir + "/tmux.out"
            _ = BrailleHarness.spawnAndWait(["/usr/bin/tmux", "-L", socket] + args,
                                            environment: ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }, output: out)
            return (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        }
        defer { _ = tmux(["kill-server"]) }
        let command = "env XDG_CONFIG_HOME=\(dir)/config SPEECHD_ADDRESS=\(speech.address) SPEECHD_CMD=/bin/false "
            + "BRLAPI_HOST=\(braille.host) BRLAPI_AUTH=none \(Self.binary) run "
            + "\(BrailleHarness.packageRoot)/Examples/grocery/grocery.catalog.json --transcript \(transcript) --quiet-screen; "
            + "echo \"EXIT $?\"; stty -a; sleep 60"
        _ = tmux(["new-session", "-d", "-x", "160", "-y", "50", command])
        func heard(_ text: String) -> Bool {
            !speech.waitForCapture(timeout: 10) { $0.started.contains(text) }.filter { $0.text == text }.isEmpty
        }
        func shown(_ text: String) -> Bool {
            braille.waitForDisplay(timeout: .seconds(10)) { $0.cells == Self.cells(text) }.ok
        }

        // Opening: where the user is, spoken and shown.
        #expect(heard("Mercado, cabeçalho"))
        #expect(shown("Mercado cab"))
        // The keyboard: right arrow to the next element (the header's order: search, title, lists).
        _ = tmux(["send-keys", "Right"])
        #expect(heard("Minhas listas, botão"))
        #expect(shown("Minhas listas btn"))
        // The display's own key: line down is next.
        Thread.sleep(forTimeInterval: 0.5)
        braille.press("LNDN")
        #expect(heard("Buscar produtos, campo de busca"))
        #expect(shown("Buscar produtos bsc"))
        // Speech history: the first review is the most recent utterance, the next one before it.
        Thread.sleep(forTimeInterval: 3.5)
        _ = tmux(["send-keys", "["])
        let latest = "Buscar produtos, campo de busca"
        #expect(speech.waitForCapture(timeout: 10) { $0.started.filter { $0 == latest }.count >= 2 }
            .started.filter { $0 == latest }.count >= 2)
        _ = tmux(["send-keys", "q"])
        var screen = ""
        for _ in 0..<100 {
            screen = tmux(["capture-pane", "-p", "-J"])
            // Wait for stty's report after the exit line, not just the exit line.
            if screen.contains("EXIT 0") && screen.contains("icanon") { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(screen.contains("EXIT 0"))
        #expect(screen.contains(" icanon ") && screen.contains(" echo "), "the terminal is restored")
        let lines = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.contains(#""type":"history""#) })
        #expect(lines.contains { $0.contains(#""type":"key","command":"next""#) })
    }
}
