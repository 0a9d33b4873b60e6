/// Everything a user can ask of Tandem (Docs/formats.md#commands). `Command.table` is the one
/// place a command is described: scenario parsing, key maps, `--help`, the control socket and
/// Docs/keymaps.md all read it, so a command has one name everywhere.
///
/// Adding a command is a case here, a row in `table`, and its handler in the part that
/// `CommandInfo.handler` names.
public enum Command: Sendable, Hashable {
    case next, previous, first, last
    case activate, increment, decrement
    case actionNext, actionPrevious
    case magicTap, escape
    case readAll, readFromTop, stop, `repeat`, spell
    case nextHeading, previousHeading
    case scrollUp, scrollDown
    case panLeft, panRight
    /// A routing key over braille cell N (0-based, in the window shown).
    case route(Int)
    case historyPrevious, historyNext
    case mark, help
    case rateUp, rateDown, punctuation, verbosity
    /// Text typed into the focused text field (`type Hello world`), the character before the
    /// insertion point deleted, or the field cleared.
    case type(String)
    case deleteBackward, clearText
}

/// Who carries a command out.
public enum CommandHandler: String, Sendable, Hashable {
    /// `Navigator.perform`: focus, actions, effects.
    case navigator
    /// The session's speech and braille: reading, silencing, panning, routing.
    case output
    /// The session's tools for a tester: speech history, marks, help, speech settings.
    case tester
}

/// One row of the command table.
public struct CommandInfo: Sendable {
    /// As scenarios, key maps and the control socket write it (`next`, `route`).
    public let name: String
    /// The argument's placeholder in usage texts (`N`), for a command that takes a number.
    public let argument: String?
    /// One line, in English (the session speaks each language's own from its phrase table).
    public let summary: String
    public let handler: CommandHandler
    /// Whether the argument is text (the rest of the line: `type Hello world`), not a number.
    public let takesText: Bool
    /// The command, given its argument (ignored by commands without one).
    let make: @Sendable (Int) -> Command
    let makeText: (@Sendable (String) -> Command)?

    init(_ name: String, _ command: Command, _ handler: CommandHandler, _ summary: String) {
        self.name = name; self.argument = nil; self.summary = summary; self.handler = handler
        self.make = { _ in command }; self.takesText = false; self.makeText = nil
    }

    init(_ name: String, argument: String, _ handler: CommandHandler, _ summary: String, _ make: @escaping @Sendable (Int) -> Command) {
        self.name = name; self.argument = argument; self.summary = summary; self.handler = handler; self.make = make
        self.takesText = false; self.makeText = nil
    }

    init(_ name: String, text argument: String, _ handler: CommandHandler, _ summary: String, _ make: @escaping @Sendable (String) -> Command) {
        self.name = name; self.argument = argument; self.summary = summary; self.handler = handler
        self.make = { _ in make("") }; self.takesText = true; self.makeText = make
    }

    /// The command with `text` as its argument (for a command that takes text).
    public func command(text: String) -> Command { makeText.map { $0(text) } ?? make(0) }

    /// `route N`: the name and the argument's placeholder.
    public var usage: String { argument.map { "\(name) \($0)" } ?? name }

    /// The command without an argument, or with `argument`.
    public func command(argument: Int = 0) -> Command { make(argument) }

    /// The largest argument a command accepts (a cell of a braille display).
    public static let argumentLimit = 9_999
}

