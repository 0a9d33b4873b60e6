import Foundation
import Glibc

/// systemd's socket activation (sd_listen_fds(3)): a `tandem.socket` unit listens on the
/// control socket and starts `tandem serve` on the first connection, handing it the listening
/// socket as descriptor 3 with `LISTEN_PID` (the service's pid) and `LISTEN_FDS` (1) set.
/// Docs/protocol.md#systemd.
public enum SocketActivation {
    /// The first descriptor passed (SD_LISTEN_FDS_START).
    static let firstDescriptor: Int32 = 3

    /// A listening socket handed over by systemd: its descriptor and the path it is bound to.
    public struct Inherited: Sendable, Hashable {
        public let descriptor: Int32
        public let path: String
    }

    /// The listening socket passed to this process, or nil when none was (`LISTEN_PID` unset
    /// or another process's). The variables are removed from the environment either way, so
    /// no child takes them for its own. Throws when what was passed is not one listening Unix
    /// stream socket bound to a path.
    public static func inherited(environment: [String: String] = ProcessInfo.processInfo.environment,
                                 pid: pid_t = getpid()) throws -> Inherited? {
        defer { for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) } }
        guard let listenPID = environment["LISTEN_PID"], pid_t(listenPID) == pid else { return nil }
        guard let text = environment["LISTEN_FDS"], let count = Int32(text), count >= 1 else {
            throw ControlSocketError.activation("LISTEN_PID is this process but LISTEN_FDS is \(environment["LISTEN_FDS"].map { "\"\($0)\"" } ?? "not set") (expected 1)")
        }
        guard count == 1 else {
            throw ControlSocketError.activation("systemd passed \(count) sockets (LISTEN_FDS=\(count)); the socket unit must have one ListenStream= line")
        }
        let fd = firstDescriptor
        func option(_ name: Int32) -> Int32? {
            var value: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(fd, SOL_SOCKET, name, &value, &size) == 0 ? value : nil
        }
        guard let domain = option(SO_DOMAIN), domain == AF_UNIX, option(SO_TYPE) == Int32(SOCK_STREAM.rawValue) else {
            throw ControlSocketError.activation("descriptor 3 is not a Unix stream socket (use ListenStream= with a path)")
        }
        guard option(SO_ACCEPTCONN) == 1 else {
            throw ControlSocketError.activation("descriptor 3 is not listening (the socket unit must not set Accept=yes)")
        }
        guard let path = boundPath(fd), !path.isEmpty else {
            throw ControlSocketError.activation("descriptor 3 is bound to no path (an abstract or unnamed socket); use ListenStream=%t/tandem/control.sock")
        }
        // Ours from now on: not passed to children, and never blocking the server's loop.
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return Inherited(descriptor: fd, path: path)
    }

    /// The filesystem path a Unix socket is bound to ("" for an unnamed or abstract one).
    static func boundPath(_ fd: Int32) -> String? {
        var address = sockaddr_un()
        var size = socklen_t(MemoryLayout<sockaddr_un>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &size) == 0 }
        }
        guard ok else { return nil }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
        guard Int(size) > pathOffset else { return "" }
        return withUnsafeBytes(of: &address.sun_path) { raw in
            let bytes = raw.prefix(Int(size) - pathOffset)
            guard bytes.first != 0 else { return "" }
            return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
