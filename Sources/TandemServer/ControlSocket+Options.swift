import Foundation
import Glibc

extension ControlSocket {
    /// How the server listens and what it allows each client. The defaults are the
    /// protocol's (Docs/server.md).
    public struct Options: Sendable {
        /// Where the socket file is made.
        public var path: String
        /// The directory holding the socket is the server's own (the default path's
        /// `$XDG_RUNTIME_DIR/tandem`): it is created 0700 when missing, and the server refuses
        /// to start when it is not a directory, belongs to another user, or is open to group or
        /// others. Otherwise (a path the user chose) the directory must exist and is not
        /// checked; the socket itself is 0600 and every peer is checked anyway.
        public var ownsDirectory: Bool
        /// Peers of this group (their gid, or the group in the user database lists their
        /// user) are allowed besides the server's own user.
        public var allowedGroup: gid_t?
        /// The longest line a client may send, in bytes without its ending.
        public var maxLine: Int = 1 << 20
        /// How long a client may leave a line half sent before it is disconnected. A client
        /// with no partial line may stay silent forever.
        public var stallTimeout: Duration = .seconds(10)
        /// The most bytes that may wait to be written to one client; a `send` that would go
        /// over disconnects the client instead.
        public var maxQueuedBytes: Int = 4 << 20
        /// The most bytes read from one client per round of the loop, so that every client
        /// gets its turn.
        public var readChunk: Int = 64 << 10
        /// The most lines of one client handed to the service and not yet `processed`; at the
        /// limit the server stops reading that client until the service catches up.
        public var maxPendingLines: Int = 256
        /// How long a closing connection is given to take its last lines (an error, a
        /// goodbye) before it is closed anyway.
        public var closeTimeout: Duration = .seconds(2)
        /// The most clients connected at once (closing ones included); one more is told so in
        /// an error line and closed, so a flood of connections cannot use up the service's
        /// descriptors or its time.
        public var maxClients: Int = 256
        /// listen(2)'s backlog.
        public var backlog: Int32 = 64
        /// A listening socket systemd made and passed (socket activation): it is served as it
        /// is, and its file is systemd's, so the server neither makes nor removes it.
        public var inherited: SocketActivation.Inherited?

        /// Tests: the uid the peer check compares with (the server's effective uid when nil).
        var serviceUID: uid_t?
        /// Tests: told, on the server's thread, how many bytes each read from a client gave.
        var observeRead: (@Sendable (ClientID, Int) -> Void)?

        public init(path: String, ownsDirectory: Bool = false, allowedGroup: gid_t? = nil) {
            self.path = path
            self.ownsDirectory = ownsDirectory
            self.allowedGroup = allowedGroup
        }

        /// The socket systemd passed (`SocketActivation.inherited`), served at its path.
        public static func activated(_ socket: SocketActivation.Inherited) -> Options {
            var o = Options(path: socket.path)
            o.inherited = socket
            return o
        }

        /// The default: `$XDG_RUNTIME_DIR/tandem/control.sock`, in a directory of the
        /// server's own.
        public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Options {
            Options(path: try ControlSocket.defaultPath(environment: environment), ownsDirectory: true)
        }
    }

    /// `$XDG_RUNTIME_DIR/tandem/control.sock`. Fails, saying so, when `XDG_RUNTIME_DIR` is
    /// unset, empty, not absolute or not a directory (the XDG rules: no other place is as
    /// private, so there is no fallback).
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
            throw ControlSocketError.noRuntimeDirectory(
                "XDG_RUNTIME_DIR is not set, so there is no default socket path; give one with --socket")
        }
        guard runtime.hasPrefix("/") else {
            throw ControlSocketError.noRuntimeDirectory(
                "XDG_RUNTIME_DIR is not an absolute path (\(runtime)); give a socket path with --socket")
        }
        var st = stat()
        guard stat(runtime, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
            throw ControlSocketError.noRuntimeDirectory(
                "XDG_RUNTIME_DIR (\(runtime)) is not a directory; give a socket path with --socket")
        }
        let base = runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime
        return base + "/tandem/control.sock"
    }
}
