import TandemModel

/// Trait words, braille abbreviations and fixed phrases in one language, as data (Orca's
/// way: templates as tables, not a switch in every function).
public struct Phrases: Sendable {
    public let language: String
    /// Spoken trait words, in the order VoiceOver speaks them after label and value.
    public let traitWords: [(trait: Traits, word: String)]
    /// Braille role abbreviations, same order.
    public let abbreviations: [(trait: Traits, abbreviation: String)]
    /// Spoken before the label ("selected, Banana").
    public let selected: String
    public let selectedAbbreviation: String
    public let actionsAvailable: String
    public let adjustableHint: String
    /// The rotor's default entry: the element's own activation.
    public let activate: String
    /// Value of an indeterminate loading indicator.
    public let inProgress: String
    /// `%@` is the whole number of percent.
    public let percent: String
    /// Said once when speech-dispatcher or BRLTTY cannot be reached.
    public let speechUnavailable: String
    public let brailleUnavailable: String
    /// `tandem run`'s own feedback; `%@` is the new setting.
    public let markRecorded: String
    public let rate: String
    public let punctuation: String
    public let hintsOn: String
    public let hintsOff: String
    public let catalogReloaded: String
    /// `%@` is the error (file, line, message).
    public let catalogError: String
    /// Said when `tandem run` starts.
    public let helpHint: String
    /// `tandem serve` with no app in front.
    public let noApp: String
    /// `%@` is the app's name.
    public let appClosed: String

    /// The phrases for `language` (its base language when only that is known; English otherwise).
    public static func forLanguage(_ language: String) -> Phrases {
        let l = language.lowercased()
        if l.hasPrefix("pt") { return .portuguese }
        if l.hasPrefix("ru") { return .russian }
        return .english
    }

    public static let english = Phrases(
        language: "en",
        traitWords: [
            (.notEnabled, "dimmed"), (.button, "button"), (.link, "link"), (.searchField, "search field"),
            (.image, "image"), (.keyboardKey, "key"), (.header, "heading"), (.tabBar, "tab bar"), (.adjustable, "adjustable"),
        ],
        abbreviations: [
            (.notEnabled, "dim"), (.button, "btn"), (.link, "lnk"), (.searchField, "srch"),
            (.image, "img"), (.keyboardKey, "key"), (.header, "hdr"), (.tabBar, "tabs"), (.adjustable, "adj"),
        ],
        selected: "selected", selectedAbbreviation: "sel",
        actionsAvailable: "Actions available",
        adjustableHint: "Swipe up or down with one finger to adjust the value",
        activate: "Activate", inProgress: "in progress", percent: "%@%",
        speechUnavailable: "Speech is not available", brailleUnavailable: "Braille display is not available",
        markRecorded: "Mark recorded", rate: "Rate %@", punctuation: "Punctuation %@", hintsOn: "Hints on", hintsOff: "Hints off",
        catalogReloaded: "Catalog reloaded", catalogError: "Catalog error: %@", helpHint: "Press question mark for help",
        noApp: "No app is connected", appClosed: "%@ closed")

    public static let portuguese = Phrases(
        language: "pt-BR",
        traitWords: [
            (.notEnabled, "esmaecido"), (.button, "botão"), (.link, "link"), (.searchField, "campo de busca"),
            (.image, "imagem"), (.keyboardKey, "tecla"), (.header, "cabeçalho"), (.tabBar, "barra de abas"), (.adjustable, "ajustável"),
        ],
        abbreviations: [
            (.notEnabled, "esm"), (.button, "btn"), (.link, "lnk"), (.searchField, "bsc"),
            (.image, "img"), (.keyboardKey, "tcl"), (.header, "cab"), (.tabBar, "abas"), (.adjustable, "ajs"),
        ],
        selected: "selecionado", selectedAbbreviation: "sel",
        actionsAvailable: "Ações disponíveis",
        adjustableHint: "Passe um dedo para cima ou para baixo para ajustar o valor",
        activate: "Ativar", inProgress: "em andamento", percent: "%@%",
        speechUnavailable: "A fala não está disponível", brailleUnavailable: "A linha braille não está disponível",
        markRecorded: "Marca registrada", rate: "Velocidade %@", punctuation: "Pontuação %@", hintsOn: "Dicas ativadas",
        hintsOff: "Dicas desativadas", catalogReloaded: "Catálogo recarregado", catalogError: "Erro no catálogo: %@",
        helpHint: "Pressione ponto de interrogação para ajuda",
        noApp: "Nenhum app conectado", appClosed: "%@ fechado")

    public static let russian = Phrases(
        language: "ru",
        traitWords: [
            (.notEnabled, "недоступно"), (.button, "кнопка"), (.link, "ссылка"), (.searchField, "поле поиска"),
            (.image, "изображение"), (.keyboardKey, "клавиша"), (.header, "заголовок"), (.tabBar, "панель вкладок"), (.adjustable, "регулируемый"),
        ],
        abbreviations: [
            (.notEnabled, "нед"), (.button, "кнп"), (.link, "ссл"), (.searchField, "пск"),
            (.image, "изб"), (.keyboardKey, "клв"), (.header, "заг"), (.tabBar, "вкл"), (.adjustable, "рег"),
        ],
        selected: "выбрано", selectedAbbreviation: "выб",
        actionsAvailable: "Доступны действия",
        adjustableHint: "Смахните вверх или вниз одним пальцем, чтобы изменить значение",
        activate: "Активировать", inProgress: "выполняется", percent: "%@ %",
        speechUnavailable: "Речь недоступна", brailleUnavailable: "Брайлевский дисплей недоступен",
        markRecorded: "Отметка сохранена", rate: "Скорость %@", punctuation: "Пунктуация %@", hintsOn: "Подсказки включены",
        hintsOff: "Подсказки выключены", catalogReloaded: "Каталог перезагружен", catalogError: "Ошибка в каталоге: %@",
        helpHint: "Нажмите вопросительный знак для справки",
        noApp: "Нет подключённых приложений", appClosed: "Приложение %@ закрыто")
}
