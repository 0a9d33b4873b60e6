/// Which live output.
public enum OutputKind: String, Sendable, Hashable {
    case speech, braille
}

/// An output went away or came back: what the session is told, and the transcript logs as an
/// `output` event.
public struct OutputStatus: Sendable, Hashable {
    public var output: OutputKind
    public var available: Bool
    /// For people (and the transcript).
    public var message: String
    public init(_ output: OutputKind, available: Bool, message: String) {
        self.output = output; self.available = available; self.message = message
    }
}

/// What a live output reports back to the session that drives it. Outputs call their
/// reporter from any thread; the runner queues the report and handles it on its own thread.
public enum LiveOutputEvent: Sendable, Hashable {
    /// speech-dispatcher began, finished or cancelled the utterance with this `Spoken.id`.
    case speechBegan(Int)
    case speechEnded(Int)
    case speechCancelled(Int)
    /// The output went away or came back.
    case status(OutputStatus)
    /// A braille display key, as a BRLTTY command name (`LNDN`, `FWINRT`, `ROUTE`) with its
    /// argument (the routing key's cell) when it has one.
    case brailleCommand(name: String, argument: Int?)
    /// The braille display reported its size (cells in a line).
    case displaySize(columns: Int)
}
