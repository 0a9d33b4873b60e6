import CLinux
import Foundation
import Glibc
import Synchronization

/// A stand-in for `tandem serve` on a socket in a temporary folder, for one client: it answers
/// that client's first line (its `hello`) with the `welcome` line it was given, each later line
/// with what `answer` returns for it (nothing by default), and keeps every line received. For a client's behaviour against a service
/// that says what the real one does not (an older service's `welcome`, a newer one's).
public final class ScriptedTandem: Sendable {
    public let folder: String
    public let socket: String
    private let state: State

    /// Listens at `<folder>/control.sock`; the first client to connect gets `welcome` (one JSON
    /// line, without its newline) after its first line, and `answer(line)` after each later one.
    public init(welcome: String, answer: @escaping @Sendable (String) -> [String] = { _ in [] }) throws {
        folder = try temporaryDirectory(prefix: "tandem-scripted")
        socket = folder + "/control.sock"
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("socket: \(String(cString: strerror(errno)))") }
        guard UnixSocketAddress.bind(fd, socket) == 0, listen(fd, 1) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw TestSupportError("listen on \(socket): \(reason)")
        }
        let state = State(listener: fd)
        self.state = state
        let line = Array((welcome + "\n").utf8)
        Thread.detachNewThread { state.serve(welcome: line, answer: answer) }
    }

    /// The lines received so far, the `hello` first.
    public var lines: [String] { state.lines }

    /// The `count`-th line received (from 1), waiting for it up to `timeout`; nil if none came.
    public func line(_ count: Int, timeout: Duration = .seconds(10)) -> String? {
        let (ok, last) = waitFor(timeout: timeout, { lines }, until: { $0.count >= count })
        return ok ? last?[count - 1] : nil
    }

    deinit {
        state.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The serving thread's descriptors and what it received. Each descriptor is closed by that
    /// thread alone; `stop` only shuts down one still open (so never a number reused since).
    private final class State: Sendable {
        private struct Held {
            var listener: Int32
            var connection: Int32 = -1
            var received: [String] = []
        }
        private let held: Mutex<Held>
        private let finished = DispatchSemaphore(value: 0)

        init(listener: Int32) { held = Mutex(Held(listener: listener)) }

        var lines: [String] { held.withLock { $0.received } }

        func serve(welcome: [UInt8], answer: (String) -> [String]) {
            defer { finished.signal() }
            let listening = held.withLock { $0.listener }
            var conn: Int32
            repeat { conn = accept4(listening, nil, nil, Int32(SOCK_CLOEXEC.rawValue)) } while conn < 0 && errno == EINTR
            held.withLock { h in
                h.listener = -1
                if conn >= 0 { h.connection = conn }
            }
            Glibc.close(listening)
            guard conn >= 0 else { return }
            var pending = LineBuffer(maxLine: Int.max)
            var chunk = [UInt8](repeating: 0, count: 4096)
            reading: while true {
                let n = recv(conn, &chunk, chunk.count, 0)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                chunk.withUnsafeBytes { pending.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                while case .line(_, let bytes) = pending.next() {
                    let text = String(decoding: bytes, as: UTF8.self)
                    let first = held.withLock { h -> Bool in
                        h.received.append(text)
                        return h.received.count == 1
                    }
                    let reply = first ? welcome : Array(answer(text).map { $0 + "\n" }.joined().utf8)
                    var sent = 0
                    while sent < reply.count {
                        let w = reply[sent...].withUnsafeBytes { send(conn, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                        if w < 0 && errno == EINTR { continue }
                        guard w > 0 else { break reading }
                        sent += w
                    }
                }
            }
            held.withLock { $0.connection = -1 }
            Glibc.close(conn)
        }

        /// Wakes the serving thread (its accept or recv returns) and waits until it has closed
        /// what it holds.
        func stop() {
            held.withLock { h in
                if h.listener >= 0 { _ = shutdown(h.listener, Int32(SHUT_RDWR)) }
                if h.connection >= 0 { _ = shutdown(h.connection, Int32(SHUT_RDWR)) }
            }
            finished.wait()
        }
    }
}
