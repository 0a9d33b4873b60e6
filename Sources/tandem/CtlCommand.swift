import Dispatch
import Foundation
import TandemClient
import TandemModel
import TandemNavigator
import TandemProtocol
import TandemVocabulary

/// `tandem ctl …`: a running service driven from a shell or a script, as a controller
/// (Docs/protocol.md#controller): send commands, follow the transcript, announce, ask for
/// status, bring an app to the front. Exit 0 when Tandem took every message, 1 with its error
/// on stderr when it refused one, 69 when no service answers.
enum CtlCommand {
    /// What was asked, checked before anything is sent.
    enum Request {
        case commands([String], input: InputMethod?)
        case listen(channels: Set<Channel>?)
        case say(String, AnnouncementPriority)
        case status
        case foreground(String)
    }

    static let subcommands = "command, listen, say, status, foreground"

    static func run(_ args: Arguments) throws(CLIError) -> Int32 {
        let request = try parse(args)
        do throws(TandemClientError) {
            return try perform(request, controller: TandemController(socketPath: args.options["--socket"]))
        } catch {
            switch error {
            case .rejected(let e, _):
                printErr("tandem: error: \(e.message)")
                return 1
            case .invalid(let m):
                printErr("tandem: error: \(m)")
                return 1
            case .unsupported:
                printErr("tandem: error: \(error.description)")
                return 1
            case .unavailable, .closed, .timedOut, .undecodable:
                throw .unavailable(error.description)
            }
        }
    }

    static func parse(_ args: Arguments) throws(CLIError) -> Request {
        guard let sub = args.positional.first else { throw .usage("expected what to do: \(subcommands)") }
        let words = Array(args.positional.dropFirst())
        if sub != "command", args.options["--input"] != nil { throw .usage("--input is for ctl command (the keys' input method)") }
        switch sub {
        case "command":
            return .commands(try commandNames(words), input: try args.options["--input"].map { (word) throws(CLIError) in try inputMethod(word) })
        case "listen":
            guard words.isEmpty else { throw .usage("listen takes no arguments") }
            return .listen(channels: try args.options["--channels"].map { (list) throws(CLIError) in try channels(list) })
        case "say":
            guard !words.isEmpty else { throw .usage("say needs the text to announce") }
            let p = args.options["--priority"] ?? "default"
            guard let priority = AnnouncementPriority(rawValue: p) else { throw .usage("--priority is high or default, found \"\(p)\"") }
            return .say(words.joined(separator: " "), priority)
        case "status":
            guard words.isEmpty else { throw .usage("status takes no arguments") }
            return .status
        case "foreground":
            guard words.count == 1 else { throw .usage("foreground needs the app's name") }
            return .foreground(words[0])
        default:
            throw .usage("unknown ctl command \"\(sub)\" (\(subcommands))")
        }
    }

    /// Command names as scenarios write them. A command that takes a number may have it as
    /// the next word (`route 3`) or in the same one (`"route 3"`); Tandem checks the names.
    static func commandNames(_ words: [String]) throws(CLIError) -> [String] {
        guard !words.isEmpty else { throw .usage("expected one or more commands (\(Command.table.map(\.usage).joined(separator: ", ")))") }
        var names: [String] = []
        var k = 0
        while k < words.count {
            var name = words[k]
            if Command.info(named: name)?.takesText == true, k + 1 < words.count {
                // `type "Hello world"`: the next word is the text, however many spaces it has.
                name += " " + words[k + 1]
                k += 1
            } else if Command.info(named: name)?.argument != nil, k + 1 < words.count, Int(words[k + 1]) != nil {
                name += " " + words[k + 1]
                k += 1
            }
            names.append(name)
            k += 1
        }
        return names
    }

    /// `--input`'s word: what the keys were pressed on (`command`'s `input`, Docs/protocol.md#controller).
    static func inputMethod(_ word: String) throws(CLIError) -> InputMethod {
        guard let method = InputMethod(rawValue: word) else {
            throw .usage("--input is \(InputMethod.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(word)\"")
        }
        return method
    }

    static func channels(_ list: String) throws(CLIError) -> Set<Channel> {
        var chosen = Set<Channel>()
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let c = Channel(rawValue: name) else { throw .usage("unknown channel \"\(name)\" (speech, braille, sound, event)") }
            chosen.insert(c)
        }
        return chosen
    }

    static func perform(_ request: Request, controller ctl: TandemController) throws(TandemClientError) -> Int32 {
        switch request {
        case .commands(let names, let input):
            // Each acknowledged before the next goes: the first refused ends the run. With
            // `--input`, a service without `commandInput` refuses before anything is sent.
            for name in names { try ctl.command(named: name, input: input) }
        case .listen(let channels):
            try ctl.subscribe(channels: channels)
            try listen(ctl)
        case .say(let text, let priority):
            try ctl.announce(text, priority: priority)
        case .status:
            var report = try ctl.status()
            report.requestID = nil
            print(ServerMessage.status(report).json)
        case .foreground(let name):
            try ctl.foreground(name: name)
        }
        return 0
    }

    /// Prints every transcript line until interrupted (which exits 0) or until the service
    /// goes away (thrown).
    static func listen(_ ctl: TandemController) throws(TandemClientError) -> Never {
        let signals = [SIGINT, SIGTERM, SIGPIPE].map { sig -> any DispatchSourceSignal in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { exit(0) }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        while true {
            do throws(TandemClientError) {
                guard let line = try ctl.nextTranscriptLine() else { continue }
                // Written at once, not buffered: a pipe's reader sees each line as it happens. A
                // reader that went away (`| head`) ends the listening.
                do { try FileHandle.standardOutput.write(contentsOf: Data((line.json + "\n").utf8)) } catch { exit(0) }
            } catch {
                guard case .rejected(let e, _) = error else { throw .closed(TandemConnection.endSentence(ctl.connection.closeReason ?? error.description)) }
                printErr("tandem: error: \(e.message)")
            }
        }
    }
}
