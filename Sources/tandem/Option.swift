/// One option a subcommand takes, declared once with its help: the parser, `tandem SUB --help`
/// and the test that checks Docs/tandem.1 all read the declaration.
struct Option: Sendable {
    enum Value: Sendable {
        /// A flag: `--strict`.
        case none
        /// A value after the name or after `=`: `--profile <name>`, `--format text|json`.
        case required(String)
        /// A value that may be left out (`--connect [<socket>]`): the next word is the value
        /// unless it is an option; left out, the value is "".
        case optional(String)
    }

    let name: String
    /// Other spellings: `--braille-host`, and `-j` (also `-jN`) for `--jobs`.
    var aliases: [String] = []
    let value: Value
    /// The help, one line or lines joined with "\n" (each indented under the first).
    let help: String

    init(_ name: String, aliases: [String] = [], _ value: Value, _ help: String) {
        self.name = name
        self.aliases = aliases
        self.value = value
        self.help = help
    }

    /// A flag.
    init(_ name: String, _ help: String) { self.init(name, .none, help) }

    /// How `--help` shows it: `-j, --jobs <n>`, `--connect [<socket>]`.
    var label: String {
        let short = aliases.filter { !$0.hasPrefix("--") }
        let names = (short + [name]).joined(separator: ", ")
        switch value {
        case .none: return names
        case .required(let v): return "\(names) \(v)"
        case .optional(let v): return "\(names) [\(v)]"
        }
    }

    // MARK: options several subcommands share, with the same help

    static let profile = Option("--profile", .required("<name>"), "Profile to use (default: default).")
    static let speechAddress = Option("--speech", .required("<address>"),
                                      "speech-dispatcher address (default: the profile, SPEECHD_ADDRESS, the user's).")
    static func braille(_ help: String) -> Option {
        Option("--braille", aliases: ["--braille-host"], .required("<host>"), help)
    }
    static let serviceSocket = Option("--socket", .required("<path>"),
                                      "The service's socket (default: $XDG_RUNTIME_DIR/tandem/control.sock).")
}
