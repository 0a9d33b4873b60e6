import TandemNavigator
import TandemVocabulary

/// `tandem --help`, made from the subcommands' table.
enum Help {
    static var overview: String {
        """
        OVERVIEW: Tandem — a screen-reader output bridge: VoiceOver-like navigation over an app's
        accessibility catalog, heard through speech-dispatcher and felt on a BRLTTY braille display.

        USAGE: tandem <subcommand>

        SUBCOMMANDS:
        \(Subcommand.all.map { Subcommand.row($0.name, $0.summary) }.joined())
          See 'tandem help <subcommand>' for detailed help.
        """
    }

    static func text(for sub: String) -> String? { Subcommand.named(sub)?.help }

    static var commandList: String {
        Command.table.map { "  \($0.usage.padding(toLength: 22, withPad: " ", startingAt: 0))  \($0.summary)" }.joined(separator: "\n")
    }
}

extension Subcommand {
    /// Every subcommand, in the order `tandem --help` lists them.
    static let all: [Subcommand] = [replay, check, view, interactive, test, lint, importPages, serve, ctl, atspi]

    static let replay = Subcommand(
        name: "replay",
        summary: "Replay a scenario headless and print the JSON Lines transcript.",
        overview: "Replay a scenario over a catalog on the virtual clock and write the transcript.",
        usage: ["replay <catalog> <scenario> [--profile <name>] [--out <file>] [--speech <address>] [--braille <host>]",
                "replay --session <recording> [--out <file>]"],
        arguments: [("<catalog>", "A *.catalog.json file (Docs/formats.md#catalog)."),
                    ("<scenario>", "A *.scenario file (Docs/formats.md#scenario).")],
        options: [
            .profile,
            Option("--out", .required("<file>"), "Write the transcript to <file> instead of standard output."),
            Option("--speech", .required("<address>"), "Also speak through this speech-dispatcher (unix_socket:PATH); real clock."),
            .braille("Also show on this BRLTTY (BrlAPI host, e.g. 127.0.0.1:37); real clock."),
            Option("--transcript", .required("<file>"), "With --speech/--braille: the live transcript (same as --out)."),
            Option("--session", .required("<recording>"), "Replay a tandem serve session recorded with --record, headless."),
        ],
        notes: """
        COMMANDS IN A SCENARIO:
        \(Help.commandList)
          wait MS, expect TEXT, expect-action NAME, screen ID, profile NAME, post …

        EXIT STATUS: 0 ok, 1 an expect failed, 2 bad input, 64 usage, 69 braille tables missing.
        """,
        run: ReplayCommand.run)

    static let check = Subcommand(
        name: "check",
        summary: "Replay and compare with a golden transcript.",
        overview: "Replay a scenario and compare the transcript with a golden file.",
        usage: ["check <catalog> <scenario> <golden> [--profile <name>]",
                "check <recording> <golden>"],
        arguments: [("<catalog>", "A *.catalog.json file."),
                    ("<scenario>", "A *.scenario file."),
                    ("<golden>", "The expected transcript (JSON Lines)."),
                    ("<recording>", "A tandem serve --record recording (*.session.record), replayed as recorded.")],
        options: [.profile],
        notes: "EXIT STATUS: 0 same, 1 different (a readable diff on standard error), 2 bad input.",
        run: CheckCommand.run)

    static let view = Subcommand(
        name: "view",
        summary: "Print a transcript as a person reads it.",
        overview: "Print a transcript as a person reads it: speech, braille cells, sounds, events.",
        usage: ["view <transcript>"],
        arguments: [("<transcript>", "A JSON Lines transcript, or - for standard input.")],
        options: [],
        run: ViewCommand.run)

