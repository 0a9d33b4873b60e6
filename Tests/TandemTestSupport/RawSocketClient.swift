import Foundation
import Glibc

/// A client of `tandem serve` that can misbehave: it writes raw bytes (half lines, floods,
/// oversize lines), and reads lines only when told (or never). For robustness tests.
public final class RawSocketClient: @unchecked Sendable {  // one test thread at a time reads it; the line buffer is its only mutable state
    public let fd: Int32
    /// What the service sent and no `readLine` took yet (the server's own line splitting).
    private var lines = LineBuffer(maxLine: Int.max)

    /// Connects to the Unix socket at `path`.
    public init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("socket: \(String(cString: strerror(errno)))") }
        guard UnixSocketAddress.connect(fd, path) == 0 else {
            // `deinit` runs on this throw (every stored property is set) and closes `fd`: closing
            // it here too would close another thread's descriptor that took the number meanwhile.
            throw TestSupportError("connect \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { Glibc.close(fd) }

    /// Writes all of `bytes` (blocking); false when the service closed the connection.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 { if errno == EINTR { continue }; return false }
            sent += n
        }
        return true
    }

    @discardableResult
    public func send(_ line: String) -> Bool { write(Array((line + "\n").utf8)) }

    /// The next whole line within `timeout`, or nil (timeout, or the connection closed).
    public func readLine(timeout: Duration = .seconds(10)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if case .line(_, let bytes) = lines.next() { return String(decoding: bytes, as: UTF8.self) }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&p, 1, ms) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { return nil }
            chunk.withUnsafeBytes { lines.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        }
    }

    /// Lines until one satisfies `predicate` (returned), or nil at the timeout.
    public func readLine(timeout: Duration = .seconds(10), until predicate: (String) -> Bool) -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard let line = readLine(timeout: deadline - ContinuousClock.now) else { return nil }
            if predicate(line) { return line }
        }
        return nil
    }

    /// Whether the service has closed the connection (reading what is left first).
    public func isClosed(within timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 50) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { return true }
            chunk.withUnsafeBytes { lines.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        }
        return false
    }
}
