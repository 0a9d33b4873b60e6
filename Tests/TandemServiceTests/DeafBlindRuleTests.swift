import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPresentation
@testable import TandemService
@testable import TandemSession
import TandemTestSupport

/// Issue 26's rules, headless and exact (Docs/braille.md#rules); `BrailleDeafBlindTests` walks
/// the same on a real BRLTTY.
@Suite("braille-only: the rest of the way")
struct DeafBlindRuleTests {
    /// A `braille-only` session on `sample` after `commands`, one a second.
    static func session(_ sample: String, _ commands: [Command], sink: RecordingSink, width: Int? = nil) throws -> Session {
        var profile = try ReplayHarness.profile("braille-only")
        if let width { profile.brailleWidth = width }
        var s = Session(catalog: try Example(sample).catalog(), profile: profile, sink: sink, timing: .virtual,
                        makeTranslator: louisTranslator(for:))
        s.start(at: 0)
        s.settle()
        for c in commands { press(c, &s) }
        return s
    }

    static func press(_ c: Command, _ s: inout Session) {
        s.advance(to: s.now + 1000)
        s.perform(c, at: s.now)
        s.settle()
    }

    // MARK: 1. panning at a message's ends

    @Test("past either end of a message the focus line shows as it was; focus does not move")
    func panPastMessage() throws {
        let sink = RecordingSink()
        var s = try Self.session("grocery", [.next, .next, .magicTap, .next, .next], sink: sink)
        let focus = try #require(sink.lastBrailleFrame)
        #expect(focus.text == "Café torrado, 500 g, R$ 18,90 btn")
        let id = s.navigator.focusedElement?.id
        for forward in [true, false] {
            Self.press(.help, &s)
            let help = try #require(sink.lastBrailleFrame)
            #expect(help.flash && help.windowCount > 1)
            if forward { for _ in 1..<help.windowCount { Self.press(.panRight, &s) } }
            Self.press(forward ? .panRight : .panLeft, &s)
            #expect(sink.lastBrailleFrame?.text == focus.text && sink.lastBrailleFrame?.flash == false)
            #expect(sink.lastBrailleFrame?.window == focus.window)
            #expect(s.navigator.focusedElement?.id == id, "focus stayed")
        }
    }

    // MARK: 2. reconnecting

    @Test("a display back after an outage: the connected message with what it missed; the next key only shows the focus line")
    func reconnect() throws {
        let sink = RecordingSink()
        var s = try Self.session("grocery", [.next], sink: sink)
        let focus = try #require(sink.lastBrailleFrame)
        s.reportOutput(OutputStatus(.braille, available: true, message: "up"), at: s.now)
        s.reportOutput(OutputStatus(.braille, available: false, message: "gone"), at: s.now + 100)
        s.post(.announcement(text: "Oferta do dia", priority: .default, delay: 0), at: s.now + 200)
        s.settle()
        s.reportOutput(OutputStatus(.braille, available: true, message: "back"), at: s.now + 300)
        s.settle()
        #expect(sink.lastBrailleFrame?.text == "Linha braille conectada. Oferta do dia")
        Self.press(.next, &s)
        #expect(sink.lastBrailleFrame?.text == focus.text, "the first key shows where focus is")
        #expect(s.navigator.focusedElement?.id == "header.lists", "and does not move it")
        #expect(s.spokenHistory.map(\.text).contains("Oferta do dia"))
        #expect(s.spokenHistory.last?.text == "Linha braille conectada")
    }

    @Test("a message is cut again when the display's width changes: at a word for 20 cells, whole again at 40")
    func widthRecut() throws {
        let sink = RecordingSink()
        var s = try Self.session("grocery", [], sink: sink)
        s.reportOutput(OutputStatus(.braille, available: false, message: "gone"), at: 100)
        s.reportOutput(OutputStatus(.braille, available: true, message: "back"), at: 200)
        s.settle()
        #expect(sink.lastBrailleFrame?.windowCount == 1)
        s.setDisplayWidth(20)
        s.settle()
        let cut = try #require(sink.lastBrailleFrame)
        #expect(cut.flash && cut.windowCount == 2 && cut.cells.count <= 20)
        let words = louisTranslator(for: s.profile).translate("Linha braille", language: "pt-BR", cursor: nil, editing: false).cells
        #expect(cut.cells == words, "\"Linha braille\", not cut in a word")
        Self.press(.panRight, &s)
        #expect(sink.lastBrailleFrame?.flash == true && sink.lastBrailleFrame?.window == 1)
        s.setDisplayWidth(40)
        s.settle()
        #expect(sink.lastBrailleFrame?.flash == true && sink.lastBrailleFrame?.windowCount == 1)
        #expect(sink.lastBrailleFrame?.text == "Linha braille conectada")
    }

    // MARK: 3. the cursor after a value change

