import Foundation
import TandemVocabulary
import Testing
import TandemPresentation
import TandemTestSupport
@testable import TandemOutputs

/// `tandem run` as a blind tester uses it: in a real terminal (tmux), speaking through a private
/// speech-dispatcher and showing on a private BRLTTY's virtual display, driven by the keyboard
/// and by the display's own keys at once.
@Suite("tandem run with speech-dispatcher and BRLTTY", .serialized)
struct RunWithDaemonsTests {
    /// The cells a 40-cell display shows for `text` with the cursor on its first cell.
    static func cells(_ text: String, language: String = "pt-BR") -> [Cell] {
        let t = LouisTranslator().translate(text, language: language, cursor: 0, editing: false)
        return DisplayState.cells(showing: t.cells, cursor: 0, columns: 40)
    }

    @Test("keyboard and display keys drive one session; speech-dispatcher says it and the display shows it")
    func keyboardAndDisplayKeys() throws {
        let speech = try SpeechFixture()
        defer { speech.stop() }
        let braille = try BrailleFixture(cells: 40)
        defer { braille.stop() }
        let t = try TandemRunSession(environment: ["SPEECHD_ADDRESS": speech.address, "BRLAPI_HOST": braille.host, "BRLAPI_AUTH": "none"],
                                     arguments: ["--quiet-screen"])
        func heard(_ text: String) -> Bool {
            !speech.waitForCapture(timeout: .seconds(10)) { $0.started.contains(text) }.filter { $0.text == text }.isEmpty
        }
        func shown(_ text: String) -> Bool {
            braille.waitForDisplay(timeout: .seconds(10)) { $0.cells == Self.cells(text) }.ok
        }

        // Opening: where the user is, spoken and shown.
        #expect(heard("Mercado, cabeçalho"))
        #expect(shown("Mercado cab"))
        // The keyboard: right arrow to the next element (the header's order: search, title, lists).
        try t.press("Right")
        #expect(heard("Minhas listas, botão"))
        #expect(shown("Minhas listas btn"))
        // The display's own key: line down is next.
        Thread.sleep(forTimeInterval: 0.5)
        braille.press("LNDN")
        #expect(heard("Buscar produtos, campo de busca"))
        #expect(shown("Buscar produtos bsc"))
        // Speech history: the first review is the most recent utterance, the next one before it.
        // Once it has been said to the end (what the daemon reports, not a pause of our own).
        let latest = "Buscar produtos, campo de busca"
        #expect(speech.waitForCapture(timeout: .seconds(10)) { $0.finished.contains(latest) }.finished.contains(latest))
        try t.press("[")
        #expect(speech.waitForCapture(timeout: .seconds(10)) { $0.started.filter { $0 == latest }.count >= 2 }
            .started.filter { $0 == latest }.count >= 2)
        try t.press("q")
        // Wait for stty's report after the exit line, not just the exit line.
        #expect(try t.waitFor("EXIT 0"))
        #expect(try t.waitFor("icanon"))
        let screen = try t.screen()
        #expect(screen.contains("EXIT 0"))
        #expect(screen.contains(" icanon ") && screen.contains(" echo "), "the terminal is restored")
        let lines = try t.transcriptLines()
        // The review stepped to the newest utterance, the one heard a second time above.
        let reviews = lines.filter { $0.contains(#""type":"history""#) }
        #expect(reviews.count == 1 && reviews.first?.contains(#""type":"history","index":"-1","text":"\#(latest)""#) == true,
                "\(reviews)")
        #expect(lines.contains { $0.contains(#""type":"key","command":"next""#) })
    }
}
