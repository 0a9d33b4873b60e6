import TandemNavigator

/// `--help` texts, in swift-argument-parser's familiar layout.
enum Help {
    static let overview = """
    OVERVIEW: Tandem — a screen-reader output bridge: VoiceOver-like navigation over an app's
    accessibility catalog, heard through speech-dispatcher and felt on a BRLTTY braille display.

    USAGE: tandem <subcommand>

    SUBCOMMANDS:
      replay                  Replay a scenario headless and print the JSON Lines transcript.
      check                   Replay and compare with a golden transcript.
      view                    Print a transcript as a person reads it.
      run                     An interactive session: terminal and braille keys, speech and braille.
      test                    Run every suite under folders: scenarios against golden transcripts.
      lint                    Audit catalogs for accessibility bugs.
      import                  Page sources of mobile test runs (WebDriverAgent, UiAutomator2) as catalogs.
      serve                   The service running apps connect to (Docs/protocol.md).
      ctl                     Drive a running service from a shell: commands, transcript, status.
      atspi                   Bridge a running Linux app (GTK, Qt, a web page) into the service over AT-SPI.

      See 'tandem help <subcommand>' for detailed help.
    """

    static let replay = """
    OVERVIEW: Replay a scenario over a catalog on the virtual clock and write the transcript.

    USAGE: tandem replay <catalog> <scenario> [--profile <name>] [--out <file>] [--speech <address>] [--braille <host>]
           tandem replay --session <recording> [--out <file>]

    ARGUMENTS:
      <catalog>               A *.catalog.json file (Docs/formats.md#catalog).
      <scenario>              A *.scenario file (Docs/formats.md#scenario).

    OPTIONS:
      --profile <name>        Profile to use (default: default).
      --out <file>            Write the transcript to <file> instead of standard output.
      --speech <address>      Also speak through this speech-dispatcher (unix_socket:PATH); real clock.
      --braille <host>        Also show on this BRLTTY (BrlAPI host, e.g. 127.0.0.1:37); real clock.
      --transcript <file>     With --speech/--braille: the live transcript (same as --out).
      --session <recording>   Replay a tandem serve session recorded with --record, headless.
      -h, --help              Show help information.

    COMMANDS IN A SCENARIO:
    \(commandList)
      wait MS, expect TEXT, screen ID, profile NAME, post …

    EXIT STATUS: 0 ok, 1 an expect failed, 2 bad input, 64 usage, 69 braille tables missing.
    """

    static let check = """
    OVERVIEW: Replay a scenario and compare the transcript with a golden file.

    USAGE: tandem check <catalog> <scenario> <golden> [--profile <name>]

    ARGUMENTS:
      <catalog>               A *.catalog.json file.
      <scenario>              A *.scenario file.
      <golden>                The expected transcript (JSON Lines).

    OPTIONS:
      --profile <name>        Profile to use (default: default).
      -h, --help              Show help information.

    EXIT STATUS: 0 same, 1 different (a readable diff on standard error), 2 bad input.
    """

    static let view = """
    OVERVIEW: Print a transcript as a person reads it: speech, braille cells, sounds, events.

    USAGE: tandem view <transcript>

    ARGUMENTS:
      <transcript>            A JSON Lines transcript, or - for standard input.

    OPTIONS:
      -h, --help              Show help information.
    """

    static let run = """
    OVERVIEW: An interactive session for braille users and speech-only terminal users.

    USAGE: tandem run <catalog> [--profile <name>] [--transcript <file>] [--speech <address>] [--braille <host>] [--quiet-screen]
           tandem run --connect [<socket>] [--profile <name>]

    ARGUMENTS:
      <catalog>               A *.catalog.json file; edits are reloaded while the session runs.

    OPTIONS:
      --connect [<socket>]    Drive a running tandem serve instead of a catalog: keys go to it as commands,
                              its speech and braille are shown here (the devices are the service's). The
                              socket defaults to $XDG_RUNTIME_DIR/tandem/control.sock; --socket <path> also says it.
      --profile <name>        Profile to use (default: default).
      --transcript <file>     Where to write the transcript (default: $XDG_STATE_HOME/tandem/run-….jsonl).
      --speech <address>      speech-dispatcher address (default: the profile, SPEECHD_ADDRESS, the user's).
      --braille <host>        BrlAPI host (default: the profile, BRLAPI_HOST, the default); also --braille-host.
      --quiet-screen          Do not print the braille window and speech on the terminal.
      -h, --help              Show help information.

    KEYS (the terminal map; ? says them):
      right/left next/previous, up/down increment/decrement, home/end first/last,
      enter or space activate, tab/shift-tab custom actions, m magic tap, escape escape,
      h/H next/previous heading, a read all, r repeat, l spell, s stop, < > pan braille,
      [ ] speech history, + - rate, p punctuation, v hints, ! mark, ? help, q quit.

    EXIT STATUS: 0 quit, 2 bad input, 64 usage, 69 with --connect: no service answers, or it went away.
    """

