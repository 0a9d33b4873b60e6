/// A subcommand: its name, its help, the options it takes and what runs it. `Subcommand.all`
/// is the one table of them; the parser refuses an option a subcommand does not declare
/// (usage, exit 64), and `--help` is made from the declaration.
struct Subcommand: Sendable {
    let name: String
    /// The subcommand's line in `tandem --help`.
    let summary: String
    /// The first paragraph of its help (after "OVERVIEW: ").
    let overview: String
    /// Each way to call it, after "tandem ".
    let usage: [String]
    /// Positional arguments: (name, help).
    var arguments: [(String, String)] = []
    /// What the help calls them (`tandem ctl`'s are its own subcommands).
    var argumentsHeading = "ARGUMENTS"
    let options: [Option]
    /// What follows the options in its help: keys, notes, exit statuses.
    var notes: String = ""
    let run: @Sendable (Arguments) throws(CLIError) -> Int32

    static func named(_ name: String) -> Subcommand? { all.first { $0.name == name } }

    /// The declared option spelled `word` (its name or an alias), if any.
    func option(spelled word: String) -> Option? {
        options.first { $0.name == word || $0.aliases.contains(word) }
    }

    /// Whether some subcommand takes an option spelled `word` (so a refusal can say it is not
    /// this one's, rather than unknown).
    static func anyTakes(_ word: String) -> Bool {
        all.contains { $0.option(spelled: word) != nil }
    }

    // MARK: help

    /// The help's column for option and argument texts (swift-argument-parser's layout).
    static let column = 26

    var help: String {
        var out = "OVERVIEW: \(overview)\n\n"
        out += "USAGE: " + usage.map { "tandem \($0)" }.joined(separator: "\n       ") + "\n"
        if !arguments.isEmpty {
            out += "\n\(argumentsHeading):\n" + arguments.map { Self.row($0.0, $0.1) }.joined()
        }
        out += "\nOPTIONS:\n" + options.map { Self.row($0.label, $0.help) }.joined()
        out += Self.row("-h, --help", "Show help information.")
        if !notes.isEmpty { out += "\n" + notes + "\n" }
        return out.hasSuffix("\n") ? String(out.dropLast()) : out
    }

    /// `  label                   text`, the text's further lines under its first.
    static func row(_ label: String, _ text: String) -> String {
        let indent = String(repeating: " ", count: column)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var head = "  " + label
        if head.count + 2 > column {
            head += "\n" + indent
        } else {
            head += String(repeating: " ", count: column - head.count)
        }
        return head + lines.joined(separator: "\n" + indent) + "\n"
    }
}
