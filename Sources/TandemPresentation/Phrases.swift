import TandemModel

/// What Tandem says and shows in one language: VoiceOver's trait words, hints and positions,
/// the braille short forms, and Tandem's own phrases, looked up by key in the language's
/// `.strings` table (`Sources/TandemPresentation/Languages/`), with English for a key the
/// language does not have.
///
/// Typed properties name the phrases other modules use (`phrases.markRecorded`); the
/// presenter looks trait words up by key.
public struct Phrases: Sendable {
    /// The table's language (`en`, `pt-BR`, `ru`).
    public let language: String
    /// The language's entries over English's.
    private let table: [String: String]

    /// A table from `entries`, falling back to `fallback` for a missing key.
    init(language: String, entries: [String: String], fallback: [String: String]) {
        self.language = language
        self.table = fallback.merging(entries) { _, own in own }
    }

    /// The phrases for `language` (its base language when only that is known; English otherwise).
    public static func forLanguage(_ language: String) -> Phrases {
        switch LanguageTables.match(language) {
        case "pt-BR": .portuguese
        case "ru": .russian
        case "en": .english
        case let other: load(other)
        }
    }

    public static let english = load("en")
    public static let portuguese = load("pt-BR")
    public static let russian = load("ru")

    static func load(_ language: String) -> Phrases {
        let english = LanguageTables.files["en"]?.table ?? [:]
        return Phrases(language: language, entries: LanguageTables.files[language]?.table ?? [:], fallback: english)
    }

    /// The phrase for `key`; the key itself when no table has it (a test keeps that from
    /// happening for the keys Tandem uses).
    public func text(_ key: String) -> String { table[key] ?? key }

    /// The phrase for `key` with its `%@` / `%1$@` placeholders filled in.
    public func format(_ key: String, _ args: String...) -> String {
        StringFormat.render(text(key), args)
    }

    /// Whether the table (or English) has `key`.
    public func has(_ key: String) -> Bool { table[key] != nil }

    // MARK: phrases other modules use

    /// The catalog traits VoiceOver names, in the order it says them (silent traits left out).
    static let namedTraits: [(key: String, trait: Traits)] = [
        ("notEnabled", .notEnabled), ("button", .button), ("backButton", .backButton), ("switchButton", .switchButton),
        ("textField", .textField), ("secureTextField", .secureTextField), ("isEditing", .isEditing), ("header", .header),
        ("link", .link), ("adjustable", .adjustable), ("image", .image), ("searchField", .searchField),
    ]

    /// Each named trait's spoken word ("button"), in VoiceOver's order; when VoiceOver says it
    /// depends on the other traits too (`Presenter`).
    public var traitWords: [(trait: Traits, word: String)] { Self.namedTraits.map { ($0.trait, text("trait." + $0.key)) } }

    /// Each named trait's braille short form ("btn"), same order.
    public var abbreviations: [(trait: Traits, abbreviation: String)] {
        Self.namedTraits.map { ($0.trait, text("braille." + $0.key)) }
    }

    /// Spoken before the label ("selected, Home").
    public var selected: String { text("state.selected") }
    public var selectedAbbreviation: String { text("braille.selected") }
    public var actionsAvailable: String { text("hint.actionsAvailable") }
    public var adjustableHint: String { text("hint.adjustable") }
    /// The rotor's default entry: the element's own activation.
    public var activate: String { text("rotor.activate") }
    /// Value of an indeterminate loading indicator.
    public var inProgress: String { text("value.inProgress") }
    /// `%@` is the whole number of percent.
    public var percent: String { text("value.percent") }
    /// Said once when speech-dispatcher or BRLTTY cannot be reached.
    public var speechUnavailable: String { text("status.speechUnavailable") }
    public var brailleUnavailable: String { text("status.brailleUnavailable") }
    /// Said and shown when an output that was unavailable answers again.
    public var speechAvailable: String { text("status.speechAvailable") }
    public var brailleAvailable: String { text("status.brailleAvailable") }
    /// Shown when navigation runs into `edge` (`start`, `end`, `none`: nothing to act on).
    public func boundary(_ edge: String) -> String { text("status.boundary." + edge) }
    /// Said and shown when the focused element has nothing to activate.
    public var noAction: String { text("status.noAction") }
    /// `tandem run`'s own feedback; `%@` is the new setting.
    public var markRecorded: String { text("session.markRecorded") }
    public var rate: String { text("session.rate") }
    public var punctuation: String { text("session.punctuation") }
    public var hintsOn: String { text("session.hintsOn") }
    public var hintsOff: String { text("session.hintsOff") }
    public var catalogReloaded: String { text("session.catalogReloaded") }
    /// `%@` is the error (file, line, message).
    public var catalogError: String { text("session.catalogError") }
    /// Said when `tandem run` starts.
    public var helpHint: String { text("session.helpHint") }
    /// How to get help when a braille display is in use: the terminal's key and the display's.
    public var helpHintBraille: String { text("session.helpHintBraille") }
    /// The word joining two keys of one command in the help text ("LNDN or KEY_ENTER").
    public var or: String { text("help.or") }
    /// `tandem serve` with no app in front.
    public var noApp: String { text("session.noApp") }
    /// `%@` is the app's name.
    public var appClosed: String { text("session.appClosed") }
    /// `tandem atspi` typed nothing: no window has X's keyboard.
    public var notTypedNoWindow: String { text("atspi.notTyped.noWindow") }
    /// `tandem atspi` typed nothing: a window with no title has the keyboard.
    public var notTypedOtherWindow: String { text("atspi.notTyped.otherWindow") }
    /// `tandem atspi` typed nothing: `%@`, a window's title, has the keyboard.
    public var notTypedNamedWindow: String { text("atspi.notTyped.namedWindow") }
    /// `tandem atspi` typed nothing: `%@`, the app's name, is not the active window.
    public var notTypedInactive: String { text("atspi.notTyped.inactive") }

    /// What a command does, for the help key (`command.next`); `name` as scenarios write it
    /// (`route N` is `command.route`). Nil for a command no table describes.
    public func commandSummary(_ name: String) -> String? {
        let word = name.split(separator: " ").first.map(String.init) ?? name
        return table["command." + word]
    }
}