extension Command {
    /// Every command, in the order help and Docs list them.
    public static let table: [CommandInfo] = [
        .init("next", .next, .navigator, "move to the next element"),
        .init("previous", .previous, .navigator, "move to the previous element"),
        .init("first", .first, .navigator, "move to the first element"),
        .init("last", .last, .navigator, "move to the last element"),
        .init("activate", .activate, .navigator, "double tap: activate the element or the selected custom action"),
        .init("increment", .increment, .navigator, "raise an adjustable element's value"),
        .init("decrement", .decrement, .navigator, "lower an adjustable element's value"),
        .init("action-next", .actionNext, .navigator, "select the next custom action (rotor)"),
        .init("action-previous", .actionPrevious, .navigator, "select the previous custom action (rotor)"),
        .init("magic-tap", .magicTap, .navigator, "two-finger double tap: the app's main action"),
        .init("escape", .escape, .navigator, "two-finger scrub: dismiss or go back"),
        .init("read-all", .readAll, .output, "read from the focused element to the end"),
        .init("read-from-top", .readFromTop, .output, "two-finger swipe up: read the screen from the top"),
        .init("stop", .stop, .output, "silence speech (except important messages)"),
        .init("repeat", .repeat, .output, "repeat the last thing spoken"),
        .init("spell", .spell, .output, "spell the focused element's label"),
        .init("next-heading", .nextHeading, .navigator, "move to the next heading"),
        .init("previous-heading", .previousHeading, .navigator, "move to the previous heading"),
        .init("scroll-up", .scrollUp, .navigator, "three-finger swipe down: scroll up a page"),
        .init("scroll-down", .scrollDown, .navigator, "three-finger swipe up: scroll down a page"),
        .init("pan-left", .panLeft, .output, "pan the braille window left"),
        .init("pan-right", .panRight, .output, "pan the braille window right"),
        .init("route", argument: "N", .output, "routing key over braille cell N: activate what is under it") { .route($0) },
        .init("history-previous", .historyPrevious, .tester, "review the previous utterance in the speech history"),
        .init("history-next", .historyNext, .tester, "review the next utterance in the speech history"),
        .init("mark", .mark, .tester, "record a tester's mark in the transcript"),
        .init("help", .help, .tester, "say the keys"),
        .init("rate-up", .rateUp, .tester, "speak faster"),
        .init("rate-down", .rateDown, .tester, "speak slower"),
        .init("punctuation", .punctuation, .tester, "cycle the punctuation level"),
        .init("verbosity", .verbosity, .tester, "turn hints on or off"),
        .init("type", text: "TEXT", .navigator, "type text into the focused text field") { .type($0) },
        .init("delete", .deleteBackward, .navigator, "delete the character before the insertion point in a text field"),
        .init("clear", .clearText, .navigator, "clear the focused text field"),
    ]

    /// The row for a command name (`route`, not `route 3`).
    public static func info(named name: some StringProtocol) -> CommandInfo? {
        byName[String(name)].map { table[$0] }
    }

    private static let byName: [String: Int] = Dictionary(uniqueKeysWithValues: table.enumerated().map { ($1.name, $0) })
    private static let byCommand: [Command: Int] = Dictionary(uniqueKeysWithValues: table.enumerated().map { ($1.command(), $0) })

    /// This command's row.
    public var info: CommandInfo { Self.table[Self.byCommand[withoutArgument]!] }

    /// The number a command carries (a routing key's cell), if it takes one.
    public var argument: Int? {
        if case .route(let n) = self { return n }
        return nil
    }

    /// The command with its argument set to 0: the form its table row builds. (A command
    /// that takes an argument adds a line here and in `argument`.)
    var withoutArgument: Command {
        if case .route = self { return .route(0) }
        if case .type = self { return .type("") }
        return self
    }

    /// The text a command carries (what `type` types), if it takes text.
    public var text: String? {
        if case .type(let t) = self { return t }
        return nil
    }

    /// Parses a command as scenarios, key maps and the control socket write it (`next`, `route 3`).
    public init?(name: some StringProtocol) {
        // A word alone (most commands, every key press) is looked up whole: splitting costs
        // more than the rest of reading a command line.
        if !name.utf8.contains(UInt8(ascii: " ")), let k = Self.byName[String(name)] {
            guard Self.table[k].argument == nil else { return nil }
            self = Self.table[k].command()
            return
        }
        let words = name.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = words.first, let info = Self.info(named: first) else { return nil }
        if info.takesText {
            // The rest of the line after one space, as written (spaces inside kept).
            guard let space = name.firstIndex(of: " ") else { return nil }
            let text = String(name[name.index(after: space)...])
            guard !text.isEmpty else { return nil }
            self = info.command(text: text)
            return
        }
        if info.argument == nil {
            guard words.count == 1 else { return nil }
            self = info.command()
        } else {
            guard words.count == 2, let n = Int(words[1]), (0...CommandInfo.argumentLimit).contains(n) else { return nil }
            self = info.command(argument: n)
        }
    }

    /// The command as written in scenarios and key maps (`next`, `route 3`).
    public var name: String {
        let row = info
        if let text { return "\(row.name) \(text)" }
        return argument.map { "\(row.name) \($0)" } ?? row.name
    }
}
