import Foundation
import Glibc
import Synchronization
import Testing
import TandemOutputs
import TandemTestSupport

/// A BRLTTY stand-in on TCP, for the braille worker's recovery rules: it speaks BrlAPI
/// protocol 8 as BRLTTY 6.5's server does (`FakeBrlAPIPacket`), with one 40-cell display,
/// except where the test scripts it to misbehave — a connection accepted and never greeted,
/// a reply that never comes, garbage, a reply split across reads, a connection closed in the
/// middle of a packet, an error in answer to a request, a peer that stops reading.
/// Keys, display-size changes and exceptions are sent when the test says.
///
/// Deterministic: it does nothing on its own; every reply follows a request, every key a
/// call. `pending` says whether it is still answering, so a test moves its `ManualClock` only
/// once the peer is done.
final class FakeBrlAPIPeer: Sendable {
    typealias Packet = FakeBrlAPIPacket

    /// One request the peer was sent.
    struct Request: Sendable, CustomStringConvertible {
        /// The connection, by the order it was accepted (0 first).
        var connection: Int
        var type: UInt32
        var payload: [UInt8]
        var name: String { Packet.name(type) }
        var description: String { "\(connection):\(name)" }
    }

    /// How the peer answers one request.
    enum Answer: Sendable {
        /// As BRLTTY does.
        case normal
        /// Not at all; the connection goes on reading.
        case none
        /// The normal answer in pieces of `n` bytes, each written alone 20 ms apart.
        case pieces(Int)
        /// The first `n` bytes of the normal answer, then the end of the stream (the peer
        /// shuts its side down and reads on, to see whether the client closes its side).
        case closeAfter(Int)
        /// These bytes instead.
        case bytes([UInt8])
        /// An error packet with this BrlAPI error code (`Packet.Error`).
        case error(UInt32)
    }

    /// What the peer does when it accepts a connection.
    enum Greeting: Sendable {
        /// Sends its version packet, as BRLTTY does.
        case version
        /// Nothing, ever: a BRLTTY that accepts and never answers.
        case silence
        /// The version packet in pieces of `n` bytes, each written alone 20 ms apart.
        case pieces(Int)
        /// These bytes instead of the version packet.
        case bytes([UInt8])
    }

    /// One write the peer was sent, decoded.
    struct Write: Sendable, CustomStringConvertible {
        var connection: Int
        /// The OR mask: the dots of each cell of the region.
        var cells: [UInt8]
        /// 1-based, 0 for none; nil when the write leaves the cursor alone.
        var cursor: Int?
        var text: String
        var description: String { "\(connection):\(cells.count) cells, cursor \(cursor.map(String.init) ?? "-")" }
    }

    let port: UInt16
    /// Decides each request's answer; `.normal` unless the test says otherwise.
    let script = Mutex<@Sendable (Request) -> Answer>({ _ in .normal })
    let greeting = Mutex(Greeting.version)
    /// Cells of the display: the size told and announced.
    let columns = Mutex(40)

    private struct Connection {
        var fd: Int32
        var open = true
        var reading = true
        var tty = false
        var watchesSize = false
        /// The client closed its side (the peer read the end of its stream).
        var closedByClient = false
        var closed = false
    }
    private struct State {
        var listener: Int32 = -1
        /// Which listener is the current one (`goAway` ends it).
        var generation = 0
        var connections: [Connection] = []
        var requests: [Request] = []
        var writes: [Write] = []
        var pending = 0
        var stopping = false
    }
    private let state = Mutex(State())
    private let receiveBuffer: Int32?

    /// `receiveBuffer`: SO_RCVBUF of the connections (small: a peer that stops reading
    /// fills up soon).
    init(receiveBuffer: Int32? = nil) throws {
        self.receiveBuffer = receiveBuffer
        port = try Self.bindPort()
        try listen()
    }

    deinit { stop() }

    /// The host to give `BrlAPIOutput`: BrlAPI's `host:n` is TCP port 4101 + n.
    var host: String { "127.0.0.1:\(Int(port) - 4101)" }

    var requests: [Request] { state.withLock { $0.requests } }
    /// The names of the requests received, in order (`version`, `paramRequest`, `getDisplaySize`, …).
    var requestNames: [String] { requests.map(\.name) }
    var writes: [Write] { state.withLock { $0.writes } }
    /// Connections accepted so far.
    var accepted: Int { state.withLock { $0.connections.count } }
    /// Connections whose client has closed its side.
    var closedByClient: Int { state.withLock { $0.connections.filter(\.closedByClient).count } }
    /// A request is still being answered.
    var pending: Bool { state.withLock { $0.pending > 0 } }

