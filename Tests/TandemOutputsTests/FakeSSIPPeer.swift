import Foundation
import Glibc
import Synchronization
import TandemTestSupport
import TandemVocabulary

/// A speech-dispatcher stand-in on a Unix socket, for the speech engine's recovery rules: it
/// answers SSIP as speech-dispatcher 0.11.4 does, except where the test scripts it to
/// misbehave — a reply that never comes, garbage, a reply split across reads, a connection
/// that is accepted and never answered, one closed in the middle of a reply, one that stops
/// reading, a peer that reads a byte at a time. Events (begin, end, cancel) are sent when the test says.
///
/// Deterministic: it does nothing on its own; every reply follows a command, every event a
/// call. `pending` says whether a command is still being answered, so a test moves its
/// `ManualClock` only once the peer is done.
final class FakeSSIPPeer: Sendable {
    /// What the peer was sent: one command line, or `DATA` with a message's text.
    struct Command: Sendable, Hashable, CustomStringConvertible {
        /// The connection, by the order it was accepted (0 first).
        var connection: Int
        /// `focus`, `announcements`, … from its `CLIENT_NAME` (empty before it).
        var component: String
        var line: String
        var description: String { "\(connection):\(component) \(line)" }
    }

    /// How the peer answers one command.
    enum Answer: Sendable {
        /// As speech-dispatcher does.
        case normal
        /// Not at all (the reply never comes); the connection goes on reading.
        case none
        /// These bytes instead, each chunk in a write of its own, 20 ms apart (so each lands
        /// in a read of its own).
        case chunks([String])
        /// These bytes, then the connection is closed.
        case thenClose(String)
        /// Nothing, ever again, on this connection: it neither reads nor answers.
        case hang
        /// These bytes, then nothing ever again: it stops reading, so what Tandem writes next
        /// fills the socket.
        case thenHang(String)
    }

    let path: String
    /// Decides each command's answer; `.normal` unless the test says otherwise.
    let script = Mutex<@Sendable (Command) -> Answer>({ _ in .normal })
    /// Reads a byte at a time, 1 ms apart, and writes its answers a byte at a time.
    let slow = Mutex(false)

    private struct Peer {
        var fd: Int32
        var component = ""
        var index: Int
        var open = true
        /// Stopped reading for good (`hang`): what waits unread on it is no pending work.
        var hung = false
        /// Between reading bytes and answering the commands in them.
        var handling = false
    }
    private struct State {
        var listener: Int32 = -1
        var peers: [Peer] = []
        var commands: [Command] = []
        var pending = 0
        var nextMessage = 1
        var stopping = false
    }
    private let state = Mutex(State())
    private let directory: String

    init() throws {
        directory = try temporaryDirectory(prefix: "tandem-fakessip-")
        path = directory + "/speechd.sock"
        try listen()
    }

    deinit { stop() }

    /// The address to give `SpeechDispatcherOutput`.
    var address: String { "unix_socket:\(path)" }

    /// Every command received so far.
    var commands: [Command] { state.withLock { $0.commands } }
    /// The command lines received so far (without `CLIENT_NAME`/`NOTIFICATION`/voice set-up).
    var speechCommands: [String] {
        commands.map(\.line).filter { line in
            !line.hasPrefix("SET SELF CLIENT_NAME") && !line.hasPrefix("SET SELF NOTIFICATION")
                && !["RATE", "PITCH", "VOLUME", "PUNCTUATION", "VOICE_TYPE"].contains { line.hasPrefix("SET SELF \($0)") }
        }
    }
    /// Connections accepted so far.
    var accepted: Int { state.withLock { $0.peers.count } }
    /// Connections open now.
    var open: Int { state.withLock { $0.peers.filter(\.open).count } }
    /// A command is still being answered, or about to be: bytes Tandem wrote that the peer has
    /// not read yet, or a connection not yet accepted. (A worker waiting for the answer polls
    /// like an idle one; without these a test could move its clock before the peer had even
    /// read the command, when the peer's thread is slow to run.)
    var pending: Bool {
        state.withLock { s in
            if s.pending > 0 { return true }
            // Under the lock: a peer's descriptor is closed only once it is marked closed.
            var byte: UInt8 = 0
            for p in s.peers where p.open && !p.hung {
                if p.handling || recv(p.fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) > 0 { return true }
            }
            var listening = pollfd(fd: s.listener, events: Int16(POLLIN), revents: 0)
            return s.listener >= 0 && Glibc.poll(&listening, 1, 0) > 0
        }
    }