    static let test = """
    OVERVIEW: Run every suite under the paths: each scenario, in each profile and language its
    suite.json lists, replayed and compared with its golden transcript (Docs/ci.md).

    USAGE: tandem test [<path>…] [-j <n>] [--update] [--filter <pattern>] [--shard <k>/<n>] [--diff words|cells|json] [--junit <file>] [--html <dir>] [--html-failures-only]

    ARGUMENTS:
      <path>                  A folder (searched recursively; other checkouts inside skipped), a
                              catalog or a scenario; - reads changed files from standard input,
                              one a line (git diff --name-only). Default: the current folder.

    OPTIONS:
      -j, --jobs <n>          Cases run at once (default: the number of cores).
      --update                Write new and changed golden files, and list them.
      --filter <pattern>      Only cases whose name matches this regular expression.
      --shard <k>/<n>         Only part k of n: a stable split for a CI matrix.
      --junit <file>          Write a JUnit XML report (GitHub, GitLab, Jenkins).
      --html <dir>            Write a self-contained HTML report to <dir>/index.html.
      --html-failures-only    List only the cases that did not pass in the HTML report.
      --diff <style>          A failure's diff: words (default), cells (braille too), json.
      -h, --help              Show help information.

    A suite is NAME.catalog.json with NAME.scenario (and NAME.*.scenario) files beside it; the
    golden transcript of NAME.scenario is NAME[.PROFILE][.LANGUAGE].golden.jsonl.

    EXIT STATUS: 0 every case passed, 1 a case failed, 2 bad input (a catalog, scenario, golden
    or suite.json that cannot be read, a wrong option, a --filter matching nothing; the other
    cases still run), 64 usage. A change list (-) that touches no suite exits 0.
    """

    static let lint = """
    OVERVIEW: Audit catalogs for accessibility bugs: unlabelled controls, labels and hints that
    repeat what VoiceOver says, frames that hide other elements, overlays that are not modal,
    unreachable elements, small touch targets, … (each rule's story: Docs/lint.md).
    A clean lint is a floor, not a verdict: listen to the app too (tandem run).

    USAGE: tandem lint <catalog>… [--disable <rule>] [--format text|json|sarif] [--docs-url <url>] [--strict] [--list-rules]

    ARGUMENTS:
      <catalog>               A *.catalog.json file, or - for standard input.

    OPTIONS:
      --disable <rule>        Do not run this rule (repeat, or separate ids with commas).
      --format <format>       text: one line a finding (default); json: one document;
                              sarif: SARIF 2.1.0 for code scanning (Docs/lint.md#sarif).
      --docs-url <url>        Docs/lint.md's address, for each rule's helpUri in SARIF.
      --strict                Warnings fail too (exit 1).
      --list-rules            Print every rule: id, severity, summary.
      -h, --help              Show help information.

    A catalog excuses a finding on purpose with "lint": {"allow": [rule…], "why": "…"} on the
    element (covering its subtree) or the screen.

    EXIT STATUS: 0 no errors, 1 an error (or a warning with --strict), 2 a catalog does not load
    or an option is wrong (the other catalogs are still linted).
    """