    static let interactive = Subcommand(
        name: "run",
        summary: "An interactive session: terminal and braille keys, speech and braille.",
        overview: "An interactive session for braille users and speech-only terminal users.",
        usage: ["run <catalog> [--profile <name>] [--transcript <file>] [--speech <address>] [--braille <host>] [--quiet-screen]",
                "run --connect [<socket>] [--profile <name>]"],
        arguments: [("<catalog>", "A *.catalog.json file; edits are reloaded while the session runs.")],
        options: [
            Option("--connect", .optional("<socket>"), """
                Drive a running tandem serve instead of a catalog: keys go to it as commands,
                its speech and braille are shown here (the devices are the service's). The
                socket defaults to $XDG_RUNTIME_DIR/tandem/control.sock; --socket <path> also says it.
                """),
            Option("--socket", .required("<path>"), "With --connect: the service's socket (as --connect <socket>)."),
            .profile,
            Option("--transcript", .required("<file>"), "Where to write the transcript (default: $XDG_STATE_HOME/tandem/run-….jsonl)."),
            .speechAddress,
            .braille("BrlAPI host (default: the profile, BRLAPI_HOST, the default); also --braille-host."),
            Option("--quiet-screen", "Do not print the braille window and speech on the terminal."),
        ],
        notes: """
        KEYS (the terminal map; ? says them):
          right/left next/previous, up/down increment/decrement, home/end first/last,
          enter or space activate, tab/shift-tab custom actions, m magic tap, escape escape,
          h/H next/previous heading, a read all, r repeat, l spell, s stop, < > pan braille,
          [ ] speech history, + - rate, p punctuation, v hints, ! mark, ? help, q quit.

        EXIT STATUS: 0 quit, 2 bad input, 64 usage, 69 with --connect: no service answers, or it went away.
        """,
        run: RunCommand.run)

    static let test = Subcommand(
        name: "test",
        summary: "Run every suite under folders: scenarios against golden transcripts.",
        overview: """
        Run every suite under the paths: each scenario, in each profile and language its
        suite.json lists, replayed and compared with its golden transcript (Docs/ci.md).
        """,
        usage: ["test [<path>…] [-j <n>] [--update] [--filter <pattern>] [--shard <k>/<n>] [--diff words|cells|json] [--junit <file>] [--html <dir>] [--html-failures-only]"],
        arguments: [("<path>", """
            A folder (searched recursively; other checkouts inside skipped), a
            catalog, a scenario, a *.session.record or a *.app.json; - reads changed files from standard input,
            one a line (git diff --name-only). Default: the current folder.
            """)],
        options: [
            Option("--jobs", aliases: ["-j"], .required("<n>"), "Cases run at once (default: the number of cores)."),
            Option("--update", "Write new and changed golden files, and list them."),
            Option("--filter", .required("<pattern>"), "Only cases whose name matches this regular expression."),
            Option("--shard", .required("<k>/<n>"), "Only part k of n: a stable split for a CI matrix."),
            Option("--junit", .required("<file>"), "Write a JUnit XML report (GitHub, GitLab, Jenkins)."),
            Option("--html", .required("<dir>"), "Write a self-contained HTML report to <dir>/index.html."),
            Option("--html-failures-only", "List only the cases that did not pass in the HTML report."),
            Option("--diff", .required("<style>"), "A failure's diff: words (default), cells (braille too), json."),
        ],
        notes: """
        A suite is NAME.catalog.json with NAME.scenario (and NAME.*.scenario) files beside it; the
        golden transcript of NAME.scenario is NAME[.PROFILE][.LANGUAGE].golden.jsonl. A recorded
        serve session NAME.session.record is a case too, with NAME.session.golden.jsonl. So is an
        app case NAME.app.json, with NAME.app.golden.jsonl: its "command" (the app) is started
        against a private service whose socket is $XDG_RUNTIME_DIR/tandem/control.sock, driven
        by its "steps" on a virtual clock that moves only on a wait step, once the app is quiet
        (Docs/ci.md#apps); an app that exits, never connects or stays busy fails the case.

        EXIT STATUS: 0 every case passed, 1 a case failed, 2 bad input (a catalog, scenario, golden
        or suite.json that cannot be read, a wrong option, a --filter matching nothing; the other
        cases still run), 64 usage. A change list (-) that touches no suite exits 0.
        """,
        run: TestCommand.run)