    // MARK: the test's controls

    /// Sends event `code` (701 begin, 702 end, 703 cancel) for `message` on the newest open
    /// connection of `component`.
    func event(_ code: Int, message: Int, component: String = "focus") {
        let word = [700: "INDEX_MARK", 701: "BEGIN", 702: "END", 703: "CANCELED"][code] ?? "EVENT"
        // Written under the lock: a connection's descriptor is closed only under it, once marked
        // closed, so it cannot be another test's socket by then.
        state.withLock { s in
            if let fd = s.peers.last(where: { $0.open && $0.component == component })?.fd {
                write(fd, "\(code)-\(message)\r\n\(code)-1\r\n\(code) \(word)\r\n")
            }
        }
    }

    /// The message ids given to texts so far, by the `DATA` they answered, oldest first
    /// (sound icons take ids too).
    var messages: [(id: Int, text: String, component: String)] {
        var id = 0
        return commands.compactMap { c in
            guard Self.takesMessageID(c.line) else { return nil }
            id += 1
            guard c.line.hasPrefix("DATA ") else { return nil }
            return (id, String(c.line.dropFirst(5)), c.component)
        }
    }

    /// speech-dispatcher numbers texts and sound icons alike.
    static func takesMessageID(_ line: String) -> Bool { line.hasPrefix("DATA ") || line.hasPrefix("SOUND_ICON ") }

    /// The daemon goes away: no one listens any more and every connection is closed.
    ///
    /// Each descriptor is closed by the one thread that reads it (the accept loop, a connection's
    /// thread), and only under the lock: closed from here while that thread is between its check
    /// and its `recv`, the number could be reused meanwhile by a socket of another test running
    /// in parallel, whose bytes that thread would then read. Here they are only shut down, which
    /// wakes their threads.
    func goAway() {
        state.withLock { s in
            if s.listener >= 0 { shutdown(s.listener, Int32(SHUT_RDWR)) }
            s.listener = -1
            for i in s.peers.indices where s.peers[i].open {
                s.peers[i].open = false
                shutdown(s.peers[i].fd, Int32(SHUT_RDWR))
            }
        }
        unlink(path)
    }

    /// The daemon is back at the same address.
    func comeBack() throws { try listen() }

    func stop() {
        state.withLock { $0.stopping = true }
        goAway()
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: the peer

    private func listen() throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard UnixSocketAddress.bind(fd, path) == 0, Glibc.listen(fd, 16) == 0 else {
            close(fd)
            throw TestSupportError("fake SSIP peer cannot listen at \(path): \(String(cString: strerror(errno)))")
        }
        state.withLock { $0.listener = fd }
        Thread.detachNewThread { [self] in acceptLoop(fd) }
    }

