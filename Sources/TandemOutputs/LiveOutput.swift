import TandemVocabulary
/// A real output (speech-dispatcher, BRLTTY): a sink that connects on `start`, reports what
/// happens through `report`, and never blocks or crashes the session when its daemon is
/// missing, hung or restarted (it reconnects by itself).
public protocol LiveOutput: OutputSink {
    var kind: OutputKind { get }
    /// Connects (or starts trying to, in the background) and keeps `report` for later events.
    func start(report: @escaping @Sendable (LiveOutputEvent) -> Void)
    /// Disconnects; no report is made after it returns.
    func stop()
}