    static let serve = """
    OVERVIEW: The service running apps connect to: they publish their accessibility tree over a Unix
    socket and receive the user's actions; speech, braille and the navigator live here (Docs/protocol.md).

    USAGE: tandem serve [--socket <path>] [--profile <name>] [--catalog <file>] [--transcript <file>] [--record <file>] [--allow-group <group>] [--realtime]

    OPTIONS:
      --socket <path>         The socket (default: $XDG_RUNTIME_DIR/tandem/control.sock, in a 0700 folder).
      --profile <name>        Profile to use (default: default).
      --catalog <file>        Also serve a catalog as an app of its own (its effects play as in tandem run).
      --transcript <file>     Write the transcript (JSON Lines) there.
      --record <file>         Record every input with its time, for tandem replay --session.
      --allow-group <group>   Also let members of this group connect (default: the same user only).
      --stall-timeout <ms>    Drop a client that leaves a line half sent this long (default: 10000).
      --max-queue <bytes>     Drop a client that does not read once this much waits for it (default: 4 MiB).
      --user-action-window <ms>
                              A value change this soon after an action on the element is the user's own (default: 500).
      --speech <address>      speech-dispatcher address (default: the profile, SPEECHD_ADDRESS, the user's).
      --braille <host>        BrlAPI host (default: the profile, BRLAPI_HOST, the default).
      --realtime              Schedule the service's threads ahead of ordinary programs (SCHED_FIFO 1;
                              needs CAP_SYS_NICE or an rtprio limit of 1; otherwise a warning, normal priority).
      -h, --help              Show help information.

    Stops cleanly on SIGTERM or SIGINT. Logs to standard error, one event a line (journal priorities
    when run by systemd; a user unit is in Docs/protocol.md).
    """

    static let ctl = """
    OVERVIEW: Drive a running tandem serve from a shell or a script, as a controller (Docs/protocol.md).

    USAGE: tandem ctl command <name>... [--socket <path>]
           tandem ctl listen [--channels <list>] [--socket <path>]
           tandem ctl say <text> [--priority high] [--socket <path>]
           tandem ctl status [--socket <path>]
           tandem ctl foreground <app> [--socket <path>]

    SUBCOMMANDS:
      command <name>...       Send navigator commands (next, increment, "route 3", …), each acknowledged in turn.
      listen                  Print the transcript as JSON Lines until interrupted.
      say <text>              Announce a text, whichever app is in front.
      status                  Print the service's status as one JSON line.
      foreground <app>        Bring the app with this name to the front.

    OPTIONS:
      --socket <path>         The service's socket (default: $XDG_RUNTIME_DIR/tandem/control.sock).
      --channels <list>       listen: only these of speech,braille,sound,event (comma-separated).
      --priority <p>          say: high (spoken at once, never cut) or default (queued).
      -h, --help              Show help information.

    EXIT STATUS: 0 done, 1 the service refused a message (its error on standard error), 64 usage,
    69 no service answers (or it went away).
    """

    static var commandList: String {
        Command.table.map { "  \($0.usage.padding(toLength: 22, withPad: " ", startingAt: 0))  \($0.summary)" }.joined(separator: "\n")
    }

    static let atspi = """
    OVERVIEW: Bridge a running Linux application into tandem serve through AT-SPI (Docs/atspi.md),
    or write its current screen as a catalog.

    USAGE: tandem atspi (--app <name> | --pid <pid>) [--socket <path>] [--language <tag>] [--chrome]
           tandem atspi (--app <name> | --pid <pid>) --snapshot [--language <tag>] [--chrome]

    OPTIONS:
      --app <name>            The application's AT-SPI name (ignoring case): "pantry", "Chromium".
      --pid <pid>             The application's process id.
      --snapshot              Write the current screen as a catalog on standard output and exit.
      --socket <path>         The service's socket (default: $XDG_RUNTIME_DIR/tandem/control.sock).
      --language <tag>        The app's language (BCP 47; default en).
      --chrome                Keep a browser's own toolbars (left out by default).
      -h, --help              Show help information.

    EXIT STATUS: 0 the app quit (or the snapshot was written), 64 usage, 69 no accessibility bus,
    no such application, or no service (a sentence says which).
    """

    static func text(for sub: String) -> String? {
        switch sub {
        case "replay": replay
        case "check": check
        case "view": view
        case "run": run
        case "test": test
        case "lint": lint
        case "import": ImportCommand.help
        case "serve": serve
        case "ctl": ctl
        case "atspi": atspi
        default: nil
        }
    }
}
