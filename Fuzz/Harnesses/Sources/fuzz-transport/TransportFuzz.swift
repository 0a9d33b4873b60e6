import FuzzSupport
import Glibc
import Synchronization
import TandemServer

/// Any bytes as what one client writes to `tandem serve`'s control socket (Docs/server.md), a
/// real socket served in this process on this thread as `tandem serve` hosts it, with a
/// 64-byte line limit and 7-byte reads so that lines are cut and rejoined everywhere. The
/// first byte picks the sizes of the client's writes; the rest is what it sends, then it shuts
/// its side.
///
/// The server must hand on exactly the lines a reading of the bytes by Docs/server.md's rules
/// gives — each non-empty line once, in order, its number counting empty lines too, `\r\n`
/// accepted — and end the connection with the right sentence: "closed by the client", the
/// first line over the limit (as soon as it is known), or the line the input ended in the
/// middle of. On an error the client is sent one JSON error line naming that line
/// (`{"error":…,"line":N,"type":"error"}`), and nothing after it. Nothing waits forever: a connection not ended after 2,000 rounds is a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTransport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let all = UnsafeRawBufferPointer(start: data, count: size)
    guard let seed = all.first else { return 0 }
    let input = Array(all.dropFirst())
    let server = TransportFuzz.server
    let expected = TransportFuzz.expected(input)

    let fd = TransportFuzz.connect()
    var replies: [UInt8] = []
    var lines: [(Int, [UInt8])] = []
    var reason: String?
    var client: ControlSocket.ClientID?
    func pump(_ wait: Duration?) {
        if let wait { server.hosted.serve(atMost: wait) } else { server.hosted.flush() }
        for event in server.box.events.withLock({ e in defer { e.removeAll() }; return e }) {
            switch event {
            case .connected(let id, _):
                precondition(client == nil, "a second connection reported")
                client = id
            case .line(let id, let number, let bytes):
                precondition(id == client && reason == nil, "a line of \(id) after its end")
                lines.append((number, bytes))
                server.socket.processed(id)
            case .disconnected(let id, let why):
                precondition(id == client && reason == nil, "\(id) ended twice")
                reason = why
            case .rejected(_, let why):
                preconditionFailure("the fuzzing client was rejected: \(why)")
            }
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { break }
            replies += buffer[0..<n]
        }
    }

    var at = 0
    var step = Int(seed % 32) + 1
    var rounds = 0
    while at < input.count && reason == nil {
        let end = min(at + step, input.count)
        let n = input[at..<end].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        if n > 0 { at += n; step = step % 32 + 1 } else if n < 0 && errno != EAGAIN && errno != EINTR { break }
        pump(n > 0 ? nil : .milliseconds(5))
        rounds += 1
        precondition(rounds < 100_000, "the server stopped reading")
    }
    shutdown(fd, Int32(SHUT_WR))
    rounds = 0
    while reason == nil {
        pump(.milliseconds(5))
        // A client that only shut its sending side may still read: once every line is
        // handed on, it closes.
        if lines.count == expected.lines.count, expected.ending == nil { break }
        rounds += 1
        precondition(rounds < 2_000, "connection not ended: \(lines.count) of \(expected.lines.count) lines, expecting \(expected.ending ?? "a close")")
    }
    pump(nil)
    close(fd)
    rounds = 0
    while reason == nil {
        pump(.milliseconds(5))
        rounds += 1
        precondition(rounds < 2_000, "the server did not see the client close")
    }

    precondition(lines.map(\.0) == expected.lines.map(\.0), "line numbers \(lines.map(\.0)), expected \(expected.lines.map(\.0))")
    precondition(lines.map(\.1) == expected.lines.map(\.1), "lines differ from the reading by the rules")
    if let ending = expected.ending {
        precondition(reason == ending, "ended \"\(reason!)\", expected \"\(ending)\"")
        let error = replies.split(separator: 10, omittingEmptySubsequences: false)
        precondition(error.count == 2 && error[1].isEmpty, "the client got \(replies.count) bytes, not one error line")
        let text = String(decoding: error[0], as: UTF8.self)
        precondition(text.hasPrefix("{") && text.hasSuffix(#","type":"error"}"#) && text.contains(#","line":\#(expected.failedLine!),"#),
                     "error line \(text)")
    } else {
        precondition(reason == "closed by the client", "ended \"\(reason!)\"")
        precondition(replies.isEmpty, "the client got \(replies.count) bytes it did not ask for")
    }
    return 0
}

enum TransportFuzz {
    static let maxLine = 64

    /// The server, started once for the process and served on the fuzzing thread.
    struct Server: @unchecked Sendable {   // used only on the fuzzing thread, which hosts it
        let socket: ControlSocket
        let hosted: HostedServer
        let box: EventBox
    }

    static let server: Server = withoutLeakChecks {
        let path = "/tmp/tandem-fuzz-transport-\(getpid()).sock"
        unlink(path)
        var options = ControlSocket.Options(path: path)
        options.maxLine = maxLine
        options.readChunk = 7
        let box = EventBox()
        let socket = ControlSocket(options: options) { e in box.events.withLock { $0.append(e) } }
        let hosted = try! socket.startHosted()
        atexit { unlink("/tmp/tandem-fuzz-transport-\(getpid()).sock") }
        return Server(socket: socket, hosted: hosted, box: box)
    }

    final class EventBox: Sendable {
        let events = Mutex<[ControlSocket.Event]>([])
    }

    static func connect() -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(server.socket.path.utf8) + [0]
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        precondition(fd >= 0, "socket: \(errno)")
        let r = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        precondition(r == 0, "connect: \(errno)")
        return fd
    }

    /// The lines Docs/server.md's rules read from `bytes`, and how the connection must end
    /// (nil: closed by the client), with the line an error names.
    static func expected(_ bytes: [UInt8]) -> (lines: [(Int, [UInt8])], ending: String?, failedLine: Int?) {
        var lines: [(Int, [UInt8])] = []
        var parts = bytes.split(separator: 10, omittingEmptySubsequences: false)
        let rest = parts.removeLast()            // after the last `\n`: a line not ended
        for (k, part) in parts.enumerated() {
            var line = Array(part)
            if line.last == 13 { line.removeLast() }
            if line.count > maxLine { return (lines, "line \(k + 1) is longer than the limit of \(maxLine) bytes", k + 1) }
            if !line.isEmpty { lines.append((k + 1, line)) }
        }
        let number = parts.count + 1
        let counted = rest.last == 13 ? rest.count - 1 : rest.count
        if counted > maxLine { return (lines, "line \(number) is longer than the limit of \(maxLine) bytes", number) }
        if !rest.isEmpty { return (lines, "the input ended in the middle of line \(number)", number) }
        return (lines, nil, nil)
    }
}
