/// Everything a user can ask of Tandem (SPEC §2). One table drives the scenario language,
/// key maps, `--help` and (later) the control socket, so a command has one name everywhere.
public enum Command: Sendable, Hashable {
    case next, previous, first, last
    case activate, increment, decrement
    case actionNext, actionPrevious
    case magicTap, escape
    case readAll, stop, `repeat`, spell
    case nextHeading, previousHeading
    case scrollUp, scrollDown
    case panLeft, panRight
    /// A routing key over braille cell N (0-based, in the window shown).
    case route(Int)
    // Session commands of `tandem run` (Tandem's additions to SPEC §2).
    case historyPrevious, historyNext
    case mark, help
    case rateUp, rateDown, punctuation, verbosity

    /// Name and one-line description of each command, in the SPEC's order.
    public static let table: [(name: String, summary: String)] = [
        ("next", "move to the next element"),
        ("previous", "move to the previous element"),
        ("first", "move to the first element"),
        ("last", "move to the last element"),
        ("activate", "double tap: activate the element or the selected custom action"),
        ("increment", "raise an adjustable element's value"),
        ("decrement", "lower an adjustable element's value"),
        ("action-next", "select the next custom action (rotor)"),
        ("action-previous", "select the previous custom action (rotor)"),
        ("magic-tap", "two-finger double tap: the app's main action"),
        ("escape", "two-finger scrub: dismiss or go back"),
        ("read-all", "read from the focused element to the end"),
        ("stop", "silence speech (except important messages)"),
        ("repeat", "repeat the last thing spoken"),
        ("spell", "spell the focused element's label"),
        ("next-heading", "move to the next heading"),
        ("previous-heading", "move to the previous heading"),
        ("scroll-up", "three-finger swipe down: scroll up a page"),
        ("scroll-down", "three-finger swipe up: scroll down a page"),
        ("pan-left", "pan the braille window left"),
        ("pan-right", "pan the braille window right"),
        ("route N", "routing key over braille cell N: activate what is under it"),
        ("history-previous", "review the previous utterance in the speech history"),
        ("history-next", "review the next utterance in the speech history"),
        ("mark", "record a tester's mark in the transcript"),
        ("help", "say the keys"),
        ("rate-up", "speak faster"),
        ("rate-down", "speak slower"),
        ("punctuation", "cycle the punctuation level"),
        ("verbosity", "turn hints on or off"),
    ]

    /// Parses a command as scenarios and key maps write it (`next`, `route 3`).
    public init?(name: String) {
        let words = name.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = words.first else { return nil }
        if first == "route" {
            guard words.count == 2, let n = Int(words[1]), n >= 0, n < 10_000 else { return nil }
            self = .route(n)
            return
        }
        guard words.count == 1 else { return nil }
        switch first {
        case "next": self = .next
        case "previous": self = .previous
        case "first": self = .first
        case "last": self = .last
        case "activate": self = .activate
        case "increment": self = .increment
        case "decrement": self = .decrement
        case "action-next": self = .actionNext
        case "action-previous": self = .actionPrevious
        case "magic-tap": self = .magicTap
        case "escape": self = .escape
        case "read-all": self = .readAll
        case "stop": self = .stop
        case "repeat": self = .repeat
        case "spell": self = .spell
        case "next-heading": self = .nextHeading
        case "previous-heading": self = .previousHeading
        case "scroll-up": self = .scrollUp
        case "scroll-down": self = .scrollDown
        case "pan-left": self = .panLeft
        case "pan-right": self = .panRight
        case "history-previous": self = .historyPrevious
        case "history-next": self = .historyNext
        case "mark": self = .mark
        case "help": self = .help
        case "rate-up": self = .rateUp
        case "rate-down": self = .rateDown
        case "punctuation": self = .punctuation
        case "verbosity": self = .verbosity
        default: return nil
        }
    }

    /// The command's name as written in scenarios and key maps.
    public var name: String {
        switch self {
        case .next: "next"
        case .previous: "previous"
        case .first: "first"
        case .last: "last"
        case .activate: "activate"
        case .increment: "increment"
        case .decrement: "decrement"
        case .actionNext: "action-next"
        case .actionPrevious: "action-previous"
        case .magicTap: "magic-tap"
        case .escape: "escape"
        case .readAll: "read-all"
        case .stop: "stop"
        case .repeat: "repeat"
        case .spell: "spell"
        case .nextHeading: "next-heading"
        case .previousHeading: "previous-heading"
        case .scrollUp: "scroll-up"
        case .scrollDown: "scroll-down"
        case .panLeft: "pan-left"
        case .panRight: "pan-right"
        case .route(let n): "route \(n)"
        case .historyPrevious: "history-previous"
        case .historyNext: "history-next"
        case .mark: "mark"
        case .help: "help"
        case .rateUp: "rate-up"
        case .rateDown: "rate-down"
        case .punctuation: "punctuation"
        case .verbosity: "verbosity"
        }
    }
}
