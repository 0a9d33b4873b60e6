import TandemModel
import TandemNavigator
import TandemVocabulary

/// Everything that reaches a session, whatever its source: a scenario line, a terminal or
/// braille display key, an output's report, a client of `tandem serve`, a recording played
/// back. Every driver hands it to `SessionCore.apply(_:at:)`, the one place that decides how
/// an input is dispatched, what the service hears of it and when the instant settles.
public enum SessionInput: Sendable {
    /// Speaks and shows where the user is at the start (in `tandem serve`: the `--catalog`
    /// app, or that no app is connected); with `helpHint`, how to get help follows as the hint.
    case open(helpHint: Bool = false)
    /// A command from the user; `fromDisplay` when a braille display key gave it (its help then
    /// lists the display's keys).
    case command(Command, fromDisplay: Bool = false)
    /// A key from `tandem run`'s terminal, as pressed: the session decides what it does — the
    /// key map's binding, or while the user types into a text field the text it types
    /// (`SessionCore.press(for:)`, Docs/keymaps.md#typing).
    case terminalKey(TerminalKey)
    /// An app notification or effect from outside the user (a scenario's `post` or `screen`).
    case post(Effect)
    /// What a live output reported: speech began, ended or was cancelled, an output went away
    /// or came back, a display key, the display's size.
    case output(LiveOutputEvent)
    /// A new catalog (a live reload); focus stays on the same element id when it still exists.
    case reload(Catalog)
    /// An edited catalog that failed to load; the last good one stays in use.
    case catalogError(String)
    case profile(Profile)
    /// A scenario's `expect` on line `line`: the last focus speech must contain `text`.
    case expect(file: String, line: Int, text: String)
    /// A scenario's `expect-action` on line `line`: the actions rotor must have the custom
    /// action `name` selected on the focused element (`nil`: none).
    case expectAction(file: String, line: Int, name: String?)
    /// A client of `tandem serve` connected, sent a line (numbered from 1 on its connection),
    /// or left (Docs/protocol.md).
    case clientConnected(ClientID)
    case clientLine(ClientID, line: Int, bytes: [UInt8])
    case clientDisconnected(ClientID)
}

extension SessionInput {
    /// The same input as a recording writes it (`--record`), or nil for input a recording
    /// does not keep. A display key is recorded as the command it gave (`keyMap`).
    func recorded(keyMap: KeyMap) -> RecordedInput? {
        switch self {
        case .open: .open
        case .command(let c, let display): .key(c, display: display)
        case .clientConnected(let c): .connect(client: c)
        case .clientLine(let c, let n, let bytes): .line(client: c, number: n, bytes: bytes)
        case .clientDisconnected(let c): .disconnect(client: c)
        case .output(.status(let s)): .output(s)
        case .output(.displaySize(let columns)): .displayWidth(columns)
        case .output(.speechBegan(let id)): .speech(.begin, id: id)
        case .output(.speechEnded(let id)): .speech(.end, id: id)
        case .output(.speechCancelled(let id)): .speech(.cancel, id: id)
        case .output(.brailleCommand(let name, let argument)):
            keyMap.command(forBrailleCommand: name, argument: argument).map { .key($0, display: true) }
        case .post, .reload, .catalogError, .profile, .expect, .expectAction: nil
        // Recorded as the command it gave, once the session has resolved it (`SessionCore.apply`).
        case .terminalKey: nil
        }
    }

    /// What a recorded input was (`start` and `stop` are the recording's frame, not input).
    public init?(_ recorded: RecordedInput) {
        switch recorded {
        case .start, .stop: return nil
        case .open: self = .open()
        case .key(let c, let display): self = .command(c, fromDisplay: display)
        case .connect(let c): self = .clientConnected(c)
        case .line(let c, let n, let bytes): self = .clientLine(c, line: n, bytes: bytes)
        case .disconnect(let c): self = .clientDisconnected(c)
        case .output(let s): self = .output(.status(s))
        case .displayWidth(let w): self = .output(.displaySize(columns: w))
        case .speech(.begin, let id): self = .output(.speechBegan(id))
        case .speech(.end, let id): self = .output(.speechEnded(id))
        case .speech(.cancel, let id): self = .output(.speechCancelled(id))
        }
    }
}