    static let lint = Subcommand(
        name: "lint",
        summary: "Audit catalogs for accessibility bugs.",
        overview: """
        Audit catalogs for accessibility bugs: unlabelled controls, labels and hints that
        repeat what VoiceOver says, frames that hide other elements, overlays that are not modal,
        unreachable elements, small touch targets, … (each rule's story: Docs/lint.md).
        A clean lint is a floor, not a verdict: listen to the app too (tandem run).
        """,
        usage: ["lint <catalog>… [--disable <rule>] [--format text|json|sarif] [--docs-url <url>] [--strict] [--list-rules]"],
        arguments: [("<catalog>", "A *.catalog.json file, or - for standard input.")],
        options: [
            Option("--disable", .required("<rule>"), "Do not run this rule (repeat, or separate ids with commas)."),
            Option("--format", .required("<format>"), """
                text: one line a finding (default); json: one document;
                sarif: SARIF 2.1.0 for code scanning (Docs/lint.md#sarif).
                """),
            Option("--docs-url", .required("<url>"), "Docs/lint.md's address, for each rule's helpUri in SARIF."),
            Option("--strict", "Warnings fail too (exit 1)."),
            Option("--list-rules", "Print every rule: id, severity, summary."),
        ],
        notes: """
        A catalog excuses a finding on purpose with "lint": {"allow": [rule…], "why": "…"} on the
        element (covering its subtree) or the screen.

        EXIT STATUS: 0 no errors, 1 an error (or a warning with --strict), 2 a catalog does not load
        or an option is wrong (the other catalogs are still linted).
        """,
        run: LintCommand.run)

    static let importPages = Subcommand(
        name: "import",
        summary: "Page sources of mobile test runs (WebDriverAgent, UiAutomator2) as catalogs.",
        overview: """
        Import the page sources mobile test runs save (Appium's WebDriverAgent for iOS,
        UiAutomator2 or `adb shell uiautomator dump` for Android) as catalogs: what VoiceOver, and
        TalkBack, would reach on each screen, with each element's place in the XML (Docs/import.md).
        """,
        usage: ["import ios|android <file>… [--language <tag>] [--density <n>] [--out <dir>]"],
        arguments: [("ios|android", "Whose page source: WebDriverAgent's, or UiAutomator's."),
                    ("<file>", """
                    A page source (XML), or - for standard input; several make one catalog
                    with a screen each.
                    """)],
        options: [
            Option("--language", .required("<tag>"), "The catalog's language (BCP 47; default: en)."),
            Option("--density", .required("<n>"), "Android: pixels a point (e.g. 2.625); default: the screen is 360 points wide."),
            Option("--out", .required("<dir>"), """
                Write <dir>/NAME/NAME.catalog.json and <dir>/NAME/walk.scenario for each file,
                a suite for `tandem test <dir> --update` (Docs/ci.md#import).
                """),
        ],
        notes: """
        Unknown element types become plain elements, with a warning on standard error.

        EXIT STATUS: 0 ok, 2 bad input (malformed XML names its line and column; a screen nothing is
        reachable on), 64 usage.
        """,
        run: ImportCommand.run)