    @Test("the cursor goes on the first word that changed", arguments: [
        ("Designer at Acme btn acts", "Designer at Acme, Saved btn acts", 18),
        ("Состав, томаты, томатный соус", "Состав, томатный соус", 8),
        ("Wi-Fi swbtn on", "Wi-Fi swbtn off", 12),
        ("Items, 3 in cart", "Items, 12 in cart", 7),
        ("Done, a b", "Done, a", 6),
        ("Same", "Same", 0),
    ])
    func changeStart(old: String, new: String, at: Int) {
        #expect(BrailleText.changeStart(from: old, to: new) == at)
    }

    @Test("a custom action's new value: the window with the change, the cursor on it")
    func customActionCursor() throws {
        let sink = RecordingSink()
        _ = try Self.session("pizza", [.next, .activate, .next, .next, .actionNext, .activate], sink: sink)
        let f = try #require(sink.lastBrailleFrame)
        #expect(f.text == "Состав, пикантная пепперони, увеличенная порция моцареллы, томатный соус дейст")
        #expect(f.window == 1 && f.cursor != nil, "window \(f.window + 1) of \(f.windowCount), cursor \(String(describing: f.cursor))")
    }

    // MARK: 4. hints

    @Test("a hint follows the line on a pan, is its own history entry, and the opening help hint names the display's key")
    func hints() throws {
        let sink = RecordingSink()
        var s = try Self.session("grocery", [.next], sink: sink)
        #expect(sink.lastBrailleFrame?.text == "Minhas listas btn")
        Self.press(.panRight, &s)
        #expect(sink.lastBrailleFrame?.text == "Abre suas listas de compras" && sink.lastBrailleFrame?.flash == false)
        Self.press(.panLeft, &s)
        #expect(sink.lastBrailleFrame?.text == "Minhas listas btn")
        #expect(s.spokenHistory.map(\.text).suffix(2) == ["Minhas listas, botão", "Abre suas listas de compras"])

        let opened = RecordingSink()
        var t = Session(catalog: try Example("grocery").catalog(), profile: try ReplayHarness.profile("braille-only"), sink: opened,
                        timing: .virtual, makeTranslator: louisTranslator(for:))
        t.start(at: 0, helpHint: true)
        t.settle()
        Self.press(.panRight, &t)
        let hint = try #require(opened.lastBrailleFrame?.text)
        #expect(hint.contains("HELP"), "\(hint)")
        #expect(t.spokenHistory.last?.text == hint)
    }

    // MARK: 7, 8, 10

    @Test("repeat and spell show on the display; the rotor's own activation is named")
    func repeatSpellActivate() throws {
        let sink = RecordingSink()
        var s = try Self.session("grocery", [], sink: sink)
        Self.press(.repeat, &s)
        #expect(sink.lastBrailleFrame?.text == "Mercado, cabeçalho" && sink.lastBrailleFrame?.flash == true)
        Self.press(.spell, &s)
        #expect(sink.lastBrailleFrame?.text == "M e r c a d o")

        let lists = RecordingSink()
        _ = try Self.session("grocery", [.next, .activate, .next, .next, .actionNext, .actionNext, .actionNext, .actionNext], sink: lists)
        #expect(lists.lastBrailleFrame?.text == "Ativar")
    }

    @Test("help joins keys in the session's language; with no speech the history holds progress")
    func helpWordsAndProgressHistory() throws {
        #expect(KeyMap.default.brailleHelp(Phrases.forLanguage("pt-BR")).contains("CSRTRK ou SAY_LINE"))
        #expect(KeyMap.default.brailleHelp(Phrases.forLanguage("ru")).contains("CSRTRK или SAY_LINE"))
        #expect(!KeyMap.default.brailleHelp(Phrases.forLanguage("ru")).contains(" or "))

        let sink = RecordingSink()
        var s = try Self.session("grocery", [.last, .activate], sink: sink)
        s.advance(to: s.now + 10_000)
        let texts = s.spokenHistory.map(\.text)
        #expect(texts.contains("40%") && texts.contains("100%"), "\(texts)")
    }

    // MARK: 6. read-all at a reader's pace

    @Test("read-all with no speech: each window at least 2 s, a long line's every window, panning past the end reads on")
    func readAllPace() throws {
        let sink = RecordingSink()
        var s = try Self.session("albums", [.readAll], sink: sink)
        let start = s.now
        s.advance(to: start + 1900)
        #expect(sink.lastBrailleFrame?.text == "Albums hdr", "still the first line after 1.9 s")
        s.advance(to: start + 120_000)
        let frames = sink.brailleFrames.filter { !$0.flash }
        let purple = frames.filter { $0.text.hasPrefix("Purple Rain") }.map(\.window)
        #expect(purple == [0, 1], "both windows of the long line: \(purple)")
        let times = sink.records.compactMap { r -> Int? in if case .braille(let f) = r.record, !f.flash, r.time >= start { r.time } else { nil } }
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 2000 }, "\(times)")

        // The reader's own pan moves on at once and reading goes on.
        let panned = RecordingSink()
        var p = try Self.session("albums", [.readAll], sink: panned)
        Self.press(.panRight, &p)
        let after = panned.lastBrailleFrame?.text
        #expect(after == "Recently Added hdr")
        p.advance(to: p.now + 10_000)
        #expect(panned.lastBrailleFrame?.text != after, "read-all went on after the pan")

        // Slower: the rate key keeps reading and each step takes longer.
        let slow = RecordingSink()
        var q = try Self.session("albums", [.readAll], sink: slow)
        for _ in 0..<5 { Self.press(.rateDown, &q) }
        #expect(q.profile.rate == -50)
        #expect(q.brailleReadAllDwell(characters: 40) == 40 * 120 * 5 / 2)
    }
}

