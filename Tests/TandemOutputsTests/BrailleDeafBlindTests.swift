import Foundation
import Testing
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession
import TandemTestSupport

/// Issue 26 on a real BRLTTY with its virtual display, by the display's keys alone and the
/// `braille-only` profile (messages stay until a key): panning past a message's ends, coming back
/// from an outage, the cursor on a value a custom action changed, hints, repeat and spell, the
/// rotor's own activation and the mark (Docs/braille.md#rules). Each test failed before its rule.
@Suite(.serialized) struct BrailleDeafBlindTests {
    /// The cell BRLTTY's cursor (dots 7-8) is on, if any: liblouis' six-dot tables never set
    /// them, so the cursor is the one cell that has both.
    static func cursorCell(_ d: DisplayState) -> Int? { d.cells.firstIndex { $0 & 0xC0 == 0xC0 } }

    /// The cell `offset` (a character offset in `text`) is translated to.
    static func cell(of offset: Int, in text: String, story: BrailleStory) -> Int? {
        louisTranslator(for: story.profile).translate(text, language: story.language, cursor: offset, editing: false).cursor
    }

    /// Whether a display of `columns` cells shows window `window` of `text` cut for that width
    /// (BRLTTY's cursor allowed on one cell).
    static func shows(_ d: DisplayState, _ text: String, window: Int, columns: Int, story: BrailleStory) -> Bool {
        let cells = louisTranslator(for: story.profile).translate(text, language: story.language, cursor: nil, editing: false).cells
        let windows = BrailleLine(text: text, cells: cells, cursor: nil).windows(width: columns)
        guard d.cells.count == columns, windows.indices.contains(window) else { return false }
        let want = DisplayState.cells(showing: Array(cells[windows[window]]), cursor: nil, columns: columns)
        return zip(d.cells, want).filter { $0 != $1 }.allSatisfy { $0 == $1 | 0xC0 } && zip(d.cells, want).filter { $0 != $1 }.count <= 1
    }

    @Test func panningPastAMessagesEndShowsTheFocusLineAsItWas() throws {
        let story = try BrailleStory(sample: "grocery")
        defer { story.stop() }
        story.shows("Mercado cab")
        story.press("LNDN", shows: "Minhas listas btn")
        story.press("LNDN", shows: "Buscar produtos bsc")
        story.press("KEY_HOME", shows: "Banana, 1 kg, R$ 5,99 btn")
        story.press("LNDN", shows: "Quantidade de banana, 0 no carrinho ajs", window: 0)
        let coffee = "Café torrado, 500 g, R$ 18,90 btn"
        story.press("LNDN", shows: coffee)
        // Help, panned to its last window; one pan more: the coffee line again, not the stepper.
        let help = KeyMap.default.brailleHelp(Phrases.forLanguage("pt-BR"))
        let windows = story.windows(of: help).count
        #expect(windows > 3, "help has \(windows) windows")
        story.press("HELP", shows: help, window: 0)
        for w in 1..<windows { story.press("FWINRT", shows: help, window: w) }
        story.press("FWINRT", shows: coffee)
        // Back from a message's first window: the same.
        story.press("HELP", shows: help, window: 0)
        story.press("FWINLT", shows: coffee)
        // A stepper's message ("1 no carrinho. Café adicionado ao carrinho", two windows): past
        // its end, the stepper's own line with its new value, not the checkout button after it.
        story.press("LNDN", shows: "Quantidade de café, 0 no carrinho ajs", window: 0)
        let message = "1 no carrinho. Café adicionado ao carrinho"
        #expect(story.windows(of: message).count == 2)
        story.press("KEY_CURSOR_UP", shows: message, window: 0)
        story.press("FWINRT", shows: message, window: 1)
        story.press("FWINRT", shows: "Quantidade de café, 1 no carrinho ajs", window: 0)
        // The next pan pans the line itself: past its end (one window), its hint, which for a
        // display user names the display's keys for increment and decrement (KEY_CURSOR_UP and
        // KEY_CURSOR_DOWN), not VoiceOver's swipe (Docs/keymaps.md#hints).
        story.press("FWINRT", shows: "Pressione Seta para cima ou Seta para baixo para ajustar o valor", window: 0)
    }

