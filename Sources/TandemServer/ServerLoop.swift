import CLinux
import Glibc
import TandemPOSIX

/// The server's loop: one `poll` over the wake pipe, the listening socket and every
/// connection. Each round it takes the mail, accepts, reads at most `readChunk` from each
/// client it is reading, writes what the sockets accept, hands whole lines on (up to
/// `maxPendingLines` a client), and closes what is finished or overdue. It runs on a thread of
/// its own (`ControlSocket.start`) or round by round on its host's (`HostedServer`).
final class ServerLoop {
    typealias ClientID = ControlSocket.ClientID

    let options: ControlSocket.Options
    let listener: ListeningSocket
    let mailbox: Mailbox
    let policy: PeerPolicy
    let stall: UInt64
    let linger: UInt64
    var connections: [ClientID: Connection] = [:]
    /// Connections in the order they were accepted: the order each round visits them.
    var order: [ClientID] = []
    var nextNumber = 1
    /// When accepting failed for want of descriptors, listening pauses until then (otherwise
    /// the pending connection would wake `poll` again at once, forever).
    var acceptResumesAt: UInt64?
    var readBuffer: [UInt8]

    init(options: ControlSocket.Options, listener: ListeningSocket, mailbox: Mailbox, policy: PeerPolicy) {
        self.options = options
        self.listener = listener
        self.mailbox = mailbox
        self.policy = policy
        self.stall = Monotonic.nanoseconds(options.stallTimeout)
        self.linger = Monotonic.nanoseconds(options.closeTimeout)
        self.readBuffer = [UInt8](repeating: 0, count: max(1, options.readChunk))
    }

    var maxPending: Int { max(1, options.maxPendingLines) }

    func run() {
        while round(waitingAtMost: -1) {}
        finish()
    }

    /// One round: waits until the wake pipe, the listening socket or a connection has
    /// something, the nearest stall, closing or accept deadline, or `limit` ms (-1: no limit
    /// of the caller's; 0: no wait), then does what came. False once the server is stopping.
    func round(waitingAtMost limit: Int32) -> Bool {
        let polled = order
        var fds = [pollfd(fd: mailbox.wakeFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: isListening ? listener.fd : -1, events: Int16(POLLIN), revents: 0)]
        for id in polled { fds.append(pollRequest(connections[id]!)) }
        let own = Monotonic.pollTimeout(until: nextDeadline())
        _ = poll(&fds, nfds_t(fds.count), own < 0 ? limit : limit < 0 ? own : min(own, limit))

        let taken = mailbox.take()
        var now = Monotonic.now()
        // Lines sent just before `stop` still get their one attempt in `finish`.
        apply(taken, now: now)
        if taken.stopping { return false }
        if acceptResumesAt.map({ now >= $0 }) == true { acceptResumesAt = nil }
        if fds[1].revents != 0 { acceptWaiting(now: now) }
        for (i, id) in polled.enumerated() {
            // Gone, or closed and replaced this round, when the service closed it.
            guard let c = connections[id] else { continue }
            handle(c, revents: fds[i + 2].revents, now: now)
        }
        now = Monotonic.now()
        for id in order { deliver(connections[id]!, now: now) }
        settle(now: now)
        return true
    }

    // MARK: one round's parts

    private var isListening: Bool { acceptResumesAt == nil || Monotonic.now() >= acceptResumesAt! }

    /// What to wait for on a connection. A client paused with nothing to write is left out
    /// (fd -1): the kernel reports a hang-up whatever is asked, and a paused client must not
    /// wake the loop for it.
    private func pollRequest(_ c: Connection) -> pollfd {
        var events: Int16 = 0
        if c.wantsInput(maxPending: maxPending) { events |= Int16(POLLIN) }
        if c.wantsOutput { events |= Int16(POLLOUT) }
        let excluded = events == 0 && (c.isClosing || c.isPaused(maxPending: maxPending) || c.hungUp)
        return pollfd(fd: excluded ? -1 : c.fd, events: events, revents: 0)
    }

