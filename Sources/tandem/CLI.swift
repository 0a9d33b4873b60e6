import Foundation
import TandemModel
import TandemOutputs
import TandemService

/// The command line: parses arguments and runs a subcommand, returning the exit status.
enum CLI {
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
            print("tandem 0.1.0")
            return 0
        case "replay": return run(rest, usage: Help.replay, ReplayCommand.run)
        case "check": return run(rest, usage: Help.check, CheckCommand.run)
        case "view": return run(rest, usage: Help.view, ViewCommand.run)
        case "run": return run(rest, usage: Help.run, RunCommand.run)
        case "serve": return run(rest, usage: Help.serve, ServeCommand.run)
        case "ctl": return run(rest, usage: Help.ctl, CtlCommand.run)
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
    case unavailable(String)
}

/// Positional arguments and `--name value` options.
struct Arguments {
    var positional: [String] = []
    var options: [String: String] = [:]
    var flags: Set<String> = []

    static let valued: Set<String> = ["--profile", "--out", "--speech", "--braille", "--braille-host", "--transcript",
                                      "--socket", "--catalog", "--record", "--allow-group", "--session", "--stall-timeout", "--max-queue",
                                      "--channels", "--priority"]
    /// Other spellings of an option.
    static let aliases = ["--braille-host": "--braille"]
    static let flagNames: Set<String> = ["--quiet", "--quiet-screen"]
    /// Options whose value may be left out (`tandem run --connect` means the default socket):
    /// the next word is the value unless it is an option; left out, the value is "".
    static let optionallyValued: Set<String> = ["--connect"]

    init(_ args: [String]) throws(CLIError) {
        var i = 0
        while i < args.count {
            let a = args[i]
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
                    if parts.count == 2 {
                        options[key] = parts[1]
                    } else {
                        guard i + 1 < args.count else { throw .usage("\(name) needs a value") }
                        i += 1
                        options[key] = args[i]
                    }
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
        return positional
    }
}

func printErr(_ s: String) {
    FileHandle.standardError.write(Data((s + "\n").utf8))
}
