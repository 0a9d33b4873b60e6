import Dispatch
import Foundation
import Synchronization
import TandemClient
import TandemNavigator
import TandemPresentation
import TandemProtocol
import TandemService
import TandemSession
import TandemVocabulary

/// `tandem run --connect`: the terminal front end of `tandem run` on a running service instead
/// of a catalog. Terminal keys (the profile's terminal map, `KeyMap.defaultTerminal` unless it
/// says otherwise) go to the service as `command` messages; its transcript comes back and is
/// printed as `tandem run` prints its own session. Speech and braille are the service's, so
/// none is opened here. Commands say they came from a keyboard (`input`), so hints name keys
/// and Enter on a text field starts typing into it; while the service reports that (`status`'s
/// `editing`), a key that types goes to the field as `type`, `delete` or `clear` instead of
/// its binding, `q` and `?` too (Docs/keymaps.md#typing).
enum ConnectedRun {
    static func run(_ args: Arguments) throws(CLIError) -> Int32 {
        _ = try args.exactly(0, "no catalog with --connect (the service has the apps)")
        let profile = try ReplayInputs.loadProfile(args.options["--profile"], from: ProfileStore())
        let keyMap = profile.keyMap
        // The help key's words in the profile's language (the service speaks the app's).
        let phrases = Phrases.forLanguage(profile.language ?? "en")
        let ctl: TandemController
        let report: StatusReport
        do throws(TandemClientError) {
            ctl = try TandemController(socketPath: socketPath(args))
            try ctl.subscribe(channels: [.speech, .braille])
            report = try ctl.status()
        } catch {
            throw .unavailable(error.description)
        }
        let sent = Sent(keyMap: keyMap, phrases: phrases, input: ctl.connection.features.contains(.commandInput) ? .keyboard : nil)

        let view = ScreenView(wanted: true)
        let terminal = Terminal()
        let ending = Ending()
        // Leave cleanly on SIGINT and SIGTERM: the terminal is restored below.
        let signals = [SIGINT, SIGTERM].map { sig -> any DispatchSourceSignal in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { ending.end(0) }
            source.resume()
            return source
        }

        terminal.enterRawMode()
        printErr("tandem: connected to \(ctl.connection.socketPath) as \(ctl.client); \(whereTheUserIs(report)); ? says the keys, q quits")
        // Not waited for: keys go as fast as they are typed; a refusal comes back with the
        // transcript.
        @Sendable func send(_ command: Command) {
            do throws(TandemClientError) { try ctl.connection.send(sent.message(for: command)) } catch {
                ending.end(69, TandemConnection.endSentence(ctl.connection.closeReason ?? "\(error)"))
            }
        }
        let keys = Thread {
            var decoder = TerminalKeyDecoder()
            while true {
                let bytes = terminal.read()
                if bytes.isEmpty { ending.end(0); return }
                var pressed = decoder.feed(bytes)
                // A lone ESC is Escape only if nothing follows it quickly.
                if decoder.hasPending && !terminal.waitForInput(ms: 40) { pressed += decoder.flush() }
                for key in pressed {
                    // A key that would type asks the service first whether the user is typing
                    // into a field: one status round trip, in order after the keys before it.
                    if sent.input != nil, let typing = KeyMap.typingCommand(forTerminalKey: key),
                       (try? ctl.status())?.editing != nil {
                        send(typing)
                        continue
                    }
                    switch keyMap.terminalAction(key) {
                    case .command(let c)?: send(c)
                    case .quit?: ending.end(0); return
                    case nil: break
                    }
                }
            }
        }
        keys.start()
        let transcript = Thread {
            while true {
                do throws(TandemClientError) {
                    guard let entry = try ctl.nextTranscriptLine() else { continue }
                    if let line = Self.viewLine(entry) { view.print(line: line) }
                } catch {
                    guard case .rejected = error else {
                        ending.end(69, TandemConnection.endSentence(ctl.connection.closeReason ?? error.description))
                        return
                    }
                    printErr("tandem: error: \(error)")
                }
            }
        }
        transcript.start()

        let (status, message) = ending.wait()
        terminal.restore()
        ctl.close()
        signals.forEach { $0.cancel() }
        if let message { printErr("tandem: \(message)") }
        return status
    }

    /// What a key's command becomes on the wire.
    struct Sent: Sendable {
        let keyMap: KeyMap
        let phrases: Phrases
        /// The input method commands say they came from; nil when the service does not take
        /// it (no `commandInput` among its features).
        var input: InputMethod?

        /// The help key says this terminal's keys (the service's own help knows only its
        /// command table), as an announcement the service speaks; any other command is sent
        /// as the user's.
        func message(for command: Command) -> JSONValue {
            if command == .help { return ["type": "notify", "notification": "announcement", "text": .string(keyMap.terminalHelp(phrases))] }
            return .compact(["type": "command", "command": .string(command.name), "input": input.map { .string($0.rawValue) }])
        }
    }

    /// Which app is in front and where its focus is, or that no app has shown a screen yet.
    static func whereTheUserIs(_ report: StatusReport) -> String {
        guard let front = report.apps.first(where: \.foreground) else { return "no app has shown a screen yet" }
        return "in front: \(front.name)" + (report.screen.map { ", screen \($0)" } ?? "") + (report.focus.map { ", on \($0)" } ?? "")
    }

    /// `--connect PATH`, else `--socket PATH`, else nil (the default socket).
    static func socketPath(_ args: Arguments) -> String? {
        if let path = args.options["--connect"], !path.isEmpty { return path }
        return args.options["--socket"]
    }

    /// A transcript line as `tandem run`'s terminal view shows it (speech spoken, braille
    /// frames); nil for the rest.
    static func viewLine(_ entry: TranscriptEntry) -> String? {
        if let spoken = entry.spoken { return ScreenView.speechLine(spoken) }
        guard entry.channel == .braille, let cells = entry.string("cells") else { return nil }
        // `window` is "k/n"; shown only when there are several.
        let window = entry.string("window").flatMap { w in w.split(separator: "/").last.flatMap { Int($0) }.map { $0 > 1 ? w : nil } } ?? nil
        var flash = false
        if case .bool(true)? = entry["flash"]?.kind { flash = true }
        return ScreenView.brailleLine(cells: cells, text: entry.text ?? "", window: window, flash: flash)
    }

    /// How the session ends: the first of the keys, a signal or the service going away says
    /// with what status and message.
    final class Ending: Sendable {
        private let outcome = Mutex<(Int32, String?)?>(nil)
        private let ended = DispatchSemaphore(value: 0)

        func end(_ status: Int32, _ message: String? = nil) {
            let first = outcome.withLock { o in
                guard o == nil else { return false }
                o = (status, message)
                return true
            }
            if first { ended.signal() }
        }

        func wait() -> (Int32, String?) {
            ended.wait()
            return outcome.withLock { $0 } ?? (0, nil)
        }
    }
}