    @Test func panningBackPastAMessageInRussianKeepsFocus() throws {
        let story = try BrailleStory(sample: "pizza")
        defer { story.stop() }
        story.shows("Пицца заг")
        story.press("LNDN", shows: "Пепперони фреш, от 449 ₽ кнп")
        let help = KeyMap.default.brailleHelp(Phrases.forLanguage("ru"))
        story.press("HELP", shows: help, window: 0)
        story.press("FWINLT", shows: "Пепперони фреш, от 449 ₽ кнп")
        story.press("FWINLT", shows: "Пицца заг")
    }

    @Test func anOutageKeepsThePlaceAndShowsTheMessagesItMissed() throws {
        let story = try BrailleStory(sample: "grocery")
        defer { story.stop() }
        story.shows("Mercado cab")
        story.press("BOT", shows: "Finalizar compra btn")
        story.press("ROUTE 3", shows: "Finalizando compra, 0%")
        story.braille.killBRLTTY()
        #expect(story.live.wait(timeout: .seconds(5)) { $0.events.statuses.last?.available == false }, "the outage is reported")
        // The checkout ends while the display is away: its last step, over the new screen.
        #expect(story.live.wait(timeout: .seconds(10)) { s in
            s.recorded.contains { if case .braille(let f) = $0 { f.text == "Finalizando compra, 100%" } else { false } }
        }, "the checkout ended while BRLTTY was away")
        #expect(story.braille.startAgain(), "BRLTTY restarts")
        // Back: the message that it is connected, with what it missed.
        story.shows("Linha braille conectada. Finalizando compra, 100%", window: 0, within: .seconds(8))
        // The first key only ends the message: where focus is, not moved.
        story.press("LNDN", shows: "tela: Pedido confirmado cab")
        story.press("LNDN", shows: "Entrega prevista para amanhã, das 8h às 12h", window: 0)
        // The missed step is in the history, after the screen's title and before the reconnect.
        for _ in 0..<6 { story.press("PRPROMPT") }
        #expect(story.live.wait { $0.recorded.filter { if case .event(let e) = $0 { e.type == "history" } else { false } }.count == 6 })
        // Each step's flash is written to the display after its history event: wait for the sixth too.
        func flashes() -> [String] {
            story.live.recorded.compactMap { r -> String? in
                if case .braille(let f) = r, f.flash, f.text.contains(" de ") { f.text } else { nil }
            }
        }
        #expect(story.live.wait { _ in flashes().count == 6 }, "\(flashes())")
        let reviewed = flashes()
        #expect(reviewed.count == 6)
        #expect(reviewed.contains { $0.hasSuffix(": Linha braille conectada") }, "\(reviewed)")
        #expect(reviewed.contains { $0.hasSuffix(": 100%") }, "\(reviewed)")
    }

    @Test func aDisplayBackAtTwentyCellsCutsTheMessageAtAWordAndPansIt() throws {
        let story = try BrailleStory(sample: "grocery")
        defer { story.stop() }
        story.shows("Mercado cab")
        story.braille.unplugDisplay()
        #expect(story.live.wait(timeout: .seconds(5)) { $0.events.statuses.last?.available == false }, "the display going away is reported")
        #expect(story.braille.startAgain(environment: ["BRLTTY_CELLS": "20"]), "a 20-cell display is plugged in")
        #expect(story.live.wait(timeout: .seconds(15)) { $0.events.all.contains(.displaySize(columns: 20)) })
        let message = "Linha braille conectada"
        #expect(story.braille.waitForDisplay(timeout: .seconds(8)) { Self.shows($0, message, window: 0, columns: 20, story: story) }.ok,
                "the message's first 20-cell window: \(story.braille.display()?.description ?? "nothing")")
        story.press("FWINRT")
        #expect(story.braille.waitForDisplay { Self.shows($0, message, window: 1, columns: 20, story: story) }.ok,
                "its second window: \(story.braille.display()?.description ?? "nothing")")
        story.press("FWINRT")
        #expect(story.braille.waitForDisplay { Self.shows($0, "Mercado cab", window: 0, columns: 20, story: story) }.ok,
                "past its end, the focus line: \(story.braille.display()?.description ?? "nothing")")
    }

    @Test func aValueChangedByACustomActionIsShownWithTheCursorOnTheChange() throws {
        let story = try BrailleStory(sample: "pizza")
        defer { story.stop() }
        story.shows("Пицца заг")
        story.press("LNDN", shows: "Пепперони фреш, от 449 ₽ кнп")
        story.press("KEY_ENTER", shows: "экр: Пепперони фреш заг")
        story.press("LNDN", shows: "Пищевая ценность кнп")
        let before = "Состав, пикантная пепперони, увеличенная порция моцареллы, томаты, томатный соус дейст"
        story.press("LNDN", shows: before, window: 0)
        story.press("KEY_TAB", shows: "Убрать томаты")
        // The tomatoes are gone: the window where they were, the cursor on the word now there.
        let after = "Состав, пикантная пепперони, увеличенная порция моцареллы, томатный соус дейст"
        story.press("KEY_ENTER", shows: after, window: 1)
        let range = try #require(after.range(of: "томатный"))
        let translated = louisTranslator(for: story.profile).translate(after, language: story.language,
                                                                        cursor: after.distance(from: after.startIndex, to: range.lowerBound), editing: false)
        let cell = try #require(translated.cursor)
        let windows = BrailleLine(text: after, cells: translated.cells, cursor: cell).windows(width: story.braille.cells)
        let seen = story.braille.waitForDisplay { Self.cursorCell($0) == cell - windows[1].lowerBound }
        #expect(seen.ok, "the cursor on \"томатный\" (cell \(cell) of the line): \(seen.state?.description ?? "nothing")")
    }

    @Test func jobsSaveShowsTheCursorOnSaved() throws {
        let story = try BrailleStory(sample: "jobs")
        defer { story.stop() }
        story.shows("Jobs hdr")
        story.press("NXDIFLN", shows: "Recommended for you hdr")
        story.press("LNDN", shows: "6 open positions")
        story.press("LNDN", shows: "Designer at Acme btn acts")
        story.press("KEY_TAB", shows: "Save")
        let line = "Designer at Acme, Saved btn acts"
        story.press("KEY_ENTER", shows: line)
        let cell = try #require(Self.cell(of: 18, in: line, story: story))
        let seen = story.braille.waitForDisplay { Self.cursorCell($0) == cell }
        #expect(seen.ok, "the cursor on \"Saved\" (cell \(cell)): \(seen.state?.description ?? "nothing")")
    }

    @Test func hintsFollowTheLineOnAPanAndTheToolsShowWhatTheySay() throws {
        let story = try BrailleStory(sample: "grocery")
        defer { story.stop() }
        story.shows("Mercado cab")
        story.press("LNDN", shows: "Minhas listas btn")
        // The hint after the line, as VoiceOver's braille shows it; back, the line; on, the next element.
        story.press("FWINRT", shows: "Abre suas listas de compras")
        story.press("FWINLT", shows: "Minhas listas btn")
        story.press("FWINRT", shows: "Abre suas listas de compras")
        story.press("FWINRT", shows: "Buscar produtos bsc")
        // Repeat shows the last thing told again; spell shows the label letter by letter.
        story.press("CSRTRK", shows: "Buscar produtos, campo de busca")
        // The same message again over itself is counted, so the display changes with the key
        // (Docs/braille.md): checked for the count, since the first message is still there.
        story.press("SAY_LINE", shows: "Buscar produtos, campo de busca (2)")
        story.press("KEY_END", shows: "B u s c a r  p r o d u t o s", window: 0)
        // The rotor's own activation is named on the display, as speech names it.
        story.press("LNUP", shows: "Minhas listas btn")
        story.press("KEY_ENTER", shows: "Minhas listas cab")
        story.press("LNDN", shows: "Fechar btn")
        story.press("LNDN", shows: "Feira da semana, 12 itens ações")
        story.press("KEY_TAB", shows: "Selecionar")
        story.press("KEY_TAB", shows: "Editar")
        story.press("KEY_TAB", shows: "Excluir")
        story.press("KEY_TAB", shows: "Ativar")
        // The mark from the display: a routing key with CLIP_NEW's modifier (SETMARK where the driver knows it).
        story.press("CLIP_NEW 3", shows: "Marca registrada")
        #expect(story.live.finish(whenQuietWithin: 10_000))
        #expect(story.live.recorded.contains { if case .event(let e) = $0 { e.type == "mark" } else { false } }, "the mark is in the transcript")
    }

    /// Item 10: the screen-change sound's cue. The new screen's first line starts with the screen
    /// word, the cursor on the element; it is the focus line, so the next key acts at once.
    @Test func aNewScreenIsMarkedOnItsFirstLineAndCostsNoKey() throws {
        let story = try BrailleStory(sample: "albums")
        defer { story.stop() }
        story.shows("Albums hdr")
        story.press("NXDIFLN", shows: "Recently Added hdr")
        story.press("LNDN", shows: "Abbey Road, The Beatles btn")
        story.press("KEY_ENTER", shows: "scr: Abbey Road hdr")
        let marked = story.braille.waitForDisplay { Self.cursorCell($0) == Self.cell(of: 5, in: "scr: Abbey Road hdr", story: story) }
        #expect(marked.ok, "BRLTTY's cursor on the title's first cell, after the screen word: \(marked.state?.description ?? "")")
        // The first key after the new screen moves focus (nothing to dismiss), and coming back
        // shows the element's own line.
        story.press("LNUP", shows: "Albums bkbtn")
        story.press("LNDN", shows: "Abbey Road hdr")
        story.press("KEY_ESCAPE", shows: "scr: Abbey Road, The Beatles btn")
        story.press("LNDN", shows: "Rumours, Fleetwood Mac btn")
    }
}

