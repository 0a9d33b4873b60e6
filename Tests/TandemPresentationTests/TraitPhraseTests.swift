import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
@testable import TandemPresentation

/// Every trait as VoiceOver says it, in each language: one row per trait and language, with
/// the element as a catalog writes it and what Tandem must say, then show.
@Suite("trait words in en, pt-BR and ru")
struct TraitPhraseTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let language: String
        let fields: String
        let speech: String
        let hint: String?
        let braille: String
        var testDescription: String { "\(language): \(speech)" }
    }

    static let rows: [Row] = [
        // button
        Row(language: "en", fields: #""label": "Save", "traits": ["button"]"#, speech: "Save, button", hint: nil, braille: "Save btn"),
        Row(language: "pt-BR", fields: #""label": "Salvar", "traits": ["button"]"#, speech: "Salvar, botão", hint: nil, braille: "Salvar btn"),
        Row(language: "ru", fields: #""label": "Сохранить", "traits": ["button"]"#, speech: "Сохранить, кнопка", hint: nil, braille: "Сохранить кнп"),
        // dimmed before the role
        Row(language: "en", fields: #""label": "Pay", "traits": ["button", "notEnabled"]"#, speech: "Pay, dimmed, button", hint: nil, braille: "Pay dim btn"),
        Row(language: "pt-BR", fields: #""label": "Pagar", "traits": ["button", "notEnabled"]"#, speech: "Pagar, esmaecido, botão", hint: nil, braille: "Pagar esm btn"),
        Row(language: "ru", fields: #""label": "Оплатить", "traits": ["button", "notEnabled"]"#, speech: "Оплатить, недоступно, кнопка", hint: nil, braille: "Оплатить нед кнп"),
        // selected first
        Row(language: "en", fields: #""label": "Small", "traits": ["button", "selected"]"#, speech: "selected, Small, button", hint: nil, braille: "sel Small btn"),
        Row(language: "pt-BR", fields: #""label": "Pequena", "traits": ["button", "selected"]"#, speech: "selecionado, Pequena, botão", hint: nil, braille: "sel Pequena btn"),
        Row(language: "ru", fields: #""label": "Маленькая", "traits": ["button", "selected"]"#, speech: "выбрано, Маленькая, кнопка", hint: nil, braille: "выб Маленькая кнп"),
        // heading
        Row(language: "en", fields: #""label": "Groceries", "traits": ["header"]"#, speech: "Groceries, heading", hint: nil, braille: "Groceries hdr"),
        Row(language: "pt-BR", fields: #""label": "Mercado", "traits": ["header"]"#, speech: "Mercado, cabeçalho", hint: nil, braille: "Mercado cab"),
        Row(language: "ru", fields: #""label": "Пицца", "traits": ["header"]"#, speech: "Пицца, заголовок", hint: nil, braille: "Пицца заг"),
        // link
        Row(language: "en", fields: #""label": "Terms", "traits": ["link"]"#, speech: "Terms, link", hint: nil, braille: "Terms lnk"),
        Row(language: "pt-BR", fields: #""label": "Termos", "traits": ["link"]"#, speech: "Termos, link", hint: nil, braille: "Termos lnk"),
        Row(language: "ru", fields: #""label": "Условия", "traits": ["link"]"#, speech: "Условия, ссылка", hint: nil, braille: "Условия ссл"),
        // image
        Row(language: "en", fields: #""label": "Cover", "traits": ["image"]"#, speech: "Cover, image", hint: nil, braille: "Cover img"),
        Row(language: "pt-BR", fields: #""label": "Capa", "traits": ["image"]"#, speech: "Capa, imagem", hint: nil, braille: "Capa img"),
        Row(language: "ru", fields: #""label": "Обложка", "traits": ["image"]"#, speech: "Обложка, изображение", hint: nil, braille: "Обложка изб"),
        // search field
        Row(language: "en", fields: #""label": "Search jobs", "traits": ["searchField"]"#, speech: "Search jobs, search field", hint: nil, braille: "Search jobs srch"),
        Row(language: "pt-BR", fields: #""label": "Buscar produtos", "traits": ["searchField"]"#, speech: "Buscar produtos, campo de busca", hint: nil, braille: "Buscar produtos bsc"),
        Row(language: "ru", fields: #""label": "Поиск", "traits": ["searchField"]"#, speech: "Поиск, поле поиска", hint: nil, braille: "Поиск пск"),
        // adjustable, with its instruction after the pause
        Row(language: "en", fields: #""label": "Volume", "value": "50%", "traits": ["adjustable"]"#, speech: "Volume, 50%, adjustable",
            hint: "Swipe up or down with one finger to adjust the value", braille: "Volume, 50% adj"),
        Row(language: "pt-BR", fields: #""label": "Volume", "value": "50%", "traits": ["adjustable"]"#, speech: "Volume, 50%, ajustável",
            hint: "Passe o dedo para cima ou para baixo com um dedo para ajustar o valor", braille: "Volume, 50% ajs"),
        Row(language: "ru", fields: #""label": "Громкость", "value": "50 %", "traits": ["adjustable"]"#, speech: "Громкость, 50 %, элемент регулировки",
            hint: "Смахните вверх или вниз одним пальцем, чтобы настроить значение", braille: "Громкость, 50 % рег"),
        // a switch: "switch button" and its state, no "button"; its hint
        Row(language: "en", fields: #""label": "Wi-Fi", "value": "1", "traits": ["button", "switchButton"]"#, speech: "Wi-Fi, switch button, on",
            hint: "Double tap to toggle setting", braille: "Wi-Fi swbtn on"),
        Row(language: "pt-BR", fields: #""label": "Wi-Fi", "value": "1", "traits": ["button", "switchButton"]"#, speech: "Wi-Fi, botão de alternância, ativado",
            hint: "Toque duas vezes para alternar o ajuste", braille: "Wi-Fi btnalt atv"),
        Row(language: "ru", fields: #""label": "Wi-Fi", "value": "1", "traits": ["button", "switchButton"]"#, speech: "Wi-Fi, кнопка-переключатель, вкл",
            hint: "Коснитесь дважды, чтобы переключить настройку", braille: "Wi-Fi кнппрк вкл"),
        Row(language: "en", fields: #""label": "Bluetooth", "value": "0", "traits": ["button", "switchButton"]"#, speech: "Bluetooth, switch button, off",
            hint: "Double tap to toggle setting", braille: "Bluetooth swbtn off"),
        Row(language: "pt-BR", fields: #""label": "Bluetooth", "value": "0", "traits": ["button", "switchButton"]"#, speech: "Bluetooth, botão de alternância, desativado",
            hint: "Toque duas vezes para alternar o ajuste", braille: "Bluetooth btnalt dtv"),
        Row(language: "ru", fields: #""label": "Bluetooth", "value": "0", "traits": ["button", "switchButton"]"#, speech: "Bluetooth, кнопка-переключатель, выкл",
            hint: "Коснитесь дважды, чтобы переключить настройку", braille: "Bluetooth кнппрк выкл"),
        Row(language: "en", fields: #""label": "All", "value": "2", "traits": ["button", "switchButton"]"#, speech: "All, switch button, mixed",
            hint: "Double tap to toggle setting", braille: "All swbtn mix"),
        Row(language: "pt-BR", fields: #""label": "Todos", "value": "2", "traits": ["button", "switchButton"]"#, speech: "Todos, botão de alternância, misto",
            hint: "Toque duas vezes para alternar o ajuste", braille: "Todos btnalt mst"),
        Row(language: "ru", fields: #""label": "Все", "value": "2", "traits": ["button", "switchButton"]"#, speech: "Все, кнопка-переключатель, смешанно",
            hint: "Коснитесь дважды, чтобы переключить настройку", braille: "Все кнппрк смш"),
        // a text field: its value, "text field", the edit hint instead of its own
        Row(language: "en", fields: #""label": "Name", "value": "Ana", "hint": "Your full name", "traits": ["textField"]"#, speech: "Name, Ana, text field",
            hint: "Double tap to edit", braille: "Name, Ana txtfld"),
        Row(language: "pt-BR", fields: #""label": "Nome", "value": "Ana", "traits": ["textField"]"#, speech: "Nome, Ana, campo de texto",
            hint: "Toque duas vezes para editar", braille: "Nome, Ana cptxt"),
        Row(language: "ru", fields: #""label": "Имя", "value": "Анна", "traits": ["textField"]"#, speech: "Имя, Анна, текстовое поле",
            hint: "Коснитесь дважды, чтобы редактировать", braille: "Имя, Анна тпол"),
        // being edited
        Row(language: "en", fields: #""label": "Name", "traits": ["textField", "isEditing"]"#, speech: "Name, text field, is editing",
            hint: "Use the rotor to access Misspelled Words", braille: "Name txtfld edtng"),
        Row(language: "pt-BR", fields: #""label": "Nome", "traits": ["textField", "isEditing"]"#, speech: "Nome, campo de texto, editando",
            hint: "Use o rotor para acessar as palavras com erros ortográficos", braille: "Nome cptxt edt"),
        Row(language: "ru", fields: #""label": "Имя", "traits": ["textField", "isEditing"]"#, speech: "Имя, текстовое поле, идет правка",
            hint: "Используйте ротор для доступа к объекту: Слова с ошибками", braille: "Имя тпол прав"),
        // a secure text field: its length as dots, never its text
        Row(language: "en", fields: #""label": "Password", "value": "hunter2", "traits": ["secureTextField"]"#, speech: "Password, •••••••, secure text field",
            hint: "Double tap to edit", braille: "Password, ••••••• sectxt"),
        Row(language: "pt-BR", fields: #""label": "Senha", "value": "abc", "traits": ["secureTextField"]"#, speech: "Senha, •••, campo de texto seguro",
            hint: "Toque duas vezes para editar", braille: "Senha, ••• cpseg"),
        Row(language: "ru", fields: #""label": "Пароль", "value": "секрет", "traits": ["secureTextField", "isEditing"]"#, speech: "Пароль, ••••••, защищённое текстовое поле, идет правка",
            hint: "Используйте ротор для доступа к объекту: Слова с ошибками", braille: "Пароль, •••••• зпол прав"),
        // back button: its own "Back" is not said twice; another title is
        Row(language: "en", fields: #""label": "Back", "traits": ["button", "backButton"]"#, speech: "back button", hint: nil, braille: "bkbtn"),
        Row(language: "en", fields: #""label": "Settings", "traits": ["button", "backButton"]"#, speech: "Settings, back button", hint: nil, braille: "Settings bkbtn"),
        Row(language: "pt-BR", fields: #""label": "Voltar", "traits": ["button", "backButton"]"#, speech: "botão voltar", hint: nil, braille: "btnvlt"),
        Row(language: "ru", fields: #""label": "назад", "traits": ["button", "backButton"]"#, speech: "кнопка назад", hint: nil, braille: "кнпнзд"),
        Row(language: "ru", fields: #""label": "Настройки", "traits": ["button", "backButton"]"#, speech: "Настройки, кнопка назад", hint: nil, braille: "Настройки кнпнзд"),
        // a keyboard key says only its label
        Row(language: "en", fields: #""label": "Q", "traits": ["button", "keyboardKey"]"#, speech: "Q", hint: nil, braille: "Q"),
        Row(language: "pt-BR", fields: #""label": "Q", "traits": ["button", "keyboardKey"]"#, speech: "Q", hint: nil, braille: "Q"),
        Row(language: "ru", fields: #""label": "Й", "traits": ["button", "keyboardKey"]"#, speech: "Й", hint: nil, braille: "Й"),
    ]

    @Test("an element with a trait is said and shown as VoiceOver says it", arguments: rows)
    func traitRow(row: Row) throws {
        let got = try Described.element(row.fields, language: row.language)
        #expect(got == Described(speech: row.speech, hint: row.hint, braille: row.braille))
    }

    static let silentTraits = ["staticText", "summaryElement", "updatesFrequently", "playsSound", "startsMediaSession",
                               "allowsDirectInteraction", "causesPageTurn", "tabBar"]

    @Test("traits VoiceOver does not name say nothing, in any language", arguments: silentTraits, ["en", "pt-BR", "ru"])
    func silentTrait(trait: String, language: String) throws {
        let got = try Described.element(#""label": "Label", "traits": ["\#(trait)"]"#, language: language)
        #expect(got == Described(speech: "Label", hint: nil, braille: "Label"))
    }

    @Test("every trait word VoiceOver says comes in VoiceOver's order")
    func fullOrder() throws {
        let got = try Described.element(#""label": "H", "traits": ["searchField", "image", "adjustable", "link", "header", "textField", "notEnabled", "button"]"#)
        #expect(got.speech == "H, dimmed, button, text field, heading, link, adjustable, image, search field")
        #expect(got.hint == nil, "a dimmed element gets no default hint")
    }

    @Test("a switch without the button trait says its state but no role; another value is said as it is")
    func switchWithoutButton() throws {
        #expect(try Described.element(#""label": "Sync", "value": "1", "traits": ["switchButton"]"#).speech == "Sync, on")
        #expect(try Described.element(#""label": "Sync", "value": "3", "traits": ["button", "switchButton"]"#).speech == "Sync, switch button, 3")
        #expect(try Described.element(#""label": "Sync", "traits": ["button", "switchButton"]"#).speech == "Sync, switch button")
    }

    @Test("a switch turned on says its new state, not 1")
    func switchValueChange() throws {
        let json = """
        {"format": "tandem.catalog/1", "language": "pt-BR", "screens": [{"id": "s", "focus": "wifi", "root": {"id": "root", "children": [
          {"id": "wifi", "label": "Wi-Fi", "value": "0", "traits": ["button", "switchButton"], "activate": [{"set": "wifi", "value": "1"}]}]}}]}
        """
        var decoder = CatalogDecoder(file: "t.catalog.json")
        var nav = Navigator(catalog: try decoder.decode(Array(json.utf8)))
        _ = nav.start()
        let p = Presenter(language: "pt-BR")
        let changed = nav.perform(.activate).first { if case .valueChanged = $0 { true } else { false } }
        let out = p.present(try #require(changed), in: nav)
        #expect(out.first == .speak(Utterance(text: "ativado", language: "pt-BR", source: .value)))
    }

    @Test("a secure field's changed value is its length in dots")
    func secureValueChange() throws {
        let json = """
        {"format": "tandem.catalog/1", "screens": [{"id": "s", "focus": "pin", "root": {"id": "root", "children": [
          {"id": "pin", "label": "PIN", "value": "12", "traits": ["secureTextField"], "activate": [{"set": "pin", "value": "123"}]}]}}]}
        """
        var decoder = CatalogDecoder(file: "t.catalog.json")
        var nav = Navigator(catalog: try decoder.decode(Array(json.utf8)))
        _ = nav.start()
        let changed = nav.perform(.activate).first { if case .valueChanged = $0 { true } else { false } }
        let out = Presenter(language: "en").present(try #require(changed), in: nav)
        #expect(out.first == .speak(Utterance(text: "•••", language: "en", source: .value)))
    }
}