    // MARK: the test's controls

    /// Sends a key (a BRLTTY command and, for block commands, its argument) on the newest
    /// connection in TTY mode.
    func press(_ command: String, argument: Int = 0) {
        guard let (code, _) = BrailleKeyCodes.code(forCommand: command) else {
            Issue.record("BrlAPI has no key code for \(command)")
            return
        }
        send(Packet.key(code | UInt64(argument)))
    }

    /// Sends raw bytes on the newest connection in TTY mode.
    func send(_ bytes: [UInt8]) {
        guard let fd = state.withLock({ s in s.connections.last { $0.open && $0.tty }?.fd }) else { return }
        write(fd, bytes)
    }

    /// Another display: its size is told from now on, and announced to every connection
    /// that watches it (0: BRLTTY has no display).
    func announce(columns newColumns: Int) {
        columns.withLock { $0 = newColumns }
        let fds = state.withLock { s in s.connections.filter { $0.open && $0.watchesSize }.map(\.fd) }
        for fd in fds { write(fd, Packet.sizeUpdate(columns: newColumns)) }
    }

    /// The newest connection in TTY mode stops (or starts again) reading what it is sent.
    func setReading(_ reading: Bool) {
        state.withLock { s in
            if let i = s.connections.lastIndex(where: { $0.open && $0.tty }) { s.connections[i].reading = reading }
        }
    }

    /// BRLTTY goes away: no one listens any more and every connection is closed. (Each
    /// descriptor is shut down here and closed by the thread that reads it, so no thread
    /// ever reads a descriptor number that has been given to another socket.)
    func goAway() {
        // Shut down under the lock: once it is released, a connection's own thread may close its
        // descriptor, and the number may be another socket's.
        state.withLock { s in
            if s.listener >= 0 { shutdown(s.listener, Int32(SHUT_RDWR)) }
            s.listener = -1
            s.generation += 1
            for i in s.connections.indices where s.connections[i].open {
                s.connections[i].open = false
                shutdown(s.connections[i].fd, Int32(SHUT_RDWR))
            }
        }
    }

    /// BRLTTY is back on the same port.
    func comeBack() throws { try listen() }

    func stop() {
        state.withLock { $0.stopping = true }
        goAway()
    }

    // MARK: the peer