/// Read-all with no speech at the reader's pace, on a real BRLTTY (Docs/braille.md#rules).
@Suite(.serialized) struct BrailleReadAllPaceTests {
    @Test func readAllWaitsForTheReaderPansOnAndShowsEveryWindow() throws {
        let story = try BrailleStory(sample: "albums")
        defer { story.stop() }
        story.shows("Albums hdr")
        story.press("SAY_BELOW", shows: "Recently Added hdr")
        // Past the line's end the reader moves read-all on at once, and it goes on reading.
        story.press("FWINRT", shows: "Abbey Road, The Beatles btn")
        story.shows("Rumours, Fleetwood Mac btn")
        // Slower from the display: read-all keeps reading.
        story.press("SAY_SLOWER")
        story.shows("Kind of Blue, Miles Davis btn", within: .seconds(10))
        // Each line stayed at least 2 s: a braille reader's time, not speech's 60 ms a character.
        let lines = story.live.records.records.compactMap { r -> (Int, String)? in
            if case .braille(let f) = r.record, !f.flash { (r.time, f.text) } else { nil }
        }
        let rumours = try #require(lines.firstIndex { $0.1.hasPrefix("Rumours") })
        #expect(lines[rumours].0 - lines[rumours - 1].0 >= 2000, "\(lines)")
    }
}
