import TandemModel

/// Text as lint compares it: lower case, without diacritics, as a list of words (runs of
/// letters and digits). Tokenising, rather than matching `\b` in a regular expression, treats
/// `ã` and `ё` as the letters they are.
enum Words {
    static func tokens(_ text: String) -> [String] {
        var out: [String] = []
        var word = ""
        for c in text.lowercased() {
            if c.isLetter || c.isNumber {
                word.unicodeScalars.append(contentsOf: c.unicodeScalars.map(fold))
            } else if !word.isEmpty {
                out.append(word)
                word = ""
            }
        }
        if !word.isEmpty { out.append(word) }
        return out
    }

    /// The same text normalised for comparing two labels: its words joined by single spaces.
    static func normalised(_ text: String) -> String { tokens(text).joined(separator: " ") }

    /// A letter without its diacritics, for the letters of the languages Tandem speaks (the
    /// pure modules do without Foundation's folding). Combining marks are dropped.
    static func fold(_ u: Unicode.Scalar) -> Unicode.Scalar {
        switch u {
        case "á", "à", "â", "ã", "ä", "å": "a"
        case "é", "è", "ê", "ë": "e"
        case "í", "ì", "î", "ï": "i"
        case "ó", "ò", "ô", "õ", "ö": "o"
        case "ú", "ù", "û", "ü": "u"
        case "ç": "c"
        case "ñ": "n"
        case "ё": "е"
        default: u
        }
    }
}

/// A word or phrase to look for among a text's words. Written as the text would be (`"search
/// field"`); a trailing `*` makes the last word a stem (`"кнопк*"` matches кнопка, кнопку,
/// кнопки), which Russian's case endings need.
struct WordPattern: Sendable, Hashable, ExpressibleByStringLiteral {
    let words: [String]
    let stem: Bool
    let text: String

    init(_ text: String) {
        self.text = text
        stem = text.hasSuffix("*")
        words = Words.tokens(stem ? String(text.dropLast()) : text)
    }

    init(stringLiteral value: String) { self.init(value) }

    /// Where the phrase starts among `tokens`, if it occurs.
    func firstMatch(in tokens: [String]) -> Int? {
        guard !words.isEmpty, tokens.count >= words.count else { return nil }
        for start in 0...(tokens.count - words.count) where matches(tokens, at: start) { return start }
        return nil
    }

    func matches(_ tokens: [String], at start: Int) -> Bool {
        for (k, w) in words.enumerated() {
            let t = tokens[start + k]
            let last = k == words.count - 1
            let same = (last && stem) ? t.hasPrefix(w) : t == w
            if !same { return false }
        }
        return true
    }
}

/// Word lists per language, Tandem's own: what VoiceOver says for each trait (as
/// `TandemPresentation.Phrases` speaks it) with common synonyms, and the names of gestures.
/// English is always checked as well, since catalogs mix languages.
enum Vocabulary {
    /// The base language whose lists apply (`pt-BR` → `pt`).
    static func base(_ language: String) -> String {
        String(language.lowercased().split(separator: "-").first ?? "en")
    }

    static func lists<T>(_ table: [String: [T]], language: String) -> [T] {
        let b = base(language)
        return (table["en"] ?? []) + (b == "en" ? [] : table[b] ?? [])
    }

    /// Words that say a trait, by language.
    static let traitWords: [(trait: Traits, words: [String: [WordPattern]])] = [
        (.button, ["en": ["button", "btn"], "pt": ["botao", "botoes"], "ru": ["кнопк*"]]),
        (.link, ["en": ["link"], "pt": ["link"], "ru": ["ссылк*"]]),
        (.image, ["en": ["image", "picture", "icon", "photo"], "pt": ["imagem", "icone", "foto", "figura"],
                  "ru": ["изображени*", "картинк*", "иконк*", "фото"]]),
        (.header, ["en": ["heading", "header"], "pt": ["cabecalho"], "ru": ["заголов*"]]),
        (.searchField, ["en": ["search field"], "pt": ["campo de busca", "campo de pesquisa"], "ru": ["поле поиска"]]),
        (.adjustable, ["en": ["adjustable", "slider", "stepper"], "pt": ["ajustavel", "controle deslizante"],
                       "ru": ["регулируем*", "ползун*"]]),
        (.tabBar, ["en": ["tab bar"], "pt": ["barra de abas"], "ru": ["панель вкладок"]]),
        (.keyboardKey, ["en": ["key"], "pt": ["tecla"], "ru": ["клавиш*"]]),
        // Forms (#25): "Email text field" is heard as "Email text field, text field".
        (.secureTextField, ["en": ["secure text field", "password field", "text field"], "pt": ["campo de texto seguro", "campo de texto"],
                            "ru": ["защищённое текстовое поле", "текстовое поле", "поле ввода"]]),
        (.textField, ["en": ["text field", "textfield", "edit field", "text box", "textbox", "input field"],
                      "pt": ["campo de texto", "campo de entrada"], "ru": ["текстовое поле", "поле ввода"]]),
        (.switchButton, ["en": ["switch", "toggle"], "pt": ["botao de alternancia", "interruptor", "alternador"],
                         "ru": ["переключател*", "кнопка переключатель"]]),
    ]

    /// Gestures a hint should not name (Apple: describe the result, not the gesture).
    static let gestures: [String: [WordPattern]] = [
        "en": ["tap", "taps", "tapping", "swipe", "swiping", "click", "press", "double click"],
        "pt": ["toque", "toques", "tocar", "toca", "clique", "clicar", "deslize", "deslizar", "arraste", "arrastar",
               "pressione", "aperte"],
        "ru": ["нажм*", "нажат*", "косн*", "тапн*", "кликн*", "провед*", "смахн*"],
    ]
}