    /// A free port: bound once to port 0 and closed; `listen` binds it again with SO_REUSEADDR.
    private static func bindPort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard ok, UInt16(bigEndian: address.sin_port) > 4101 else { throw TestSupportError("fake BrlAPI peer: no free port") }
        return UInt16(bigEndian: address.sin_port)
    }

    private func listen() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 16) == 0 else {
            Glibc.close(fd)
            throw TestSupportError("fake BrlAPI peer cannot listen on port \(port): \(String(cString: strerror(errno)))")
        }
        let generation = state.withLock { s in
            s.listener = fd
            return s.generation
        }
        Thread.detachNewThread { [self] in acceptLoop(fd, generation) }
    }

    private func acceptLoop(_ listener: Int32, _ generation: Int) {
        defer { Glibc.close(listener) }
        while true {
            var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let r = Glibc.poll(&p, 1, 20)
            if state.withLock({ $0.generation != generation || $0.stopping }) { return }
            guard r > 0 else { continue }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { continue }
            let index = state.withLock { s -> Int in
                s.connections.append(Connection(fd: fd))
                s.pending += 1
                return s.connections.count - 1
            }
            let version = Packet.make(Packet.version, Packet.uint32(Packet.protocolVersion))
            switch greeting.withLock({ $0 }) {
            case .version: write(fd, version)
            case .silence: break
            case .pieces(let size): writePieces(fd, version, size)
            case .bytes(let bytes): write(fd, bytes)
            }
            state.withLock { $0.pending -= 1 }
            Thread.detachNewThread { [self] in serve(fd, index) }
        }
    }

    private func isOpen(_ index: Int) -> Bool { state.withLock { $0.connections[index].open && !$0.stopping } }
    private func isReading(_ index: Int) -> Bool { state.withLock { $0.connections[index].reading } }

    private func serve(_ fd: Int32, _ index: Int) {
        var buffer: [UInt8] = []
        while isOpen(index) {
            guard isReading(index) else { usleep(2_000); continue }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&p, 1, 20) >= 0 else { break }
            guard p.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n == 0 { state.withLock { $0.connections[index].closedByClient = true } }
            if n <= 0 { break }
            buffer += chunk[0..<n]
            while let (type, payload, used) = Packet.parse(buffer) {
                buffer.removeFirst(used)
                handle(Request(connection: index, type: type, payload: payload), on: fd, index)
            }
        }
        closeConnection(index)
    }

    /// Closes a connection's descriptor: only its own thread does, once.
    private func closeConnection(_ index: Int) {
        state.withLock { s in
            s.connections[index].open = false
            if !s.connections[index].closed {
                s.connections[index].closed = true
                Glibc.close(s.connections[index].fd)
            }
        }
    }

    /// Records and answers one request.
    private func handle(_ request: Request, on fd: Int32, _ index: Int) {
        let decide = state.withLock { s -> @Sendable (Request) -> Answer in
            s.requests.append(request)
            s.pending += 1
            return script.withLock { $0 }
        }
        defer { state.withLock { $0.pending -= 1 } }
        if request.type == Packet.write {
            if let w = Packet.decodeWrite(request.payload) {
                state.withLock { $0.writes.append(Write(connection: index, cells: w.cells, cursor: w.cursor, text: w.text)) }
            }
            return
        }
        switch decide(request) {
        case .normal:
            if let reply = normalReply(to: request, index) { write(fd, reply) }
        case .none:
            break
        case .pieces(let size):
            if let reply = normalReply(to: request, index) { writePieces(fd, reply, size) }
        case .closeAfter(let n):
            write(fd, Array((normalReply(to: request, index) ?? []).prefix(n)))
            shutdown(fd, Int32(SHUT_WR))
        case .bytes(let bytes):
            write(fd, bytes)
        case .error(let code):
            write(fd, Packet.make(Packet.error, Packet.uint32(code) + Packet.uint32(request.type)))
        }
    }

    /// What BRLTTY 6.5 answers (nil: no answer, as for a write).
    private func normalReply(to request: Request, _ index: Int) -> [UInt8]? {
        let columns = self.columns.withLock { $0 }
        switch request.type {
        case Packet.version:
            return Packet.make(Packet.auth, Packet.uint32(Packet.authNone))
        case Packet.getDisplaySize:
            return Packet.make(Packet.getDisplaySize, Packet.uint32(UInt32(columns)) + Packet.uint32(1))
        case Packet.getDriverName:
            return Packet.make(Packet.getDriverName, Array("fake".utf8) + [0])
        case Packet.enterTtyMode:
            state.withLock { $0.connections[index].tty = true }
            return Packet.make(Packet.ack, [])
        case Packet.leaveTtyMode:
            state.withLock { $0.connections[index].tty = false }
            return Packet.make(Packet.ack, [])
        case Packet.ignoreKeyRanges, Packet.acceptKeyRanges, Packet.synchronize:
            return Packet.make(Packet.ack, [])
        case Packet.paramRequest:
            guard let r = Packet.decodeParamRequest(request.payload) else {
                return Packet.make(Packet.error, Packet.uint32(Packet.Error.invalidPacket) + Packet.uint32(request.type))
            }
            guard r.parameter == Packet.displaySizeParameter else {
                return Packet.make(Packet.error, Packet.uint32(Packet.Error.invalidParameter) + Packet.uint32(request.type))
            }
            if r.flags & Packet.paramSubscribe != 0 { state.withLock { $0.connections[index].watchesSize = true } }
            if r.flags & Packet.paramUnsubscribe != 0 { state.withLock { $0.connections[index].watchesSize = false } }
            guard r.flags & Packet.paramGet != 0 else { return Packet.make(Packet.ack, []) }
            return Packet.sizeValue(columns: columns, flags: r.flags & Packet.paramGlobal)
        default:
            return Packet.make(Packet.error, Packet.uint32(Packet.Error.unknownInstruction) + Packet.uint32(request.type))
        }
    }

    private func writePieces(_ fd: Int32, _ bytes: [UInt8], _ size: Int) {
        let size = max(1, size)
        for (i, start) in stride(from: 0, to: bytes.count, by: size).enumerated() {
            if i > 0 { usleep(20_000) }
            write(fd, Array(bytes[start..<min(bytes.count, start + size)]))
        }
    }

    private func write(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }
}
