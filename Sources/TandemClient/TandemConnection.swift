import Dispatch
import Foundation
import Synchronization
import TandemModel
import TandemProtocol
internal import TandemPOSIX

/// One connection to `tandem serve` (Docs/protocol.md), past `hello` and `welcome`.
/// `TandemApp` and `TandemController` add the messages of each role; this is the layer under
/// them, for anything they do not cover: send any message, wait for a reply, read what comes.
///
/// A background thread reads the socket, so a slow reader never makes Tandem wait and sending
/// never waits for reading. Replies go to the call that waits for them; everything else
/// (`action`, `focus`, `transcript`, errors about messages sent without waiting) waits in
/// order for `receive`. The queue is not bounded: keep reading it. Every method may be called
/// from any thread.
public final class TandemConnection: Sendable {
    /// The socket this connection is on.
    public let socketPath: String
    /// The id Tandem gave this connection (`c1`, `c2`, …).
    public let client: String
    /// What Tandem told this client it may rely on.
    public let limits: ServerMessage.Limits
    /// The additions to the protocol's core (Docs/protocol.md#features) the service announced in `welcome`
    /// (Docs/protocol.md#features); none when it listed none (an older service). Names this
    /// client does not know are kept in `features.unknown`.
    public let features: ServerMessage.Features
    /// How long calls wait for a reply unless told otherwise.
    public let timeout: Duration

    private let socket: UnixSocket
    private let inbox: Inbox
    private let outgoing: Mutex<Outgoing>
    private let readerDone: DispatchSemaphore
    private let shut = Mutex(false)

    /// The protocol version this client speaks.
    public static let version = 1

