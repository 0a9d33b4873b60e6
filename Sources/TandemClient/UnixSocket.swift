import Glibc
internal import TandemPOSIX

/// A connected Unix stream socket: the few calls a client makes on it. Not thread-safe by
/// itself; `TandemConnection` gives each direction to one thread.
struct UnixSocket: Sendable {
    let fd: Int32

    /// Connects to `path`; the error names the path and the reason.
    static func connect(to path: String) throws(TandemClientError) -> UnixSocket {
        guard path.utf8.count <= UnixSocketAddress.maxPathBytes else {
            throw .unavailable("the socket path \(path) is longer than a Unix socket address allows (\(UnixSocketAddress.maxPathBytes) bytes)")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .unavailable("cannot make a socket: \(String(cString: strerror(errno)))") }
        var result: Int32
        repeat {
            result = UnixSocketAddress.connect(fd, path)
        } while result != 0 && errno == EINTR
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw .unavailable("no tandem serve answers at \(path) (\(reason)); start one with `tandem serve`")
        }
        return UnixSocket(fd: fd)
    }

    /// Writes all of `bytes`; false when the peer is gone. Never raises SIGPIPE.
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    /// Reads what is there (blocking for the first byte): nil at the end of the connection,
    /// with the reason.
    func read(into buffer: inout [UInt8]) -> Result<Int, ReadEnd> {
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { return .success(n) }
            if n == 0 { return .failure(ReadEnd(reason: TandemConnection.closedByService)) }
            if errno == EINTR { continue }
            return .failure(ReadEnd(reason: "the connection to Tandem failed: \(String(cString: strerror(errno)))"))
        }
    }

    struct ReadEnd: Error { let reason: String }

    /// Wakes a blocked `read` (it returns the end) and refuses further writes.
    func shutdown() { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    func close() { _ = Glibc.close(fd) }
}