    private func acceptLoop(_ listener: Int32) {
        while true {
            var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let r = Glibc.poll(&p, 1, 50)
            // The loop's own descriptor: closed here, by the one thread that polls it.
            let gone = state.withLock { s in
                guard s.listener != listener || s.stopping else { return false }
                close(listener)
                return true
            }
            if gone { return }
            guard r > 0 else { continue }
            // Accepted and listed at once, under the lock: `pending` sees the connection
            // either waiting at the listener or among the peers, never in between.
            let accepted = state.withLock { s -> (fd: Int32, index: Int)? in
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return nil }
                s.peers.append(Peer(fd: fd, index: s.peers.count))
                return (fd, s.peers.count - 1)
            }
            guard let (fd, index) = accepted else { continue }
            Thread.detachNewThread { [self] in serve(fd, index) }
        }
    }

    private func isOpen(_ index: Int) -> Bool { state.withLock { $0.peers[index].open && !$0.stopping } }

    private func serve(_ fd: Int32, _ index: Int) {
        var buffer: [UInt8] = []
        var data: [String]?
        var hung = false
        while isOpen(index) {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&p, 1, 50) >= 0 else { break }
            guard p.revents != 0, !hung else { continue }
            // Marked before the bytes leave the socket, so `pending` never misses them.
            state.withLock { $0.peers[index].handling = true }
            defer { state.withLock { $0.peers[index].handling = false } }
            var chunk = [UInt8](repeating: 0, count: slow.withLock { $0 } ? 1 : 4096)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            if slow.withLock({ $0 }) { usleep(1000) }
            buffer += chunk[0..<n]
            while let nl = buffer.firstIndex(of: 0x0A) {
                var line = String(decoding: buffer[..<nl], as: UTF8.self)
                if line.hasSuffix("\r") { line.removeLast() }
                buffer.removeSubrange(...nl)
                if var lines = data {
                    if line == "." {
                        data = nil
                        hung = answer(Command(connection: index, component: component(index), line: "DATA " + lines.joined(separator: "\n")), on: fd, index).hung
                    } else {
                        lines.append(line.hasPrefix("..") ? String(line.dropFirst()) : line)
                        data = lines
                    }
                    continue
                }
                if line.hasPrefix("SET SELF CLIENT_NAME ") {
                    let name = line.split(separator: ":").last.map(String.init) ?? ""
                    state.withLock { $0.peers[index].component = name }
                }
                let answered = answer(Command(connection: index, component: component(index), line: line), on: fd, index)
                hung = answered.hung
                // Like speech-dispatcher, only a SPEAK answered 230 is followed by text.
                if line == "SPEAK", !hung, answered.reply.hasPrefix("230") { data = [] }
                if hung { break }
            }
        }
        // The connection's own thread closes its descriptor, under the lock (see `goAway`).
        state.withLock { s in
            s.peers[index].open = false
            close(fd)
        }
    }

    private func component(_ index: Int) -> String { state.withLock { $0.peers[index].component } }

    /// Answers `command`: what was written, and whether the connection hangs from now on.
    private func answer(_ command: Command, on fd: Int32, _ index: Int) -> (reply: String, hung: Bool) {
        let (decide, id) = state.withLock { s -> ((@Sendable (Command) -> Answer), Int) in
            s.commands.append(command)
            s.pending += 1
            var id = 0
            if Self.takesMessageID(command.line) { id = s.nextMessage; s.nextMessage += 1 }
            return (script.withLock { $0 }, id)
        }
        defer { state.withLock { $0.pending -= 1 } }
        switch decide(command) {
        case .normal:
            let reply = Self.reply(to: command.line, message: id)
            write(fd, reply)
            if command.line == "QUIT" { shutdown(fd, Int32(SHUT_RDWR)) }
            return (reply, false)
        case .none:
            return ("", false)
        case .chunks(let parts):
            for (i, part) in parts.enumerated() {
                if i > 0 { usleep(20_000) }
                write(fd, part)
            }
            return (parts.joined(), false)
        case .thenClose(let bytes):
            write(fd, bytes)
            state.withLock { s in if s.peers[index].open { s.peers[index].open = false; shutdown(fd, Int32(SHUT_RDWR)) } }
            return (bytes, true)
        case .hang:
            hang(index)
            return ("", true)
        case .thenHang(let bytes):
            write(fd, bytes)
            hang(index)
            return (bytes, true)
        }
    }

    /// Holds the connection without reading until the peer goes away.
    private func hang(_ index: Int) {
        // Not pending: nothing will ever come of it.
        state.withLock { s in
            s.pending -= 1
            s.peers[index].hung = true
        }
        while isOpen(index) { usleep(5_000) }
        state.withLock { $0.pending += 1 }
    }

    /// What speech-dispatcher 0.11.4 answers.
    static func reply(to line: String, message id: Int) -> String {
        if takesMessageID(line) { return "225-\(id)\r\n225 OK MESSAGE QUEUED\r\n" }
        if line == "SPEAK" { return "230 OK RECEIVING DATA\r\n" }
        if line.hasPrefix("SET SELF CLIENT_NAME") { return "208 OK CLIENT NAME SET\r\n" }
        if line.hasPrefix("SET SELF NOTIFICATION") { return "220 OK NOTIFICATION SET\r\n" }
        if line.hasPrefix("SET ") { return "203 OK SET\r\n" }
        if line == "CANCEL SELF" { return "210 OK CANCELED\r\n" }
        if line == "GET RATE" { return "251-0\r\n251 OK GET RETURNED\r\n" }
        if line == "QUIT" { return "231 HAPPY HACKING\r\n" }
        return "300 ERR UNKNOWN COMMAND\r\n"
    }

    private func write(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        if slow.withLock({ $0 }) {
            for b in bytes {
                var one = b
                _ = send(fd, &one, 1, Int32(MSG_NOSIGNAL))
                usleep(500)
            }
            return
        }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }
}
