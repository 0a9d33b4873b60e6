import Testing
@testable import TandemOutputs

@Suite struct SafeSpeechTextTests {
    @Test func plainTextIsUnchanged() {
        #expect(SafeSpeechText.clean("Banana, 1 kg, R$ 5,99, botão") == "Banana, 1 kg, R$ 5,99, botão")
        #expect(SafeSpeechText.clean("Банан 2 кг") == "Банан 2 кг")
        #expect(SafeSpeechText.clean("<b>AT&T</b> > \"q\" 'a' $HOME `x` \\") == "<b>AT&T</b> > \"q\" 'a' $HOME `x` \\")
    }

    @Test func controlCharactersAreRemoved() {
        #expect(SafeSpeechText.clean("a\u{0}b\u{7}c\u{1B}[31md\u{7F}e\u{85}f\u{9B}g") == "abc[31mde fg")
        let nonCharacters = [0xFFFE, 0xFFFF, 0xFDD0, 0x1FFFF].map { String(Character(Unicode.Scalar($0)!)) }.joined()
        #expect(SafeSpeechText.clean("\u{FEFF}Start" + nonCharacters + "\u{FFF9}") == "Start")
        #expect(SafeSpeechText.clean("unit\u{1F}separator") == "unitseparator")
    }

    @Test func lineBreaksBecomeOneLine() {
        #expect(SafeSpeechText.clean("Title\nSubtitle") == "Title Subtitle")
        #expect(SafeSpeechText.clean("a\r\nb\rc\u{2028}d\u{2029}e\u{0B}f\u{0C}g") == "a b c d e f g")
        #expect(SafeSpeechText.clean("tab\there") == "tab here")
    }

    @Test func blankLinesCollapse() {
        #expect(SafeSpeechText.clean("para1\n\npara2") == "para1 para2")
        #expect(SafeSpeechText.clean("x\n \ny") == "x y")
        #expect(SafeSpeechText.clean("\r\n\r\n  lead and trail \n\n") == "lead and trail")
        #expect(SafeSpeechText.clean("\n\n\t \u{3000}\n") == "")
    }

    @Test func aLoneDotLineCannotEndTheMessage() {
        let cleaned = SafeSpeechText.clean("a\n.\nb")
        #expect(cleaned == "a . b")
        #expect(!cleaned.contains("\n"))
        // The wire form doubles a leading dot and ends with the only lone-dot line.
        #expect(SSIPWire.speakData(".") == Array("..\r\n.\r\n".utf8))
        #expect(SSIPWire.speakData(".NET") == Array("..NET\r\n.\r\n".utf8))
        #expect(SSIPWire.speakData("a\r\n.\r\nb") == Array("a  .  b\r\n.\r\n".utf8))
    }

    @Test func noBreakSpacesStay() {
        #expect(SafeSpeechText.clean("R$\u{A0}5,99 10\u{202F}%") == "R$\u{A0}5,99 10\u{202F}%")
    }

    @Test func hugeTextIsCutAtASpace() {
        let word = "palavra "
        let text = String(repeating: word, count: 2000)          // 16000 characters
        let cleaned = SafeSpeechText.clean(text)
        #expect(cleaned.count <= SafeSpeechText.maxCharacters)
        #expect(cleaned.count > SafeSpeechText.maxCharacters - 10)
        #expect(cleaned.hasSuffix("palavra"))
    }

    @Test func hugeTextWithoutSpacesIsCutHard() {
        let cleaned = SafeSpeechText.clean(String(repeating: "x", count: 10_000))
        #expect(cleaned.count == SafeSpeechText.maxCharacters)
    }

    @Test func byteLimitHoldsForWideScripts() {
        let cleaned = SafeSpeechText.clean(String(repeating: "語", count: 6000), maxCharacters: 10_000)
        #expect(cleaned.utf8.count <= SafeSpeechText.maxUTF8Bytes)
        #expect(cleaned.utf8.count > SafeSpeechText.maxUTF8Bytes - 3)
    }

    @Test func combiningMarkFloodIsTrimmed() {
        let zalgo = "a" + String(repeating: "\u{0301}", count: 10_000) + " b"
        let cleaned = SafeSpeechText.clean(zalgo)
        #expect(cleaned.unicodeScalars.count == SafeSpeechText.maxScalarsPerCharacter + 2)
        #expect(cleaned.hasSuffix(" b"))
        // Real emoji sequences survive whole.
        let family = "👨🏻‍👩🏻‍👧🏻‍👦🏻 🏴󠁧󠁢󠁥󠁮󠁧󠁿"
        #expect(SafeSpeechText.clean(family) == family)
    }

    @Test func junkLabelBecomesHarmless() {
        let junk = "\u{0}\r\n.\r\n\u{1B}]0;pwned\u{7}\n\n..\n\u{FEFF}SPEAK\r\n.\r\nQUIT\r\n" + String(repeating: "\u{200B}", count: 3)
        let cleaned = SafeSpeechText.clean(junk)
        #expect(!cleaned.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(cleaned == ". ]0;pwned .. SPEAK . QUIT")
    }

    /// The one-pass check for text already clean must agree with the full rewrite on any
    /// text: random mixes of letters, accents, combining marks, prepended marks, emoji
    /// joiners, spaces of every kind and control characters, with small limits so the cuts
    /// are reached too.
    @Test func theShortcutForCleanTextAgreesWithTheRewrite() {
        let pieces: [String] = ["a", "B", "7", ",", "$", " ", " ", "  ", "\u{A0}", "\t", "\n", "\r\n", "\u{2028}",
                                "ã", "ç", "\u{301}", "\u{308}", "\u{600}", "\u{200D}", "👍", "\u{1F3FD}", "🇧🇷",
                                "\u{6DD}", "\u{110BD}", "\u{0}", "\u{1B}", "\u{7F}", "\u{85}", "\u{FEFF}", "\u{200B}", "\u{FFFE}", "ж", "漢", "."]
        var state: UInt64 = 42
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var shortcuts = 0
        for round in 0..<20_000 {
            var text = ""
            for _ in 0..<(next() % 30) {
                // now and then a long run of one mark, to pass the scalars-per-character limit
                text += next() % 40 == 0 ? String(repeating: "\u{301}", count: 10 + next() % 10) : pieces[next() % pieces.count]
            }
            let (chars, bytes) = round % 2 == 0 ? (SafeSpeechText.maxCharacters, SafeSpeechText.maxUTF8Bytes) : (12, 30)
            let full = SafeSpeechText.rewritten(text, maxCharacters: chars, maxUTF8Bytes: bytes)
            #expect(SafeSpeechText.clean(text, maxCharacters: chars, maxUTF8Bytes: bytes) == full, "\(Array(text.unicodeScalars))")
            if SafeSpeechText.isClean(text, maxCharacters: chars, maxUTF8Bytes: bytes) {
                shortcuts += 1
                #expect(full == text, "\(Array(text.unicodeScalars)) is not clean")
            }
        }
        // The shortcut is taken for a good part of the texts, or it would test nothing.
        #expect(shortcuts > 500, "\(shortcuts)")
    }
}