    /// The nearest stall, closing or accept deadline.
    private func nextDeadline() -> UInt64? {
        var nearest = acceptResumesAt
        func consider(_ t: UInt64) { nearest = min(nearest ?? t, t) }
        for c in connections.values {
            if c.isClosing {
                consider(c.closeDeadline)
            } else if c.wantsInput(maxPending: maxPending) && !c.input.isEmpty {
                consider(c.lineNumber == c.input.nextNumber ? c.lineSince &+ stall : Monotonic.now() &+ stall)
            }
        }
        return nearest
    }

    private func apply(_ taken: Mailbox.Taken, now: UInt64) {
        for (id, count) in taken.processed {
            guard let c = connections[id] else { continue }
            let wasPaused = c.isPaused(maxPending: maxPending)
            c.pending = max(0, c.pending - count)
            // A stall is counted from when the server reads the client again.
            if wasPaused && !c.isPaused(maxPending: maxPending) { c.lineSince = now }
        }
        var written = Set<ClientID>()
        for mail in taken.mail {
            switch mail {
            case .send(let id, let line):
                guard let c = connections[id], !c.isClosing, !c.hungUp else { continue }
                if c.output.count + line.count + 1 > options.maxQueuedBytes {
                    closeNow(c, reason: "does not read its messages")
                    continue
                }
                c.output.append(line: line)
                written.insert(id)
            case .close(let id, let last):
                guard let c = connections[id], !c.isClosing else { continue }
                beginClosing(c, reason: "closed by the service", last: last, now: now)
            }
        }
        // Written at once rather than after the next poll: the socket usually has room.
        for id in written { if let c = connections[id] { write(c) } }
    }