    /// Where `tandem serve` listens by default: `$XDG_RUNTIME_DIR/tandem/control.sock`.
    public static func defaultSocketPath(environment: [String: String] = ProcessInfo.processInfo.environment) throws(TandemClientError) -> String {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else {
            throw .unavailable("XDG_RUNTIME_DIR is not set (or not an absolute path), so there is no default socket; give its path")
        }
        return (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/tandem/control.sock"
    }

    /// Connects to `socketPath` (the default socket when nil) and says hello in `role`; returns
    /// once Tandem has welcomed it. `name` and `language` are an app's.
    public init(role: Role, name: String? = nil, language: String? = nil, socketPath: String? = nil,
                timeout: Duration = .seconds(5)) throws(TandemClientError) {
        let path: String
        if let socketPath { path = socketPath } else { path = try Self.defaultSocketPath() }
        let socket = try UnixSocket.connect(to: path)
        let inbox = Inbox()
        let readerDone = DispatchSemaphore(value: 0)
        Self.startReader(socket, inbox, readerDone)
        let outgoing = Mutex(Outgoing())
        let hello: JSONValue = .compact(["type": "hello", "v": .number(Double(Self.version)), "role": .string(role.rawValue),
                                         "name": name.map { .string($0) }, "language": language.map { .string($0) }])
        let reply = inbox.expectHello()
        var outcome: Result<(String, ServerMessage.Limits, ServerMessage.Features), TandemClientError>
        switch Self.write(hello.json, socket, outgoing, inbox, maxLine: ServerMessageDecoder.defaultLimits.maxLine) {
        case .failure(let e): outcome = .failure(e)
        case .success:
            switch reply.wait(until: Self.deadline(timeout)) {
            case .success(.welcome(let client, let limits, let features))?: outcome = .success((client, limits, features))
            case .success(.error(let e))?: outcome = .failure(.rejected(e, sent: hello.json))
            case .success?: outcome = .failure(.unavailable("Tandem answered hello with something other than welcome"))
            case .failure(let e)?: outcome = .failure(e)
            case nil: outcome = .failure(.timedOut("no welcome from Tandem at \(path) within \(timeout)"))
            }
        }
        guard case .success(let welcome) = outcome else {
            inbox.close("the connection was not opened")
            socket.shutdown()
            readerDone.wait()
            socket.close()
            if case .failure(let e) = outcome { throw e }
            preconditionFailure()
        }
        self.socketPath = path
        self.client = welcome.0
        self.limits = welcome.1
        self.features = welcome.2
        self.timeout = timeout
        self.socket = socket
        self.inbox = inbox
        self.outgoing = outgoing
        self.readerDone = readerDone
    }

    deinit { close() }

    // MARK: sending

    /// Throws `unsupported` when the service did not announce `feature`: for a call that must
    /// not send a message the service would not carry out as asked.
    public func require(_ feature: ProtocolFeature) throws(TandemClientError) {
        guard features.contains(feature) else { throw .unsupported(feature, announced: features) }
    }

    /// Sends one message and returns at once; the line number Tandem will give it. Tandem's
    /// error about it, if any, comes from `receive`.
    @discardableResult
    public func send(_ message: JSONValue) throws(TandemClientError) -> Int {
        try Self.write(message.json, socket, outgoing, inbox, maxLine: limits.maxLine).get()
    }

    /// Sends `message` with a request id and waits for its reply (`ack`, or `status` for a
    /// status request); Tandem's error about it is thrown as `rejected`.
    @discardableResult
    public func request(_ message: JSONValue, timeout: Duration? = nil) throws(TandemClientError) -> ServerMessage {
        let id = outgoing.withLock { o in
            o.nextRequest += 1
            return o.nextRequest
        }
        // Request ids are numbers: an element's id (which `set`'s errors carry) is a string, so
        // the two never meet.
        let key = String(id)
        let reply = inbox.expect(key)
        let text = message.setting("id", .number(Double(id))).json
        if case .failure(let e) = Self.write(text, socket, outgoing, inbox, maxLine: limits.maxLine) {
            inbox.cancel(key)
            throw e
        }
        let limit = timeout ?? self.timeout
        guard let result = reply.wait(until: Self.deadline(limit)) else {
            inbox.cancel(key)
            throw .timedOut("no reply from Tandem to \(message["type"]?.json ?? "a message") within \(limit)")
        }
        switch result {
        case .success(.error(let e)): throw .rejected(e, sent: text)
        case .success(let m): return m
        case .failure(let e): throw e
        }
    }

    /// Writes one line under the sending lock (so line numbers follow the order lines go
    /// out) and remembers it; the line's number. A line over Tandem's limit is refused here,
    /// before Tandem would drop the connection for it.
    private static func write(_ text: String, _ socket: UnixSocket, _ outgoing: borrowing Mutex<Outgoing>, _ inbox: Inbox,
                              maxLine: Int) -> Result<Int, TandemClientError> {
        let bytes = Array(text.utf8)
        guard bytes.count <= maxLine else {
            return .failure(.invalid("a message of \(bytes.count) bytes is over Tandem's limit of \(maxLine) a line"))
        }
        let line = outgoing.withLock { o -> Int? in
            guard !o.failed else { return nil }
            o.lines += 1
            o.remember(o.lines, text)
            guard socket.write(bytes + [10]) else { o.failed = true; return nil }
            return o.lines
        }
        guard let line else { return .failure(.closed(inbox.closeReason ?? "the connection is closed")) }
        return .success(line)
    }

    // MARK: receiving

    /// The next message that is not a reply, or nil when none comes within `timeout` (nil:
    /// wait as long as it takes). Tandem's errors about messages sent without waiting come as
    /// `.error`. Throws `closed` once the connection has ended and everything before the end
    /// has been read, and `undecodable` for a line it cannot read (reading may go on).
    public func receive(timeout: Duration? = nil) throws(TandemClientError) -> ServerMessage? {
        switch inbox.next(until: timeout.map(Self.deadline) ?? .distantFuture) {
        case nil: return nil
        case .success(.message(let m))?: return m
        case .success(.undecodable(let line, let e))?: throw .undecodable(line: line, e)
        case .failure(let e)?: throw e
        }
    }

    /// Tandem's error as a client error, naming what was sent on its line when remembered.
    public func rejection(_ error: ProtocolError) -> TandemClientError {
        .rejected(error, sent: outgoing.withLock { $0.sent[error.line] })
    }

    /// Waits until Tandem has handled every message sent before (a `status` request: replies
    /// come in order), then throws the first error about them that is waiting in the queue,
    /// if any (and takes all such errors out of it).
    public func sync(timeout: Duration? = nil) throws(TandemClientError) {
        try request(["type": "status"], timeout: timeout)
        if let first = inbox.takeErrors().first { throw rejection(first) }
    }

    /// Why the connection ended, once it has.
    public var closeReason: String? { inbox.closeReason }

    /// The reason a connection the service closed without a word gives.
    public static let closedByService = "the service closed the connection"

    /// A sentence for a person about the end of a connection: the service's own reason
    /// ("the service ended the connection: line too long …"), or that it closed it.
    public static func endSentence(_ reason: String) -> String {
        reason == closedByService ? reason : "the service ended the connection: \(reason)"
    }

    // MARK: closing

    /// Ends the connection. Safe to call more than once, from any thread; `receive` then
    /// throws `closed`.
    public func close() {
        let first = shut.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        inbox.close("the connection was closed by this client")
        socket.shutdown()
        readerDone.wait()
        socket.close()
    }

    // MARK: the reader

    private static func startReader(_ socket: UnixSocket, _ inbox: Inbox, _ done: DispatchSemaphore) {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            // Lines numbered as the server numbers a client's (`\r\n` accepted, empty lines
            // counted and skipped); the service's lines have no length limit here.
            var lines = LineBuffer(maxLine: Int.max)
            var reason = ""
            reading: while true {
                switch socket.read(into: &buffer) {
                case .success(let n):
                    buffer.withUnsafeBytes { lines.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                    while case .line(let number, let line) = lines.next() {
                        if line.allSatisfy({ $0 == 32 || $0 == 9 }) { continue }
                        switch ServerMessageDecoder.decode(line, line: number) {
                        case .success(let m): inbox.deliver(.message(m))
                        case .failure(let e): inbox.deliver(.undecodable(line: String(decoding: line, as: UTF8.self), e))
                        }
                    }
                case .failure(let end):
                    reason = end.reason
                    break reading
                }
            }
            inbox.close(reason)
            done.signal()
        }
        thread.name = "tandem-client-reader"
        thread.start()
    }

    static func deadline(_ d: Duration) -> DispatchTime {
        let (seconds, attoseconds) = d.components
        let ns = max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000
        return .now() + .nanoseconds(Int(min(ns, Int64(Int32.max) * 1_000_000_000)))
    }
}

/// The sending side's state: how many lines went out, the last few of them (so an error's
/// `line` can name what was sent), the last request id.
struct Outgoing {
    var lines = 0
    var nextRequest = 0
    var failed = false
    private(set) var sent: [Int: String] = [:]

    static let remembered = 512

    mutating func remember(_ line: Int, _ text: String) {
        sent[line] = text
        sent[line - Self.remembered] = nil
    }
}
