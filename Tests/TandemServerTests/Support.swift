import Dispatch
import Foundation
import Glibc
import TandemPOSIX
import Synchronization
@testable import TandemServer

typealias ClientID = ControlSocket.ClientID

/// A directory of its own under /tmp for one test, removed by `remove()`.
func makeTempDirectory() -> String {
    var template = Array("/tmp/tandem-server-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("mkdtemp: \(String(cString: strerror(errno)))") }
    return String(cString: made)
}

func removeDirectory(_ dir: String) {
    try? FileManager.default.removeItem(atPath: dir)
}

/// Everything a server reported, for tests to wait on.
final class EventLog: Sendable {
    private let events = Mutex<[ControlSocket.Event]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func add(_ event: ControlSocket.Event) {
        events.withLock { $0.append(event) }
        arrived.signal()
    }

    var all: [ControlSocket.Event] { events.withLock { $0 } }

    /// Waits (10 s at most: generous, never a measure of speed) until `done` holds.
    @discardableResult
    func wait(seconds: Double = 10, until done: ([ControlSocket.Event]) -> Bool) -> Bool {
        let deadline = DispatchTime.now() + seconds
        while true {
            if done(all) { return true }
            if arrived.wait(timeout: deadline) == .timedOut { return done(all) }
        }
    }

    func connected() -> [ClientID] {
        all.compactMap { if case .connected(let id, _) = $0 { return id } else { return nil } }
    }

    func lines(_ client: ClientID) -> [(number: Int, text: String)] {
        all.compactMap {
            guard case .line(let id, let number, let bytes) = $0, id == client else { return nil }
            return (number, String(decoding: bytes, as: UTF8.self))
        }
    }

    func disconnectReason(_ client: ClientID) -> String? {
        for case .disconnected(let id, let reason) in all where id == client { return reason }
        return nil
    }

    /// Waits for the next client to connect after the `count` already seen.
    func waitForClient(number count: Int) -> ClientID? {
        guard wait(until: { events in events.filter { if case .connected = $0 { true } else { false } }.count > count }) else { return nil }
        return connected()[count]
    }

    func waitForLines(_ client: ClientID, count: Int) -> Bool {
        wait { _ in self.lines(client).count >= count }
    }

    func waitForDisconnect(_ client: ClientID) -> String? {
        wait { _ in self.disconnectReason(client) != nil }
        return disconnectReason(client)
    }
}

/// A server on a socket in a directory of its own, recording its events. By default every
/// line is acknowledged (`processed`) as soon as it is reported; clients listed in
/// `holding` are not, until the test does it.
final class TestServer: Sendable {
    let dir: String
    let socket: ControlSocket
    let log = EventLog()
    let reads = Locked<[ClientID: Int]>([:])
    private let holding = Locked<Set<Int>>([])

    init(_ configure: (inout ControlSocket.Options) -> Void = { _ in }, start: Bool = true) throws {
        dir = makeTempDirectory()
        var options = ControlSocket.Options(path: dir + "/control.sock")
        let reads = self.reads
        options.observeRead = { id, n in reads.with { $0[id, default: 0] += n } }
        configure(&options)
        let log = self.log
        let holding = self.holding
        let socketBox = Locked<ControlSocket?>(nil)
        socket = ControlSocket(options: options) { event in
            log.add(event)
            if case .line(let id, _, _) = event, !holding.with({ $0.contains(id.number) }) {
                socketBox.with { $0?.processed(id) }
            }
        }
        socketBox.with { $0 = socket }
        if start { try socket.start() }
    }

    var path: String { socket.path }

    /// Lines of clients numbered `number` are not acknowledged automatically.
    func hold(clientNumber number: Int) { holding.with { _ = $0.insert(number) } }

    func bytesRead(_ client: ClientID) -> Int { reads.with { $0[client] ?? 0 } }

    func stopAndRemove() {
        socket.stop()
        removeDirectory(dir)
    }

    /// Connects a client and waits for the server to report it.
    func connect() throws -> (TestClient, ClientID) {
        let before = log.connected().count
        let client = try TestClient(path: path)
        guard let id = log.waitForClient(number: before) else { throw TestFailure("the server did not report the connection") }
        return (client, id)
    }
}

/// A value behind a lock that closures can share.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func with<R>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A blocking client socket with a 10 s receive timeout (so a test that is wrong fails
/// instead of hanging).
final class TestClient: @unchecked Sendable {  // one test thread at a time reads it; its buffer is its only mutable state
    let fd: Int32
    private var buffer: [UInt8] = []
    private var ended = false

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(errno)") }
        let result = UnixSocketAddress.connect(fd, path)
        guard result == 0 else {
            // Not closed here: every stored property is set, so `deinit` runs on this throw and
            // closes it. Closing it here too closed, in a parallel run, whatever descriptor
            // another test had been given that number meanwhile.
            throw TestFailure("connect \(path): \(String(cString: strerror(errno)))")
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(fd) }

    /// Writes all of `text` (false when the server closed the connection first).
    @discardableResult
    func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    @discardableResult
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

    /// The next line (without `\n`), or nil at the end of the connection or after 10 s.
    func readLine() -> String? {
        while true {
            if let end = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(...end)
                return line
            }
            guard fill() else { return nil }
        }
    }

    /// True when the server has closed the connection (after what it sent is read).
    func readsEnd() -> Bool {
        while !ended {
            if !buffer.isEmpty { return false }
            guard fill() else { break }
        }
        return ended && buffer.isEmpty
    }

    func shutdownWriting() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads more; false at the end (or a reset, which is the end too) or on timeout.
    private func fill() -> Bool {
        guard !ended else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            buffer += chunk[0..<n]
            return true
        }
        if n == 0 || errno == ECONNRESET { ended = true }
        return false
    }
}

/// The targets of this process's open descriptors (`socket:[123]`, `pipe:[456]`, …).
func openDescriptorTargets() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return names.compactMap { name in
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)
    }
}

func descriptorTarget(_ fd: Int32) -> String? {
    try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
}

/// The inodes of the Unix sockets bound to `path` (a listener and every connection it
/// accepted), from /proc/net/unix. Unlike a count of /proc/self/fd, this sees only this
/// test's server, whatever other tests run at the same time.
func socketInodes(boundTo path: String) -> Set<String> {
    // Abstract socket names are raw bytes (any program's, not always UTF-8): decode lossily, or
    // one such name anywhere on the machine would hide every socket.
    guard let data = FileManager.default.contents(atPath: "/proc/net/unix") else { return [] }
    let table = String(decoding: data, as: UTF8.self)
    var inodes = Set<String>()
    for row in table.split(separator: "\n").dropFirst() {
        let fields = row.split(separator: " ", omittingEmptySubsequences: true)
        // Num RefCount Protocol Flags Type St Inode Path
        if fields.count >= 8 && fields[7] == path { inodes.insert(String(fields[6])) }
    }
    return inodes
}
