import TandemProtocol

/// Why a client call failed.
public enum TandemClientError: Error, Sendable, CustomStringConvertible {
    /// No service answers at the socket (none running, a wrong path, no `XDG_RUNTIME_DIR`).
    case unavailable(String)
    /// Tandem refused a message: its sentence, the line it counted, and what this client sent
    /// on that line when it still remembers it.
    case rejected(ProtocolError, sent: String?)
    /// The connection ended (Tandem stopped, or `close()` was called); the reason.
    case closed(String)
    /// No reply came in time.
    case timedOut(String)
    /// Tandem sent a line this client cannot read (a newer protocol, or a broken peer); the
    /// line and what is wrong with it. Reading may go on.
    case undecodable(line: String, ProtocolError)
    /// The message cannot be sent as it is (too long for Tandem's limit).
    case invalid(String)
    /// The service did not announce the protocol feature a call needs (an older service, or
    /// another implementation of the protocol's core), so nothing was sent; what it did announce.
    case unsupported(ProtocolFeature, announced: ServerMessage.Features)

    public var description: String {
        switch self {
        case .unavailable(let m), .closed(let m), .timedOut(let m), .invalid(let m): m
        case .rejected(let e, let sent):
            (e.line > 0 ? "line \(e.line): " : "") + e.message + (sent.map { " (sent: \($0))" } ?? "")
        case .undecodable(let line, let e): "Tandem sent a line this client cannot read (\(e.message)): \(line.prefix(200))"
        case .unsupported(let feature, let announced):
            "the service did not announce the protocol feature \"\(feature.rawValue)\" (its features: \(announced)), "
                + "so the message was not sent (Docs/protocol.md#features)"
        }
    }
}