    private func acceptWaiting(now: UInt64) {
        for _ in 0..<64 {
            let fd = accept4(listener.fd, nil, nil, Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
            if fd < 0 {
                switch errno {
                case EAGAIN, EWOULDBLOCK: return
                case EINTR, ECONNABORTED, EPROTO: continue
                default:
                    // EMFILE, ENFILE, ENOBUFS, ENOMEM: try again in a while.
                    acceptResumesAt = now &+ 100_000_000
                    return
                }
            }
            guard let peer = PeerPolicy.peer(of: fd) else {
                Glibc.close(fd)
                continue
            }
            if let refusal = policy.refusal(for: peer) ?? capacityRefusal {
                // A fresh socket has room for one short line; it is closed whether it took it
                // or not.
                let line = ErrorLine.encode(refusal, line: nil) + [10]
                _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
                Glibc.close(fd)
                mailbox.report(.rejected(peer, reason: refusal))
                continue
            }
            let id = ClientID(nextNumber)
            nextNumber += 1
            connections[id] = Connection(id: id, fd: fd, maxLine: options.maxLine, now: now)
            order.append(id)
            mailbox.report(.connected(id, peer))
        }
    }

    /// The refusal a new client gets when `maxClients` are connected.
    private var capacityRefusal: String? {
        guard connections.count >= max(1, options.maxClients) else { return nil }
        return "the service has \(connections.count) clients, its limit (maxClients); try again when one has closed"
    }

    private func handle(_ c: Connection, revents: Int16, now: UInt64) {
        guard revents != 0 else { return }
        // POLLNVAL cannot happen (the loop closes only what it removes), but if it did, the
        // read below fails and the connection is closed, rather than polled forever.
        let hangUp = revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
        if c.wantsOutput && (revents & Int16(POLLOUT) != 0 || hangUp) { write(c) }
        if c.wantsInput(maxPending: maxPending) && (revents & Int16(POLLIN) != 0 || hangUp) {
            read(c, now: now)
        } else if hangUp && (c.inputEnded || c.isClosing) {
            c.hungUp = true
            c.output.removeAll()
        }
    }

    /// Hands on `c`'s whole lines while the service may take more.
    private func deliver(_ c: Connection, now: UInt64) {
        guard !c.isClosing else { return }
        while c.pending < maxPending {
            switch c.input.next() {
            case .line(let number, let bytes):
                c.pending += 1
                mailbox.report(.line(c.id, number: number, bytes: bytes))
            case .tooLong(let number):
                fail(c, "line \(number) is longer than the limit of \(options.maxLine) bytes", line: number, now: now)
                return
            case .none:
                return
            }
        }
    }

    /// Closes what is finished and what is overdue.
    private func settle(now: UInt64) {
        for id in order {
            guard let c = connections[id] else { continue }
            if !c.isClosing {
                c.noteHalfLine(now: now)
                if !checkEnds(c, now: now) { continue }
            }
            if let reason = c.closeReason, c.output.isEmpty || c.hungUp || now >= c.closeDeadline {
                closeNow(c, reason: reason)
            }
        }
    }

    /// Ends the input that is over: the client closed, stopped in the middle of a line, or
    /// left a half line too long. False when `c` was closed outright.
    private func checkEnds(_ c: Connection, now: UInt64) -> Bool {
        if c.inputEnded {
            // Every whole line is handed on unless the service is behind; then wait for it.
            guard !c.isPaused(maxPending: maxPending) else { return true }
            if !c.input.isEmpty {
                let number = c.input.nextNumber
                fail(c, "the input ended in the middle of line \(number)", line: number, now: now)
            } else if c.hungUp {
                closeNow(c, reason: "closed by the client")
                return false
            }
            // Otherwise the client only shut its sending side: it may still read replies.
        } else if c.wantsInput(maxPending: maxPending) && !c.input.isEmpty && now >= c.lineSince &+ stall {
            let number = c.input.nextNumber
            fail(c, "line \(number) was not finished within \(Monotonic.describe(options.stallTimeout))", line: number, now: now)
        }
        return true
    }

    // MARK: reading and writing

    private func read(_ c: Connection, now: UInt64) {
        let n = readBuffer.withUnsafeMutableBytes { recv(c.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n > 0 {
            readBuffer.withUnsafeBytes { c.input.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            options.observeRead?(c.id, n)
        } else if n == 0 {
            c.inputEnded = true
        } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
            // ECONNRESET and the like: the client is gone both ways.
            c.inputEnded = true
            c.hungUp = true
            c.output.removeAll()
        }
    }

    /// Writes as much of `c`'s queue as the socket takes now. A failed write means the
    /// client is gone for writing: its output is dropped.
    private func write(_ c: Connection) {
        var failed = false
        c.output.drain { raw in
            let n = send(c.fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            if n >= 0 { return n }
            if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { failed = true }
            return 0
        }
        if failed {
            c.hungUp = true
            c.output.removeAll()
        }
    }

    // MARK: closing

    /// A transport error: the client is told in an error line, then closed.
    private func fail(_ c: Connection, _ message: String, line: Int?, now: UInt64) {
        beginClosing(c, reason: message, last: ErrorLine.encode(message, line: line), now: now)
    }

    private func beginClosing(_ c: Connection, reason: String, last: [UInt8]?, now: UInt64) {
        c.closeReason = reason
        c.closeDeadline = now &+ linger
        c.input.discard()
        if let last, !c.hungUp { c.output.append(line: last) }
        write(c)
    }

    private func closeNow(_ c: Connection, reason: String) {
        Glibc.close(c.fd)
        connections[c.id] = nil
        order.removeAll { $0 == c.id }
        mailbox.report(.disconnected(c.id, reason: reason))
    }

    /// `stop`: one last write of each queue without waiting, then every descriptor closed.
    /// Nothing is reported (the mailbox is stopped).
    func finish() {
        for id in order {
            let c = connections[id]!
            if c.wantsOutput { write(c) }
            Glibc.close(c.fd)
        }
        connections = [:]
        order = []
        Glibc.close(listener.fd)
    }
}
