import Testing

/// Examples/pizza: a blind tester opens "Пепперони фреш" in a Russian pizza app, reads its
/// nutrition facts, takes the tomatoes off, picks 40 cm and puts it in the cart.
@Suite("pizza story")
struct PizzaStoryTests {
    let run: ReplayRun

    init() throws { run = try ReplayHarness.replay(example: "pizza") }

    @Test("pizza: the card opens with the screen sound, on the pizza's name")
    func cardOpensOnTitle() {
        let after = run.afterKey("activate", occurrence: 0)
        #expect(after.contains { $0.string("type") == "screen" && $0.string("screen") == "pizza" })
        #expect(after.contains { $0.string("ch") == "sound" && $0.string("icon") == "screen" })
        let focus = after.first { $0.string("type") == "focus" }
        #expect(focus?.string("id") == "header.title")
        #expect(focus?.string("reason") == "screenChanged")
        let said = after.first { $0.string("op") == "speak" }
        #expect(said?.string("text") == "Пепперони фреш, заголовок")
        #expect(said?.string("lang") == "ru")
    }

    @Test("pizza: close and cart come before the title although the title is focused first")
    func closeAndCartBeforeTitle() {
        // From the title, one swipe back is the cart, two the close button, three the edge.
        #expect(run.afterKey("previous", occurrence: 0).first { $0.string("type") == "focus" }?.string("id") == "header.cart")
        #expect(run.afterKey("previous", occurrence: 0).contains { $0.string("text") == "Корзина, кнопка" && $0.string("op") == "speak" })
        #expect(run.afterKey("previous", occurrence: 1).contains { $0.string("text") == "Закрыть, кнопка" && $0.string("op") == "speak" })
        let third = run.afterKey("previous", occurrence: 2)
        #expect(third.contains { $0.string("icon") == "boundary" })
        #expect(!third.contains { $0.string("type") == "focus" })
    }

    @Test("pizza: the enlarged info button is read right after the title, not before the cart")
    func infoAfterTitle() {
        // Three quick swipes from close: cart, title, info; only the last is heard.
        let pizzaFocus = run.focusedIDs(reason: "user")
        let start = pizzaFocus.firstIndex(of: "header.close")!
        #expect(Array(pizzaFocus[start...].prefix(4)) == ["header.close", "header.cart", "header.title", "header.info"])
        #expect(run.speech("drop").contains { $0.string("text") == "Корзина, кнопка" && $0.string("reason") == "key" })
        #expect(run.speech("drop").contains { $0.string("text") == "Пепперони фреш, заголовок" && $0.string("reason") == "key" })
        let info = run.indexOfSpeech("Пищевая ценность, кнопка")!
        let hint = run.indexOfSpeech("Показывает калорийность, белки, жиры и углеводы")!
        #expect(hint > info)
        #expect(run.lines[hint].string("prio") == "notification")
        // The hint follows the speech (24 characters, 60 ms each) after the 1 s pause.
        #expect(run.lines[hint].int("t")! - run.lines[info].int("t")! == 24 * 60 + 1000)
    }

    @Test("pizza: the nutrition sheet is modal, and closing it gives focus back to the info button")
    func nutritionSheetIsModal() {
        let opened = run.afterKey("activate", occurrence: 1)
        let focus = opened.first { $0.string("type") == "focus" }
        #expect(focus?.string("id") == "info.title")
        #expect(focus?.string("reason") == "modal")
        // `last` stays inside the sheet, and nothing follows its last row.
        #expect(run.afterKey("last").contains { $0.string("text") == "Вес, 610 г" && $0.string("op") == "speak" })
        #expect(run.afterKey("next", occurrence: 6).contains { $0.string("icon") == "boundary" })
        let closed = run.afterKey("escape")
        #expect(closed.first { $0.string("type") == "focus" }?.string("id") == "header.info")
        #expect(closed.contains { $0.string("text") == "Пищевая ценность, кнопка" && $0.string("op") == "speak" })
    }

