import Foundation
import TandemModel
import TandemOutputs
import TandemService
import TandemSession

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
        case let name:
            if let command = Subcommand.named(name) { return run(rest, command) }
            printErr("tandem: error: unknown command \"\(sub)\"\n\n" + Help.overview)
            return 64
        }
    }

    static func run(_ args: [String], _ command: Subcommand) -> Int32 {
        let usage = command.help
        if args.contains("-h") || args.contains("--help") {
            print(usage)
            return 0
        }
        do {
            return try command.run(Arguments(args, for: command))
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

/// Positional arguments and the options a subcommand declares (`Subcommand.options`),
/// `--name value` or `--name=value`. `-` alone is a positional argument (standard input).
struct Arguments {
    var positional: [String] = []
    /// The last value of each option.
    var options: [String: String] = [:]
    /// Every value of each option, in order (`--disable a --disable b`).
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    /// Reads `args` against the options `command` declares: any other option is a usage
    /// error naming the subcommand. An alias is stored under the option's name.
    init(_ args: [String], for command: Subcommand) throws(CLIError) {
        var i = 0
        while i < args.count {
            let a = args[i]
            i += 1
            guard a.count > 1, a.hasPrefix("-") else {
                positional.append(a)
                continue
            }
            var (word, attached) = Self.split(a)
            guard let option = command.option(spelled: word) else {
                // A single dash that no subcommand declares is an argument (`-` is standard input).
                guard word.hasPrefix("--") || Subcommand.anyTakes(word) else {
                    positional.append(a)
                    continue
                }
                if Subcommand.anyTakes(word) { throw .usage("tandem \(command.name) does not take \(word)") }
                throw .usage("unknown option \(word) for tandem \(command.name)")
            }
            word = option.name
            switch option.value {
            case .none:
                guard attached == nil else { throw .usage("\(a): \(word) takes no value") }
                flags.insert(word)
            case .optional:
                if attached == nil, i < args.count, !args[i].hasPrefix("-") {
                    attached = args[i]
                    i += 1
                }
                options[word] = attached ?? ""
            case .required:
                if attached == nil {
                    guard i < args.count else { throw .usage("\(word) needs a value") }
                    attached = args[i]
                    i += 1
                }
                options[word] = attached!
                values[word, default: []].append(attached!)
            }
        }
    }

    /// `--name=value` and `-jN` as (name, value); otherwise (word, nil).
    private static func split(_ a: String) -> (String, String?) {
        if a.hasPrefix("--") {
            guard let eq = a.firstIndex(of: "=") else { return (a, nil) }
            return (String(a[..<eq]), String(a[a.index(after: eq)...]))
        }
        // A short option is two characters; what follows is its value (`-j4`).
        let short = String(a.prefix(2))
        return a.count > 2 && Subcommand.anyTakes(short) ? (short, String(a.dropFirst(2))) : (a, nil)
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
