import Glibc
import TandemPOSIX

/// Why talking to speech-dispatcher failed.
enum SSIPError: Error, Sendable, Hashable {
    /// Nothing listens at the address (no socket, refused, unknown host).
    case unreachable(String)
    /// The connection broke (the daemon died or closed it).
    case broken(String)
    /// No answer in time (a hung daemon).
    case timeout(String)
    /// The output is stopping: a wait was given up without its answer (`SSIPSocket.stopFD`).
    case stopped

    var message: String {
        switch self {
        case .unreachable(let m), .broken(let m), .timeout(let m): return m
        case .stopped: return "the speech output is stopping"
        }
    }
}

/// A nonblocking stream socket to speech-dispatcher. Every wait has a deadline, writes never
/// raise SIGPIPE, and nothing here blocks longer than it is told to — nor past a stop: every
/// wait also watches `stopFD` and throws `.stopped` once it is readable.
final class SSIPSocket {
    let fd: Int32
    /// The worker's stop pipe (`OutputWorker.stopFD`; -1: none).
    let stopFD: Int32
    /// The worker's clock: every deadline of a wait here is on it.
    let clock: WorkerClock
    private var closed = false
    /// What `receive` reads into: one buffer for the socket's life, not 8 KiB allocated and
    /// zeroed at every read (which cleared the worker's cache on each key press).
    private var buffer = [UInt8](repeating: 0, count: 8192)

    private init(fd: Int32, stopFD: Int32, clock: WorkerClock) { self.fd = fd; self.stopFD = stopFD; self.clock = clock }

    deinit { close() }

    /// Connects within `timeoutMs` (a Unix socket answers at once; TCP may take a while); its
    /// waits end early once `stopFD` is readable. `sendBuffer`: SO_SNDBUF in bytes (nil: the
    /// system's; Linux doubles what it is given and keeps it at least 4608).
    static func connect(_ address: SpeechdAddress, timeoutMs: Int, sendBuffer: Int? = nil, stopFD: Int32 = -1, clock: WorkerClock) throws(SSIPError) -> SSIPSocket {
        switch address {
        case .unixSocket(let path):
            guard path.utf8.count <= UnixSocketAddress.maxPathBytes else { throw .unreachable("the socket path is too long: \(path)") }
            let s = try open(family: AF_UNIX, sendBuffer: sendBuffer, stopFD: stopFD, clock: clock)
            let r = UnixSocketAddress.connect(s.fd, path)
            try s.finishConnect(r, timeoutMs: timeoutMs, what: "unix_socket:\(path)")
            return s
        case .inetSocket(let host, let port):
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let rc = getaddrinfo(host, String(port), &hints, &list)
            guard rc == 0, let first = list else {
                throw .unreachable("cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
            }
            defer { freeaddrinfo(list) }
            var lastError = SSIPError.unreachable("no address for \(host)")
            var ai: UnsafeMutablePointer<addrinfo>? = first
            while let a = ai {
                do throws(SSIPError) {
                    let s = try open(family: a.pointee.ai_family, sendBuffer: sendBuffer, stopFD: stopFD, clock: clock)
                    var one: Int32 = 1
                    setsockopt(s.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                    let r = Glibc.connect(s.fd, a.pointee.ai_addr, a.pointee.ai_addrlen)
                    try s.finishConnect(r, timeoutMs: timeoutMs, what: "inet_socket:\(host):\(port)")
                    return s
                } catch {
                    lastError = error
                }
                ai = a.pointee.ai_next
            }
            throw lastError
        }
    }

    private static func open(family: Int32, sendBuffer: Int?, stopFD: Int32, clock: WorkerClock) throws(SSIPError) -> SSIPSocket {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(family, type, 0)
        guard fd >= 0 else { throw .unreachable("socket(): \(errnoText())") }
        if var size = sendBuffer.map({ Int32(clamping: $0) }) {
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        return SSIPSocket(fd: fd, stopFD: stopFD, clock: clock)
    }

    private func finishConnect(_ result: Int32, timeoutMs: Int, what: String) throws(SSIPError) {
        if result == 0 { return }
        let e = errno
        guard e == EINPROGRESS || e == EAGAIN else { throw .unreachable("\(what): \(String(cString: strerror(e)))") }
        let deadline = clock.deadline(afterMilliseconds: timeoutMs)
        guard try wait(for: Int16(POLLOUT), until: deadline) else { throw .timeout("\(what): no connection within \(timeoutMs) ms") }
        var err: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
        if err != 0 { throw .unreachable("\(what): \(String(cString: strerror(err)))") }
    }

    /// Writes all of `bytes` before `deadline` (and before a stop, when `stoppable`).
    func send(_ bytes: [UInt8], until deadline: UInt64, stoppable: Bool = true) throws(SSIPError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n > 0 { offset += n; continue }
            let e = errno
            if n < 0 && e == EINTR { continue }
            if n < 0 && (e == EAGAIN || e == EWOULDBLOCK) {
                guard try wait(for: Int16(POLLOUT), until: deadline, stoppable: stoppable) else {
                    throw .timeout("speech-dispatcher does not read what Tandem sends")
                }
                continue
            }
            throw .broken("the connection broke: \(String(cString: strerror(e)))")
        }
    }

    /// Reads what is there into `parser`; false when nothing was waiting.
    func receive(into parser: inout SSIPParser) throws(SSIPError) -> Bool {
        var got = false
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                got = true
                buffer.withUnsafeBytes { parser.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                if n < buffer.count { return true }
                continue
            }
            if n == 0 { throw .broken("speech-dispatcher closed the connection") }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { return got }
            throw .broken("the connection broke: \(String(cString: strerror(e)))")
        }
    }

    /// Waits until the socket is readable (or `events`) or `deadline`; false on timeout. When
    /// `stoppable`, a stop ends the wait at once (`.stopped`): a daemon that never answers
    /// must not hold up `stop` for its reply timeout. Goodbyes are not stoppable: they are
    /// what a stop sends.
    func wait(for events: Int16 = Int16(POLLIN), until deadline: UInt64, stoppable: Bool = true) throws(SSIPError) -> Bool {
        while true {
            var p = [pollfd(fd: fd, events: events, revents: 0)]
            if stoppable && stopFD >= 0 { p.append(pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)) }
            let r = clock.poll(&p, until: deadline)
            if r > 0 {
                if p.count > 1 && p[1].revents != 0 { throw .stopped }
                if p[0].revents & Int16(POLLNVAL) != 0 { throw .broken("the connection is closed") }
                return true            // readable, writable, or HUP/ERR (the next read says which)
            }
            if r == 0 { return false }
            if errno != EINTR { throw .broken("poll(): \(errnoText())") }
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }
}

func errnoText() -> String { String(cString: strerror(errno)) }