    @Test("pizza: taking the tomatoes off speaks the new ingredients alone")
    func removeTomatoes() {
        #expect(run.spoken(source: "hint").contains("Доступны действия"))
        #expect(run.afterKey("action-next").contains { $0.string("text") == "Убрать томаты" && $0.string("op") == "speak" })
        let after = run.afterKey("activate", occurrence: 2)
        #expect(after.contains { $0.string("type") == "action" && $0.string("name") == "Убрать томаты" })
        let said = after.first { $0.string("op") == "speak" }
        #expect(said?.string("text") == "пикантная пепперони, увеличенная порция моцареллы, томатный соус")
        #expect(said?.string("src") == "value")
        #expect(after.contains { $0.string("ch") == "braille" && $0.string("text") == "Состав, пикантная пепперони, увеличенная порция моцареллы, томатный соус дейст" })
    }

    @Test("pizza: choosing 40 cm moves 'selected' to it and updates the buy button's summary")
    func choosing40UpdatesSummary() {
        // A segment of a segmented control: still a button, then its position (as VoiceOver).
        #expect(run.spoken.contains("выбрано, 30 см, кнопка, 2 из 3"))
        #expect(run.spoken.contains("40 см, кнопка, 3 из 3"))
        let chosen = run.afterKey("activate", occurrence: 3)
        #expect(chosen.contains { $0.string("type") == "activate" && $0.string("id") == "size.40" })
        #expect(chosen.contains { $0.string("op") == "speak" && $0.string("text") == "выбрано, 40 см, кнопка, 3 из 3" })
        #expect(chosen.contains { $0.string("ch") == "braille" && $0.string("text") == "выб 40 см кнп 3/3" })
        #expect(run.spoken.contains("В корзину, Пепперони фреш, 40 см, 799 ₽, кнопка"))
        #expect(!run.spoken.contains { $0.hasPrefix("В корзину") && $0.contains("30 см") })
    }

    @Test("pizza: adding to the cart is announced, and the cart then counts the pizza")
    func addToCart() {
        let added = run.afterKey("activate", occurrence: 4)
        let announcement = added.first { $0.string("op") == "speak" }
        #expect(announcement?.string("text") == "Пицца добавлена в корзину")
        #expect(announcement?.string("prio") == "message")
        #expect(added.contains { $0.string("ch") == "braille" && $0.string("text") == "Пицца добавлена в корзину" && $0["flash"] == .bool(true) })
        // Nothing after the buy button: the boundary sound, and the display says so ("Конец").
        let edge = run.afterKey("next", occurrence: 14)
        #expect(edge.contains { $0.string("icon") == "boundary" })
        #expect(edge.contains { $0.string("ch") == "braille" && $0.string("text") == "Конец" && $0["flash"] == .bool(true) })
        #expect(run.spoken.contains("Корзина, 1 товар, кнопка"))
    }

    @Test("pizza: close goes back to the menu, onto the pizza that was opened")
    func closeGoesBack() {
        let back = run.afterKey("activate", occurrence: 5)
        #expect(back.contains { $0.string("type") == "screen" && $0.string("screen") == "menu" })
        let focus = back.first { $0.string("type") == "focus" }
        #expect(focus?.string("id") == "menu.pepperoni")
        #expect(focus?.string("reason") == "back")
        #expect(back.contains { $0.string("op") == "speak" && $0.string("text") == "Пепперони фреш, от 449 ₽, кнопка" })
    }

    @Test("pizza: decorative photos are never reached")
    func photosAreSkipped() {
        let ids = run.focusedIDs()
        #expect(!ids.contains { $0.hasSuffix(".photo") })
    }

    @Test("pizza: braille shows Russian letters and abbreviations")
    func russianBraille() {
        #expect(run.braille.contains { $0.string("text") == "Закрыть кнп" && $0.string("cells") == "⠵⠁⠅⠗⠮⠞⠾⠀⠅⠝⠏" })
        #expect(run.braille.contains { $0.string("text") == "Пепперони фреш заг" && $0.string("cells") == "⠏⠑⠏⠏⠑⠗⠕⠝⠊⠀⠋⠗⠑⠱⠀⠵⠁⠛" })
        #expect(run.brailleTexts.contains("выб 30 см кнп 2/3"))
        #expect(run.brailleTexts.contains("Корзина, 1 товар кнп"))
        // Every cell is Unicode braille.
        for line in run.braille {
            #expect(line.string("cells")!.unicodeScalars.allSatisfy { (0x2800...0x28FF).contains($0.value) })
        }
    }
}
