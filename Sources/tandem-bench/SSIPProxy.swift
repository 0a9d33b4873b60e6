import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
import TandemVocabulary
import TandemPOSIX
#endif

/// A Unix-socket relay between `tandem serve` and a real speech-dispatcher that notes when each
/// SSIP command passes and when its reply comes back, on the benchmark's monotonic clock, so
/// that `serve-load` can time a command all the way to the `SPEAK` Tandem writes and take out
/// the time speech-dispatcher itself spent answering (Docs/benchmarks.md#serve-load).
///
/// Bytes are forwarded as they come, before they are looked at; the relay adds one local hop
/// each way (a few µs), which counts against Tandem in the figures.
final class SSIPProxy: Sendable {
    /// One command line Tandem wrote, on one connection, and when its final reply came.
    struct Command: Sendable {
        var connection: Int
        /// The first word, upper-cased (`SPEAK`, `CANCEL`, `SET`, …).
        var verb: String
        var wrote: UInt64
        var replied: UInt64?
    }

    let path: String
    private let upstream: String
    private let listener: Int32
    private let state = Mutex<(commands: [Command], names: [Int: String], nextConnection: Int, begins: [(connection: Int, at: UInt64)])>(([], [:], 0, []))

    /// Listens at `path`; each connection is relayed to the speech-dispatcher socket `upstream`.
    init(path: String, upstream: String) throws {
        self.path = path
        self.upstream = upstream
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw BenchFailure("socket: \(String(cString: strerror(errno)))") }
        unlink(path)
        let bound: Int32
        do {
            bound = try SocketClient.withAddress(path) { bind(listener, $0, $1) }
        } catch {
            close(listener)
            throw error
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            let e = errno
            close(listener)
            throw BenchFailure("cannot listen at \(path): \(String(cString: strerror(e)))")
        }
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Commands seen since `since` on the connection whose client name ends in `component`
    /// (Tandem names each of its connections `user:tandem:COMPONENT`).
    func commands(since: UInt64, component: String) -> [Command] {
        state.withLock { s in
            let connections = Self.connections(of: component, names: s.names)
            return s.commands.filter { $0.wrote >= since && connections.contains($0.connection) }
        }
    }

    /// When the last message of that component began, if every message it was sent has begun
    /// (nil while one has not; 0 when none was ever sent).
    func allBegun(component: String) -> UInt64? {
        state.withLock { s in
            let connections = Self.connections(of: component, names: s.names)
            let begun = s.begins.last { connections.contains($0.connection) }?.at ?? 0
            guard let spoke = s.commands.last(where: { $0.verb == "SPEAK" && connections.contains($0.connection) })?.wrote else { return begun }
            return begun >= spoke ? begun : nil
        }
    }

    /// The connections whose client name ends in `:component`.
    private static func connections(of component: String, names: [Int: String]) -> Set<Int> {
        Set(names.filter { $0.value.hasSuffix(":" + component) }.keys)
    }