    static let serve = Subcommand(
        name: "serve",
        summary: "The service running apps connect to (Docs/protocol.md).",
        overview: """
        The service running apps connect to: they publish their accessibility tree over a Unix
        socket and receive the user's actions; speech, braille and the navigator live here (Docs/protocol.md).
        """,
        usage: ["serve [--socket <path>] [--profile <name>] [--catalog <file>] [--transcript <file>] [--record <file>] [--allow-group <group>] [--realtime]"],
        options: [
            Option("--socket", .required("<path>"), "The socket (default: $XDG_RUNTIME_DIR/tandem/control.sock, in a 0700 folder)."),
            .profile,
            Option("--catalog", .required("<file>"), "Also serve a catalog as an app of its own (its effects play as in tandem run)."),
            Option("--transcript", .required("<file>"), "Write the transcript (JSON Lines) there."),
            Option("--record", .required("<file>"), "Record every input with its time, for tandem replay --session."),
            Option("--allow-group", .required("<group>"), "Also let members of this group connect (default: the same user only)."),
            Option("--stall-timeout", .required("<ms>"), "Drop a client that leaves a line half sent this long (default: 10000)."),
            Option("--max-queue", .required("<bytes>"), "Drop a client that does not read once this much waits for it (default: 4 MiB)."),
            Option("--user-action-window", .required("<ms>"),
                   "A value change this soon after an action on the element is the user's own (default: 500)."),
            .speechAddress,
            .braille("BrlAPI host (default: the profile, BRLAPI_HOST, the default)."),
            Option("--realtime", """
                Schedule the service's threads ahead of ordinary programs (SCHED_FIFO 1;
                needs CAP_SYS_NICE or an rtprio limit of 1; otherwise a warning, normal priority).
                """),
        ],
        notes: """
        Stops cleanly on SIGTERM or SIGINT. Logs to standard error, one event a line (journal priorities
        when run by systemd; a user unit is in Docs/protocol.md).
        """,
        run: ServeCommand.run)

    static let ctl = Subcommand(
        name: "ctl",
        summary: "Drive a running service from a shell: commands, transcript, status.",
        overview: "Drive a running tandem serve from a shell or a script, as a controller (Docs/protocol.md).",
        usage: ["ctl command <name>... [--input <method>] [--socket <path>]",
                "ctl listen [--channels <list>] [--socket <path>]",
                "ctl say <text> [--priority high] [--socket <path>]",
                "ctl status [--socket <path>]",
                "ctl foreground <app> [--socket <path>]"],
        arguments: [("command <name>...", "Send navigator commands (next, increment, \"route 3\", …), each acknowledged in turn."),
                    ("listen", "Print the transcript as JSON Lines until interrupted."),
                    ("say <text>", "Announce a text, whichever app is in front."),
                    ("status", "Print the service's status as one JSON line."),
                    ("foreground <app>", "Bring the app with this name to the front.")],
        argumentsHeading: "SUBCOMMANDS",
        options: [
            .serviceSocket,
            Option("--channels", .required("<list>"), "listen: only these of speech,braille,sound,event (comma-separated)."),
            Option("--priority", .required("<p>"), "say: high (spoken at once, never cut) or default (queued)."),
            Option("--input", .required("<method>"), "command: what the keys were pressed on, keyboard, braille or touch (hints name its keys; activate on a text field starts typing)."),
        ],
        notes: """
        EXIT STATUS: 0 done, 1 the service refused a message (its error on standard error), 64 usage,
        69 no service answers (or it went away).
        """,
        run: CtlCommand.run)

    static let atspi = Subcommand(
        name: "atspi",
        summary: "Bridge a running Linux app (GTK, Qt, a web page) into the service over AT-SPI.",
        overview: """
        Bridge a running Linux application into tandem serve through AT-SPI (Docs/atspi.md),
        or write its current screen as a catalog.
        """,
        usage: ["atspi (--app <name> | --pid <pid>) [--socket <path>] [--language <tag>] [--chrome]",
                "atspi (--app <name> | --pid <pid>) --snapshot [--language <tag>] [--chrome]"],
        options: [
            Option("--app", .required("<name>"), "The application's AT-SPI name (ignoring case): \"pantry\", \"Chromium\"."),
            Option("--pid", .required("<pid>"), "The application's process id."),
            Option("--snapshot", "Write the current screen as a catalog on standard output and exit."),
            .serviceSocket,
            Option("--language", .required("<tag>"), "The app's language (BCP 47; default en)."),
            Option("--chrome", "Keep a browser's own toolbars (left out by default)."),
        ],
        notes: """
        EXIT STATUS: 0 the app quit (or the snapshot was written), 64 usage, 69 no accessibility bus,
        no such application, or no service (a sentence says which).
        """,
        run: AtspiCommand.run)
}
