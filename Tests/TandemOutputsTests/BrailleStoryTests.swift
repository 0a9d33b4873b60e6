import Testing
import TandemTestSupport

/// The four samples walked by a deaf-blind tester (`braille-only`: nothing is said, messages
/// stay until a key) with the display's keys alone, on a real BRLTTY: every screen, sheet,
/// custom action, stepper, magic tap, loading indicator and way back, each step checked on the
/// display's own cells. Each story ends by checking that everything a speech user pressing the
/// same keys at the same times would hear was on the display (Docs/braille.md#stories).
@Suite(.serialized) struct BrailleStoryTests {
    @Test func groceryFromTheOpeningScreenToACheckoutAndBack() throws {
        let story = try BrailleStory(sample: "grocery")
        defer { story.stop() }
        story.shows("Mercado cab")
        // The header reads search, title, lists.
        story.press("LNUP", shows: "Buscar btn")
        story.press("LNDN", shows: "Mercado cab")
        story.press("LNDN", shows: "Minhas listas btn")
        story.press("LNDN", shows: "Buscar produtos bsc")
        // Magic tap (two-finger double tap) jumps to the products; the cell does nothing.
        story.press("KEY_HOME", shows: "Banana, 1 kg, R$ 5,99 btn")
        story.press("KEY_ENTER", shows: "Nenhuma ação")
        // Any other key ends a message and acts: on to the stepper, its value at the cursor;
        // its role is in the second window.
        story.press("LNDN", shows: "Quantidade de banana, 0 no carrinho ajs", window: 0)
        story.press("FWINRT", shows: "Quantidade de banana, 0 no carrinho ajs", window: 1)
        story.press("FWINLT", shows: "Quantidade de banana, 0 no carrinho ajs", window: 0)
        // Every value is shown while adjusting.
        for n in 1...5 { story.press("KEY_CURSOR_UP", shows: "Quantidade de banana, \(n) no carrinho ajs", window: 0) }
        story.press("KEY_CURSOR_DOWN", shows: "Quantidade de banana, 4 no carrinho ajs", window: 0)
        story.press("LNDN", shows: "Café torrado, 500 g, R$ 18,90 btn")
        story.press("LNDN", shows: "Quantidade de café, 0 no carrinho ajs")
        // The coffee stepper announces: the message starts with the new value.
        story.press("KEY_CURSOR_UP", shows: "1 no carrinho. Café adicionado ao carrinho", window: 0)
        story.press("KEY_CURSOR_DOWN", shows: "0 no carrinho. Café adicionado ao carrinho", window: 0)
        story.press("KEY_HOME", shows: "Buscar produtos bsc")

        // The lists sheet: modal, focus moves into it.
        story.press("TOP", shows: "Buscar btn")
        story.press("LNDN", shows: "Mercado cab")
        story.press("LNDN", shows: "Minhas listas btn")
        story.press("KEY_ENTER", shows: "Minhas listas cab")
        story.press("LNDN", shows: "Fechar btn")
        story.press("LNDN", shows: "Feira da semana, 12 itens ações")
        // Custom actions by the display's action keys: select, edit, delete.
        story.press("KEY_TAB", shows: "Selecionar")
        story.press("KEY_ENTER", shows: "sel Feira da semana, 12 itens ações")
        story.press("KEY_TAB", shows: "Editar")
        story.press("KEY_ENTER", shows: "Edição ainda não disponível")
        story.press("KEY_TAB", shows: "Excluir")
        story.press("KEY_BACKSPACE", shows: "Editar")
        story.press("KEY_TAB", shows: "Excluir")
        story.press("KEY_ENTER", shows: "Lista Feira da semana excluída")
        // Focus moved under the message: the next key only shows where it went.
        story.press("LNDN", shows: "Churrasco de domingo, 7 itens ações")
        // Nothing behind the sheet can be reached.
        story.press("LNDN", shows: "Fim")
        story.press("TOP", shows: "Minhas listas cab")
        story.press("LNUP", shows: "Início")
        // Escape closes the sheet; focus returns to the button that opened it.
        story.press("KEY_ESCAPE", shows: "Minhas listas btn")

        // Checkout by a routing key: the indicator's progress, at most once a second, then the
        // end as a message over the new screen.
        story.press("BOT", shows: "Finalizar compra btn")
        story.press("ROUTE 3", shows: "Finalizando compra, 0%")
        story.shows("Finalizando compra, 40%")
        story.shows("Finalizando compra, 80%")
        story.shows("Finalizando compra, 100%")
        // The screen changed under the message: the next key shows it, not the element after it.
        // It is a new screen: its first line starts with the screen word (Docs/braille.md#rules).
        story.press("LNDN", shows: "tela: Pedido confirmado cab")
        story.press("LNDN", shows: "Entrega prevista para amanhã, das 8h às 12h", window: 0)
        story.press("FWINRT", shows: "Entrega prevista para amanhã, das 8h às 12h", window: 1)
        story.press("LNDN", shows: "Voltar ao mercado btn")
        story.press("LNDN", shows: "Fim")
        // Back to the market: a screen change too, onto the button that opened the checkout.
        story.press("KEY_ENTER", shows: "tela: Finalizar compra btn")
        try story.checkEverythingSpokenWasShown()
    }