    /// Forgets commands older than `before` (a long run would otherwise keep them all).
    func forget(before: UInt64) {
        state.withLock { s in
            s.commands.removeAll { $0.wrote < before && $0.replied != nil }
            s.begins.removeAll { $0.at < before }
        }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            guard let server = try? SocketClient.connected(to: upstream) else { close(client); continue }
            let id = state.withLock { s in
                defer { s.nextConnection += 1 }
                return s.nextConnection
            }
            // Each direction on a thread of its own; the first to see its end closes both.
            let pair = Pair(client: client, server: server)
            let done = DispatchGroup()
            done.enter()
            Thread { [self] in pump(from: client, to: server) { self.sawCommandBytes($0, connection: id, at: $1) }; pair.end(); done.leave() }.start()
            done.enter()
            Thread { [self] in pump(from: server, to: client) { self.sawReplyBytes($0, connection: id, at: $1) }; pair.end(); done.leave() }.start()
            done.notify(queue: .global()) { close(client); close(server) }
        }
    }

    /// The two sockets of one relayed connection.
    final class Pair: Sendable {
        let client: Int32, server: Int32
        private let ended = Atomic<Bool>(false)
        init(client: Int32, server: Int32) { self.client = client; self.server = server }
        /// Shuts both down once (either direction's end ends the other's read).
        func end() {
            if !ended.exchange(true, ordering: .relaxed) { shutdown(client, Int32(SHUT_RDWR)); shutdown(server, Int32(SHUT_RDWR)) }
        }
    }

    /// Copies bytes until either side closes; `look` sees each read after it was forwarded,
    /// with the time it was read.
    private func pump(from source: Int32, to sink: Int32, look: (ArraySlice<UInt8>, UInt64) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            let at = Monotonic.now()
            var offset = 0
            while offset < n {
                let w = buffer.withUnsafeBytes { send(sink, $0.baseAddress! + offset, n - offset, Int32(MSG_NOSIGNAL)) }
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { return }
                offset += w
            }
            look(buffer[0..<n], at)
        }
    }

    // MARK: reading SSIP as it passes

    /// Per connection: the partial line of each direction, and whether SPEAK's text is passing.
    private let lines = Mutex<[Int: (command: [UInt8], reply: [UInt8], inText: Bool)]>([:])

    private func sawCommandBytes(_ bytes: ArraySlice<UInt8>, connection: Int, at time: UInt64) {
        for line in complete(bytes, connection: connection, commands: true) {
            let text = String(decoding: line, as: UTF8.self)
            let inText = lines.withLock { $0[connection]?.inText ?? false }
            if inText {
                // The text's end is answered like a command of its own (225 after SPEAK's 230).
                guard text == "." else { continue }
                lines.withLock { $0[connection]?.inText = false }
                state.withLock { $0.commands.append(Command(connection: connection, verb: "DATA", wrote: time)) }
                continue
            }
            let verb = text.split(separator: " ").first.map { $0.uppercased() } ?? ""
            if verb == "SPEAK" { lines.withLock { $0[connection]?.inText = true } }
            state.withLock { s in
                if text.uppercased().hasPrefix("SET SELF CLIENT_NAME ") { s.names[connection] = String(text.dropFirst(21)) }
                s.commands.append(Command(connection: connection, verb: verb, wrote: time))
            }
        }
    }

    private func sawReplyBytes(_ bytes: ArraySlice<UInt8>, connection: Int, at time: UInt64) {
        for line in complete(bytes, connection: connection, commands: false) {
            // A final reply is "NNN text"; "NNN-text" continues; 7xx are event notifications.
            guard line.count >= 4, line[line.startIndex + 3] == UInt8(ascii: " ") else { continue }
            if line.first == UInt8(ascii: "7") {
                if line.starts(with: Array("701 ".utf8)) { state.withLock { $0.begins.append((connection, time)) } }
                continue
            }
            // Replies come in the order the commands went: the oldest unanswered one is answered.
            state.withLock { s in
                if let k = s.commands.firstIndex(where: { $0.connection == connection && $0.replied == nil }) { s.commands[k].replied = time }
            }
        }
    }

    /// Whole lines (without CR LF) completed by `bytes` on one direction of a connection.
    private func complete(_ bytes: ArraySlice<UInt8>, connection: Int, commands: Bool) -> [[UInt8]] {
        lines.withLock { all in
            var entry = all[connection] ?? ([], [], false)
            var partial = commands ? entry.command : entry.reply
            var out: [[UInt8]] = []
            for b in bytes {
                if b == 10 {
                    if partial.last == 13 { partial.removeLast() }
                    out.append(partial)
                    partial = []
                } else {
                    partial.append(b)
                }
            }
            if commands { entry.command = partial } else { entry.reply = partial }
            all[connection] = entry
            return out
        }
    }
}
