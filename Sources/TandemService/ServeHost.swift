import TandemServer
import TandemSession
import TandemVocabulary

/// `tandem serve`'s wiring between the control socket and the runner: a client's connection,
/// lines and leaving become the runner's input, and what the service has for its clients goes
/// back out on the socket, each client named by the same `ClientID` end to end. The socket is
/// served on the runner's own thread (`HostedServer`), so a client's line is read on the thread
/// that acts on it.
public final class ServeHost: Sendable {
    /// What the host tells the person running the service (the executable writes it to
    /// standard error or the journal).
    public enum Note: Sendable, Hashable {
        case connected(ClientID, peer: String)
        case disconnected(ClientID, reason: String)
        case refused(peer: String, reason: String)
    }

    public let socket: ControlSocket
    private let hosted: HostedServer

    /// Listens at `options.path` and hands the runner its clients: sets the runner's `host`,
    /// `deliver` and `lineHandled` (so, before the runner's `run`). `afterFlush` runs after
    /// each batch's replies are written (the transcript file's flush).
    public init(runner: LiveRunner, options: ControlSocket.Options, afterFlush: (@Sendable () -> Void)? = nil,
                note: @escaping @Sendable (Note) -> Void = { _ in }) throws {
        let socket = ControlSocket(options: options) { event in
            switch event {
            case .connected(let id, let peer):
                note(.connected(id, peer: peer.description))
                runner.send(.clientConnected(id))
            case .line(let id, let number, let bytes):
                runner.send(.clientLine(id, line: number, bytes: bytes))
            case .disconnected(let id, let reason):
                note(.disconnected(id, reason: reason))
                runner.send(.clientDisconnected(id))
            case .rejected(let peer, let reason):
                note(.refused(peer: peer.description, reason: reason))
            }
        }
        runner.hooks.deliver = { items in
            for item in items {
                switch item {
                case .send(let client, let message): socket.send(client, Array(message.json.utf8))
                case .close(let client): socket.close(client)
                }
            }
        }
        runner.hooks.lineHandled = { socket.processed($0) }
        let hosted = try socket.startHosted()
        runner.hooks.host = RunnerHost(serve: { hosted.serve(atMost: $0) },
                                 flush: { hosted.flush(); afterFlush?() },
                                 wake: { hosted.wake() })
        self.socket = socket
        self.hosted = hosted
    }

    /// Stops serving once the runner has returned: the socket file removed, what is queued
    /// written once more, every connection closed.
    public func finish() { hosted.finish() }
}