    @Test func twoLoadingIndicatorsOnlyTheFocusedOneIsFollowedTheOthersEndIsShownWithItsName() throws {
        let story = try BrailleStory(catalog: try FixtureFolder.service.catalog("two-indicators.catalog.json"))
        defer { story.stop() }
        story.shows("Library hdr")
        story.press("LNDN", shows: "Sync all btn")
        // Sync all starts the photos upload (in the background) and the music download, which
        // takes focus: its line follows its steps; the upload ends first, as a message with its
        // name; then the download's end, as a message too.
        story.press("KEY_ENTER", shows: "Downloading music, 0%")
        story.shows("Downloading music, 100%")
        for step in ["33%", "67%"] { #expect(story.wasShown("Downloading music, \(step)"), "the download's \(step) was shown") }
        #expect(story.wasShown("Uploading photos, 100%"), "the upload's end was shown with its name")
        for step in ["25%", "50%", "75%"] { #expect(!story.wasShown("Uploading photos, \(step)"), "the upload's \(step) was never shown") }
        // Focus went back to the button under the message: a routing key only dismisses it.
        story.press("ROUTE 3", shows: "Sync all btn")
        story.press("LNUP", shows: "Library hdr")
        story.press("LNUP", shows: "Start")
        story.press("BOT", shows: "Sync all btn")
        story.press("LNDN", shows: "End")
        story.press("TOP", shows: "Library hdr")
        story.press("LNDN", shows: "Sync all btn")
        try story.checkEverythingSpokenWasShown()
    }

    @Test func pizzaInRussianFromTheMenuToTheCartAndBack() throws {
        let story = try BrailleStory(sample: "pizza")
        defer { story.stop() }
        story.shows("Пицца заг")
        // A menu cell reads its name and price as one button; Margherita does nothing.
        story.press("LNDN", shows: "Пепперони фреш, от 449 ₽ кнп")
        story.press("LNDN", shows: "Маргарита, от 399 ₽ кнп")
        story.press("KEY_ENTER", shows: "Нет действия")
        story.press("LNUP", shows: "Пепперони фреш, от 449 ₽ кнп")
        // The card opens on its title, marked as a new screen; close and cart come before it.
        story.press("KEY_ENTER", shows: "экр: Пепперони фреш заг")
        story.press("LNUP", shows: "Корзина кнп")
        story.press("LNUP", shows: "Закрыть кнп")
        story.press("LNUP", shows: "Начало")
        story.press("LNDN", shows: "Корзина кнп")
        story.press("LNDN", shows: "Пепперони фреш заг")
        story.press("LNDN", shows: "Пищевая ценность кнп")
        // The nutrition sheet: modal, every row, nothing behind it; closed by its button.
        story.press("KEY_ENTER", shows: "Пищевая ценность на 100 г заг")
        story.press("LNDN", shows: "Закрыть кнп")
        story.press("LNDN", shows: "Энергетическая ценность, 254 ккал")
        story.press("LNDN", shows: "Белки, 11 г")
        story.press("LNDN", shows: "Жиры, 10 г")
        story.press("LNDN", shows: "Углеводы, 29 г")
        story.press("LNDN", shows: "Вес, 610 г")
        story.press("LNDN", shows: "Конец")
        story.press("TOP", shows: "Пищевая ценность на 100 г заг")
        story.press("LNDN", shows: "Закрыть кнп")
        story.press("KEY_ENTER", shows: "Пищевая ценность кнп")
        // The ingredients: three windows, panned there and back; a custom action takes the tomatoes off.
        let ingredients = "Состав, пикантная пепперони, увеличенная порция моцареллы, томаты, томатный соус дейст"
        story.press("LNDN", shows: ingredients, window: 0)
        story.press("FWINRT", shows: ingredients, window: 1)
        story.press("FWINRT", shows: ingredients, window: 2)
        story.press("FWINLT", shows: ingredients, window: 1)
        story.press("FWINLT", shows: ingredients, window: 0)
        story.press("KEY_TAB", shows: "Убрать томаты")
        // The window where the tomatoes were, the cursor on what is there now.
        story.press("KEY_ENTER", shows: "Состав, пикантная пепперони, увеличенная порция моцареллы, томатный соус дейст", window: 1)
        // Sizes and dough: position and "selected" on the line; choosing moves "selected".
        story.press("LNDN", shows: "25 см кнп 1/3")
        story.press("LNDN", shows: "выб 30 см кнп 2/3")
        story.press("LNDN", shows: "40 см кнп 3/3")
        story.press("KEY_ENTER", shows: "выб 40 см кнп 3/3")
        story.press("LNDN", shows: "выб Традиционное тесто кнп 1/2")
        story.press("LNDN", shows: "Тонкое тесто кнп 2/2")
        story.press("KEY_ENTER", shows: "выб Тонкое тесто кнп 2/2")
        // The buy button's value follows the size; the cart counts the pizza.
        story.press("LNDN", shows: "В корзину, Пепперони фреш, 40 см, 799 ₽ кнп", window: 0)
        story.press("KEY_ENTER", shows: "Пицца добавлена в корзину")
        story.press("LNDN", shows: "Конец")
        story.press("PRDIFLN", shows: "Пепперони фреш заг")
        story.press("LNUP", shows: "Корзина, 1 товар кнп")
        // Close goes back to the menu, onto the pizza that was opened.
        story.press("TOP", shows: "Закрыть кнп")
        story.press("KEY_ENTER", shows: "экр: Пепперони фреш, от 449 ₽ кнп")
        try story.checkEverythingSpokenWasShown()
    }

    @Test func albumsReadAllHeadingsAnAlbumItsTracksAndBack() throws {
        let story = try BrailleStory(sample: "albums")
        defer { story.stop() }
        story.shows("Albums hdr")
        // Read-all with no speech moves the display on by itself, element by element; any key stops it.
        story.press("SAY_BELOW", shows: "Recently Added hdr")
        story.shows("Abbey Road, The Beatles btn")
        story.shows("Rumours, Fleetwood Mac btn")
        story.press("TOP", shows: "Albums hdr")
        // Headings, then every album of the grid, row by row.
        story.press("NXDIFLN", shows: "Recently Added hdr")
        for album in ["Abbey Road, The Beatles", "Rumours, Fleetwood Mac", "Kind of Blue, Miles Davis", "Blue, Joni Mitchell",
                      "Nevermind, Nirvana", "Back to Black, Amy Winehouse"] {
            story.press("LNDN", shows: album + " btn")
        }
        story.press("LNDN", shows: "Favorites hdr")
        story.press("LNDN", shows: "Pet Sounds, The Beach Boys btn")
        story.press("LNDN", shows: "Purple Rain, Prince and The Revolution btn", window: 0)
        story.press("LNDN", shows: "End")
        story.press("PRDIFLN", shows: "Favorites hdr")
        story.press("PRDIFLN", shows: "Recently Added hdr")
        story.press("LNDN", shows: "Abbey Road, The Beatles btn")
        // The album: a new screen on its title; the back button before it.
        story.press("KEY_ENTER", shows: "scr: Abbey Road hdr")
        story.press("LNUP", shows: "Albums bkbtn")
        story.press("LNDN", shows: "Abbey Road hdr")
        story.press("LNDN", shows: "The Beatles")
        story.press("LNDN", shows: "Rock, 1969")
        story.press("LNDN", shows: "Play btn")
        story.press("KEY_ENTER", shows: "Now playing Come Together")
        story.press("LNDN", shows: "Shuffle btn")
        story.press("KEY_ENTER", shows: "Shuffling Abbey Road")
        // A track's custom actions.
        story.press("LNDN", shows: "Come Together, 4:19 acts")
        story.press("KEY_TAB", shows: "Play Next")
        story.press("KEY_ENTER", shows: "Come Together will play next")
        story.press("KEY_TAB", shows: "Add to Playlist")
        story.press("KEY_ENTER", shows: "Added to Playlist")
        story.press("LNDN", shows: "Something, 3:02 acts")
        story.press("LNDN", shows: "Here Comes the Sun, 3:05 acts")
        story.press("LNDN", shows: "End")
        // The scrub goes back to the grid, onto the album that was opened.
        story.press("KEY_ESCAPE", shows: "scr: Abbey Road, The Beatles btn")
        try story.checkEverythingSpokenWasShown()
    }

    @Test func jobsSearchActionsMoreJobsAndTheTop() throws {
        let story = try BrailleStory(sample: "jobs")
        defer { story.stop() }
        story.shows("Jobs hdr")
        story.press("LNDN", shows: "Search jobs srch")
        // Enter on a search field starts editing it (the display's keyboard then types into
        // it, Docs/keymaps.md#typing); moving on ends editing.
        story.press("KEY_ENTER", shows: "Editing Search jobs")
        story.press("NXDIFLN", shows: "Recommended for you hdr")
        story.press("LNDN", shows: "6 open positions")
        story.press("LNDN", shows: "Designer at Acme btn acts")
        // Save: the new value on the line.
        story.press("KEY_TAB", shows: "Save")
        story.press("KEY_ENTER", shows: "Designer at Acme, Saved btn acts")
        // Hide: the message, and focus moved on under it; the next key shows where.
        story.press("LNDN", shows: "iOS Engineer at Globex btn acts")
        story.press("KEY_TAB", shows: "Save")
        story.press("KEY_TAB", shows: "Hide")
        story.press("KEY_ENTER", shows: "Job hidden")
        story.press("LNDN", shows: "Product Manager at Initech btn acts")
        story.press("LNUP", shows: "Designer at Acme, Saved btn acts")
        story.press("BOT", shows: "Show more jobs btn")
        story.press("LNDN", shows: "End")
        // More jobs: the list grows and focus goes to the first new one.
        story.press("KEY_ENTER", shows: "Data Analyst at Umbrella btn acts")
        story.press("LNDN", shows: "Technical Writer at Initech btn acts")
        story.press("LNDN", shows: "End")
        story.press("PRDIFLN", shows: "Recommended for you hdr")
        story.press("PRDIFLN", shows: "Jobs hdr")
        story.press("LNUP", shows: "Start")
        try story.checkEverythingSpokenWasShown()
    }
}
