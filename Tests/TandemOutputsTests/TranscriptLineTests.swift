import TandemVocabulary
import Testing
import TandemOutputs

@Suite("TranscriptLine: JSON text written the same on every run")
struct TranscriptLineTests {
    @Test("text with nothing to escape is copied whole: braille cells, Cyrillic, accents")
    func plainText() {
        #expect(TranscriptLine.quote("⠠⠛⠗⠕⠉⠑⠗⠊⠑⠎") == "\"⠠⠛⠗⠕⠉⠑⠗⠊⠑⠎\"")
        #expect(TranscriptLine.quote("Пицца, заголовок") == "\"Пицца, заголовок\"")
        #expect(TranscriptLine.quote("Café torrado, botão") == "\"Café torrado, botão\"")
        #expect(TranscriptLine.quote("") == "\"\"")
    }

    @Test("quotes, backslashes, control characters and the two line separators are escaped")
    func escapes() {
        #expect(TranscriptLine.quote("say \"hi\"") == #""say \"hi\"""#)
        #expect(TranscriptLine.quote(#"a\b"#) == #""a\\b""#)
        #expect(TranscriptLine.quote("a\nb\tc\rd") == #""a\nb\tc\rd""#)
        #expect(TranscriptLine.quote("bell\u{7}del\u{7F}") == #""bell\u0007del\u007f""#)
        #expect(TranscriptLine.quote("x\u{2028}y\u{2029}z") == #""x\u2028y\u2029z""#)
        // The braille pattern U+2828 (E2 A0 A8) ends with the same byte as U+2028 (E2 80 A8).
        #expect(TranscriptLine.quote("⠨\u{2028}") == #""⠨\u2028""#)
    }
}
