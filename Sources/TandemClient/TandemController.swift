import Synchronization
import TandemModel
import TandemProtocol
import TandemVocabulary

/// A controller connected to `tandem serve`: it drives the navigator as the user's keys do,
/// follows the transcript (what Tandem speaks, shows in braille, plays, and the events behind
/// them), asks for status and chooses the app in front.
///
///     let ctl = try TandemController()
///     try ctl.subscribe(channels: [.speech])
///     try ctl.command(.next)
///     try ctl.command(.activate, input: .keyboard)   // a keyboard's Enter: on a text field, starts typing
///     while let line = try ctl.nextTranscriptLine(timeout: .seconds(2)) { print(line.text ?? "") }
///
/// Every call but `nextTranscriptLine` waits for Tandem's reply and throws its error.
public final class TandemController: Sendable {
    public let connection: TandemConnection
    /// The channels `subscribe` asked for (nil: all). A service without the `channels` feature
    /// ignores the list and sends every channel; the lines of the others are dropped here.
    private let wanted = Mutex<Set<Channel>?>(nil)

    public init(socketPath: String? = nil, timeout: Duration = .seconds(5)) throws(TandemClientError) {
        connection = try TandemConnection(role: .controller, socketPath: socketPath, timeout: timeout)
    }

    /// The id Tandem gave this controller's connection.
    public var client: String { connection.client }

    /// The protocol features the service announced (Docs/protocol.md#features).
    public var features: ServerMessage.Features { connection.features }

    /// A navigator command, as a key would send it. `input` says what the key was pressed on
    /// (`command`'s `input`, Docs/protocol.md#controller): hints then name that method's keys,
    /// and `activate` on a text field from a keyboard or a braille display starts typing into
    /// it (Docs/keymaps.md#typing); nil leaves it to the service's profile. A service without
    /// the `commandInput` feature would ignore it, so the call throws `unsupported` instead,
    /// before sending anything.
    public func command(_ command: Command, input: InputMethod? = nil) throws(TandemClientError) {
        try self.command(named: command.name, input: input)
    }

    /// A command by its name as scenarios write it (`next`, `route 3`); Tandem checks it.
    /// `input` as for `command(_:input:)`.
    public func command(named name: String, input: InputMethod? = nil) throws(TandemClientError) {
        if input != nil { try connection.require(.commandInput) }
        try connection.request(Self.commandMessage(name, input: input))
    }

    /// The `command` message: its `input` only when given.
    private static func commandMessage(_ name: String, input: InputMethod?) -> JSONValue {
        .compact(["type": "command", "command": .string(name), "input": input.map { .string($0.rawValue) }])
    }

    /// Starts the transcript: from now on every line (of `channels` only, when given) comes
    /// from `nextTranscriptLine` and `transcript` — also from a service without the `channels`
    /// feature, which sends every channel (the others are dropped here).
    public func subscribe(channels: Set<Channel>? = nil) throws(TandemClientError) {
        let list = channels.map { set in JSONValue.array(Channel.allCases.filter(set.contains).map { .string($0.rawValue) }) }
        wanted.withLock { $0 = channels }
        try connection.request(.compact(["type": "subscribe", "channels": list]))
    }

    /// Stops the transcript.
    public func unsubscribe() throws(TandemClientError) {
        try connection.request(["type": "unsubscribe"])
    }

    /// The next transcript line, or nil when none comes within `timeout` (nil: wait as long as
    /// it takes). Tandem's errors about messages sent without waiting are thrown as `rejected`.
    public func nextTranscriptLine(timeout: Duration? = nil) throws(TandemClientError) -> TranscriptEntry? {
        while true {
            guard let message = try connection.receive(timeout: timeout) else { return nil }
            switch message {
            case .transcript(let line):
                if let entry = TranscriptEntry(json: line), isWanted(entry) { return entry }
            case .error(let e):
                throw connection.rejection(e)
            case .welcome, .ack, .action, .focus, .status:
                continue
            }
        }
    }

    /// Whether `entry` is of a channel `subscribe` asked for (every line when it named none).
    private func isWanted(_ entry: TranscriptEntry) -> Bool {
        wanted.withLock { set in set.map { entry.channel.map($0.contains) ?? false } ?? true }
    }

    /// The transcript as a blocking sequence: it ends when the connection does (see
    /// `connection.closeReason`) or when Tandem refuses something.
    public var transcript: TranscriptLines { TranscriptLines(controller: self) }

    /// Tandem's state: the apps, which is in front, whether speech and braille are reachable,
    /// the front app's screen and focus.
    public func status() throws(TandemClientError) -> StatusReport {
        guard case .status(let report) = try connection.request(["type": "status"]) else {
            throw .invalid("Tandem answered status with something else")
        }
        return report
    }

    /// Brings the app with this name to the front.
    public func foreground(name: String) throws(TandemClientError) {
        try connection.request(["type": "foreground", "name": .string(name)])
    }

    /// Brings the app with this client id (`c2`) to the front.
    public func foreground(client: String) throws(TandemClientError) {
        try connection.request(["type": "foreground", "client": .string(client)])
    }

    /// An announcement, spoken whichever app is in front (`tandem ctl say`).
    public func announce(_ text: String, priority: AnnouncementPriority = .default) throws(TandemClientError) {
        try connection.request(TandemApp.announcement(text, priority: priority))
    }

    public func close() { connection.close() }
}

/// A controller's transcript, line by line, blocking for each.
public struct TranscriptLines: Sequence, IteratorProtocol, Sendable {
    let controller: TandemController

    public mutating func next() -> TranscriptEntry? {
        try? controller.nextTranscriptLine()
    }
}
