import Foundation
#if canImport(Glibc)
import Glibc
import TandemPOSIX
#endif

/// A client of `tandem serve` over its Unix socket (Docs/server.md): whole lines out, whole
/// lines in. One thread uses a client at a time.
final class SocketClient: @unchecked Sendable {  // one thread at a time: a load generator's own thread, then the report's
    let fd: Int32
    /// Bytes read and not yet handed out as lines (the server's own line splitting).
    private var lines = LineBuffer(maxLine: Int.max)
    /// What `fill` reads into, one buffer for the client's life.
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    /// The service closed the connection.
    private(set) var closed = false
    /// Bytes read in all.
    private(set) var bytesRead = 0

    init(path: String) throws {
        fd = try Self.connected(to: path)
    }

    /// A new stream socket connected to the Unix socket at `path`; the caller closes it.
    static func connected(to path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchFailure("socket: \(String(cString: strerror(errno)))") }
        let result: Int32
        do {
            result = try withAddress(path) { connect(fd, $0, $1) }
        } catch {
            close(fd)
            throw error
        }
        guard result == 0 else {
            let e = errno
            close(fd)
            throw BenchFailure("cannot connect to \(path): \(String(cString: strerror(e)))")
        }
        return fd
    }

    /// Calls `body` with the `sockaddr_un` of `path` and its length (bind, connect).
    static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) throws -> Int32 {
        guard let result = UnixSocketAddress.with(path, body) else { throw BenchFailure("the socket path \(path) is too long") }
        return result
    }

    deinit { close(fd) }

    /// Writes one line (the newline is added); false once the connection is gone.
    @discardableResult
    func send(_ line: String) -> Bool { send(Array(line.utf8) + [10]) }

    /// Writes bytes whole, blocking while the socket is full; false once the connection is gone.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a connection the service closed is an answer (false), not SIGPIPE.
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    /// The next line (without its newline), waiting up to `timeoutMs` (0: only what has
    /// arrived); nil on timeout or once the connection is closed (`closed`).
    func readLine(timeoutMs: Int) -> [UInt8]? {
        let deadline = Monotonic.now() + UInt64(timeoutMs) * 1_000_000
        while true {
            if case .line(_, let line) = lines.next() { return line }
            if closed { return nil }
            let now = Monotonic.now()
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let wait = now >= deadline ? 0 : Int32((deadline - now) / 1_000_000) + 1
            if poll(&p, 1, wait) > 0 { fill() } else if now >= deadline { return nil }
        }
    }

    /// Reads and throws away whatever has arrived, without waiting; false once closed.
    @discardableResult
    func discardAvailable() -> Bool {
        while !closed {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 0) > 0 else { break }
            fill()
            lines.discard()
        }
        return !closed
    }

    /// Blocks until something arrives or `timeoutMs` passes, and throws it away; false once closed.
    @discardableResult
    func discard(timeoutMs: Int) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        if poll(&p, 1, Int32(timeoutMs)) > 0 { fill() }
        lines.discard()
        return !closed
    }

    private func fill() {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n > 0 {
            chunk.withUnsafeBytes { lines.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            bytesRead += n
        } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
            closed = true
        }
    }
}