extension DeafBlindRuleTests {
    @Test("a boundary key pressed again changes the display: the message is counted")
    func repeatedBoundary() throws {
        let sink = RecordingSink()
        var s = try Self.session("grocery", [.previous, .previous], sink: sink)
        #expect(sink.lastBrailleFrame?.text == "Início")
        // The key over a message dismisses it and acts: "Início" again, counted.
        Self.press(.previous, &s)
        #expect(sink.lastBrailleFrame?.text == "Início (2)")
        Self.press(.previous, &s)
        #expect(sink.lastBrailleFrame?.text == "Início (3)")
        Self.press(.next, &s)
        #expect(sink.lastBrailleFrame?.flash == false)
        Self.press(.previous, &s)
        Self.press(.previous, &s)
        #expect(sink.lastBrailleFrame?.text == "Início", "a new run of the same message starts again")
    }
}

extension DeafBlindRuleTests {
    @Test("repeat, spell, mark and the rate have keys a display without a braille keyboard sends")
    func keysWithoutAKeyboard() {
        let map = KeyMap.default
        #expect(map.command(forBrailleCommand: "CSRTRK", argument: nil) == .repeat)
        #expect(map.command(forBrailleCommand: "DESCCHAR", argument: 3) == .spell)
        #expect(map.command(forBrailleCommand: "CLIP_NEW", argument: 3) == .mark)
        #expect(map.command(forBrailleCommand: "SAY_SLOWER", argument: nil) == .rateDown)
        #expect(map.command(forBrailleCommand: "SAY_FASTER", argument: nil) == .rateUp)
    }

    // MARK: 10. the screen-change sound's cue

    /// The records of the last instant: what one key brought.
    static func lastInstant(_ sink: RecordingSink) -> [Record] {
        guard let t = sink.records.last?.time else { return [] }
        return sink.records.filter { $0.time == t }.map(\.record)
    }

    @Test("a new screen's first line starts with the screen word, with the sound; the next key acts at once",
          arguments: [("albums", [Command.nextHeading, .next, .activate], "scr: Abbey Road hdr", "Albums bkbtn", Command.previous),
                      ("pizza", [Command.next, .activate], "экр: Пепперони фреш заг", "Пищевая ценность кнп", Command.next)])
    func newScreenCue(sample: String, keys: [Command], marked: String, afterNextKey: String, nextKey: Command) throws {
        let sink = RecordingSink()
        var s = try Self.session(sample, keys, sink: sink)
        let instant = Self.lastInstant(sink)
        #expect(instant.contains { if case .sound(.screen) = $0 { true } else { false } }, "the sound speech users hear")
        let frame = try #require(sink.lastBrailleFrame)
        #expect(frame.text == marked)
        #expect(!frame.flash, "the focus line itself, not a message: nothing to dismiss")
        let word = String(marked.prefix { $0 != " " }) + " "
        let wordCells = LouisTranslator().translate(word, language: s.navigator.language, cursor: nil, editing: false).cells.count
        #expect(frame.cursor == wordCells, "the cursor on the element's first cell, after the screen word")
        Self.press(nextKey, &s)
        #expect(sink.lastBrailleFrame?.text == afterNextKey, "the first key after a new screen moves focus: no key is spent on the cue")
        Self.press(nextKey == .next ? .previous : .next, &s)
        #expect(sink.lastBrailleFrame?.text == String(marked.dropFirst(word.count)), "back on the element: its own line, no screen word")
    }

    @Test("going back is a screen change too; focus moves and value changes without one show no screen word")
    func backAndNoScreenChange() throws {
        let sink = RecordingSink()
        var s = try Self.session("albums", [.nextHeading, .next, .activate, .escape], sink: sink)
        #expect(sink.lastBrailleFrame?.text == "scr: Abbey Road, The Beatles btn")
        Self.press(.next, &s)
        let lines = sink.brailleFrames.map(\.text)
        #expect(lines.filter { $0.hasPrefix("scr: ") } == ["scr: Abbey Road hdr", "scr: Abbey Road, The Beatles btn"],
                "only the two screen changes are marked")
        // Grocery: a stepper's value changes and a modal sheet (no new screen) are never marked.
        let grocery = RecordingSink()
        _ = try Self.session("grocery", [.next, .next, .next, .next, .increment, .increment], sink: grocery)
        #expect(!grocery.brailleFrames.contains { $0.text.hasPrefix("tela: ") })
        #expect(grocery.lastBrailleFrame?.text == "Quantidade de banana, 2 no carrinho ajs")
    }
}
