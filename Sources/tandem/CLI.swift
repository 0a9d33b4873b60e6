import Foundation
import TandemModel
import TandemOutputs
import TandemService

/// The command line: parses arguments and runs a subcommand, returning the exit status.
enum CLI {
    static let version = "0.1.0"

    static func main(_ args: [String]) -> Int32 {
        guard let sub = args.first else {
            printErr(Help.overview)
            return 64
        }
        let rest = Array(args.dropFirst())
        switch sub {
        case "-h", "--help", "help":
            print(rest.first.flatMap(Help.text(for:)) ?? Help.overview)
            return 0
        case "--version", "version":
            print("tandem \(version)")
            return 0
        case "replay": return run(rest, usage: Help.replay, ReplayCommand.run)
        case "check": return run(rest, usage: Help.check, CheckCommand.run)
        case "view": return run(rest, usage: Help.view, ViewCommand.run)
        case "run": return run(rest, usage: Help.run, RunCommand.run)
        case "test": return run(rest, usage: Help.test, TestCommand.run)
        case "lint": return run(rest, usage: Help.lint, LintCommand.run)
        case "import": return run(rest, usage: ImportCommand.help, ImportCommand.run)
        case "serve": return run(rest, usage: Help.serve, ServeCommand.run)
        case "ctl": return run(rest, usage: Help.ctl, CtlCommand.run)
        case "atspi": return run(rest, usage: Help.atspi, AtspiCommand.run)
        default:
            printErr("tandem: error: unknown command \"\(sub)\"\n\n" + Help.overview)
            return 64
        }
    }

    static func run(_ args: [String], usage: String, _ body: (Arguments) throws(CLIError) -> Int32) -> Int32 {
        if args.contains("-h") || args.contains("--help") {
            print(usage)
            return 0
        }
        do {
            return try body(Arguments(args))
        } catch {
            switch error {
            case .usage(let m):
                printErr("tandem: error: \(m)\n\n\(usage)")
                return 64
            case .input(let d):
                printErr("tandem: error: \(d)")
                return 2
            case .invalid(let m):
                printErr("tandem: error: \(m)")
                return 2
            case .unavailable(let m):
                printErr("tandem: error: \(m)")
                return 69
            }
        }
    }
}

enum CLIError: Error {
    case usage(String)
    case input(Diagnostic)
    /// A bad value for an option (`--shard 3/2`, an unknown rule): bad input, exit 2.
    case invalid(String)
    case unavailable(String)
}

/// Positional arguments and `--name value` options. `-` alone is a positional argument
/// (standard input).
struct Arguments {
    var positional: [String] = []
    /// The last value of each option.
    var options: [String: String] = [:]
    /// Every value of each option, in order (`--disable a --disable b`).
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    static let valued: Set<String> = ["--profile", "--out", "--speech", "--braille", "--braille-host", "--transcript",
                                      "--jobs", "--filter", "--junit", "--html", "--shard", "--disable", "--format",
                                      "--language", "--socket", "--catalog", "--record", "--allow-group", "--session",
                                      "--stall-timeout", "--max-queue", "--user-action-window", "--channels", "--priority",
                                      "--app", "--pid", "--density", "--diff", "--docs-url"]
    /// Other spellings of an option.
    static let aliases = ["--braille-host": "--braille"]
    static let flagNames: Set<String> = ["--quiet", "--quiet-screen", "--update", "--strict", "--list-rules", "--realtime",
                                          "--snapshot", "--chrome", "--html-failures-only"]
    /// Options whose value may be left out (`tandem run --connect` means the default socket):
    /// the next word is the value unless it is an option; left out, the value is "".
    static let optionallyValued: Set<String> = ["--connect"]

    init(_ args: [String]) throws(CLIError) {
        var i = 0
        while i < args.count {
            var a = args[i]
            // `-j N` and `-jN` are `--jobs N`.
            if a == "-j" { a = "--jobs" } else if a.hasPrefix("-j"), !a.hasPrefix("--") { a = "--jobs=" + a.dropFirst(2) }
            if a.hasPrefix("--") {
                let parts = a.split(separator: "=", maxSplits: 1).map(String.init)
                let name = parts[0]
                if Self.flagNames.contains(name) {
                    flags.insert(name)
                } else if Self.optionallyValued.contains(name) {
                    if parts.count == 2 {
                        options[name] = parts[1]
                    } else if i + 1 < args.count, !args[i + 1].hasPrefix("-") {
                        i += 1
                        options[name] = args[i]
                    } else {
                        options[name] = ""
                    }
                } else if Self.valued.contains(name) {
                    let key = Self.aliases[name] ?? name
                    let value: String
                    if parts.count == 2 {
                        value = parts[1]
                    } else {
                        guard i + 1 < args.count else { throw .usage("\(name) needs a value") }
                        i += 1
                        value = args[i]
                    }
                    options[key] = value
                    values[key, default: []].append(value)
                } else {
                    throw .usage("unknown option \(name)")
                }
            } else {
                positional.append(a)
            }
            i += 1
        }
    }

    func exactly(_ n: Int, _ names: String) throws(CLIError) -> [String] {
        guard positional.count == n else {
            throw .usage("expected \(names), got \(positional.count) argument\(positional.count == 1 ? "" : "s")")
        }
        try oneStandardInput()
        return positional
    }

    /// Standard input can be read once: at most one argument may be `-`.
    func oneStandardInput() throws(CLIError) {
        if positional.filter({ $0 == "-" }).count > 1 { throw .usage("only one argument can be - (standard input)") }
    }
}

func printErr(_ s: String) {
    FileHandle.standardError.write(Data((s + "\n").utf8))
}
