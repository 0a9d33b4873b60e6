import Dispatch
import Synchronization
import TandemModel
import TandemProtocol
import TandemVocabulary

/// Where the reader thread puts what Tandem sends. A reply (`ack`, `status`, `error` carrying
/// the id of a request someone waits for, or the first `welcome`/`error` after `hello`) goes to
/// the call waiting for it; everything else waits in order for `next`. An `ack` nobody waits
/// for any more (its call timed out) is dropped.
final class Inbox: Sendable {
    enum Item: Sendable {
        case message(ServerMessage)
        case undecodable(line: String, ProtocolError)
    }

    /// One call waiting for its reply.
    final class Reply: Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let result = Mutex<Result<ServerMessage, TandemClientError>?>(nil)

        /// The first result given wins; later ones are ignored.
        func resolve(_ r: Result<ServerMessage, TandemClientError>) {
            let first = result.withLock { current in
                guard case .none = current else { return false }
                current = r
                return true
            }
            if first { done.signal() }
        }

        /// The result, or nil when none came before `deadline`.
        func wait(until deadline: DispatchTime) -> Result<ServerMessage, TandemClientError>? {
            guard done.wait(timeout: deadline) == .success else { return nil }
            defer { done.signal() }  // a second look sees it too
            return result.withLock { $0 }
        }
    }

    private struct State {
        var items: [Item] = []
        var head = 0
        var waiting: [String: Reply] = [:]
        var hello: Reply?
        var closed: String?
    }

    private let state = Mutex(State())
    /// Signalled once per queued item and once when the connection ends. A waiter that wakes
    /// to an empty queue of a live connection (an item `takeErrors` removed) waits again.
    private let arrived = DispatchSemaphore(value: 0)

    /// The key a request id is matched by: its JSON text.
    static func key(_ id: JSONNode) -> String { JSONText.value(id) }

    // MARK: the reader's side

    func deliver(_ item: Item) {
        enum Route { case reply(Reply), queued, dropped }
        let route: Route = state.withLock { s in
            if case .message(let m) = item {
                switch m {
                case .welcome, .error:
                    if let hello = s.hello { s.hello = nil; return .reply(hello) }
                default: break
                }
                if let id = Self.requestID(m), let reply = s.waiting.removeValue(forKey: Self.key(id)) { return .reply(reply) }
                if case .ack = m { return .dropped }
            }
            s.items.append(item)
            return .queued
        }
        switch route {
        case .reply(let reply): reply.resolve(.success(routeResult(item)))
        case .queued: arrived.signal()
        case .dropped: break
        }
    }

    private func routeResult(_ item: Item) -> ServerMessage {
        if case .message(let m) = item { return m }
        preconditionFailure("only messages are replies")
    }

    /// The connection has ended: every waiting call is told, then `next` sees the end once the
    /// queue is read. The first reason given stays.
    func close(_ reason: String) {
        let waiters: [Reply]? = state.withLock { s in
            guard s.closed == nil else { return nil }
            s.closed = reason
            let all = Array(s.waiting.values) + (s.hello.map { [$0] } ?? [])
            s.waiting = [:]
            s.hello = nil
            return all
        }
        guard let waiters else { return }
        for w in waiters { w.resolve(.failure(.closed(reason))) }
        arrived.signal()
    }

    var closeReason: String? { state.withLock { $0.closed } }

    static func requestID(_ m: ServerMessage) -> JSONNode? {
        switch m {
        case .ack(let id): id
        case .status(let s): s.requestID
        case .error(let e): e.requestID
        default: nil
        }
    }

    // MARK: the callers' side

    /// Registers a call waiting for the reply to the request `key` (before it is sent: the
    /// reply may beat the sender back).
    func expect(_ key: String) -> Reply {
        let reply = Reply()
        let reason: String? = state.withLock { s in
            if s.closed == nil { s.waiting[key] = reply }
            return s.closed
        }
        if let reason { reply.resolve(.failure(.closed(reason))) }
        return reply
    }

    func expectHello() -> Reply {
        let reply = Reply()
        let reason: String? = state.withLock { s in
            if s.closed == nil { s.hello = reply }
            return s.closed
        }
        if let reason { reply.resolve(.failure(.closed(reason))) }
        return reply
    }

    func cancel(_ key: String) {
        _ = state.withLock { $0.waiting.removeValue(forKey: key) }
    }

    /// The next item that is not a reply; nil when none came before `deadline`; the end of
    /// the connection once everything before it was read.
    func next(until deadline: DispatchTime) -> Result<Item, TandemClientError>? {
        while true {
            guard arrived.wait(timeout: deadline) == .success else { return nil }
            let taken: Result<Item, TandemClientError>? = state.withLock { s in
                if s.head < s.items.count {
                    let item = s.items[s.head]
                    s.head += 1
                    if s.head > 64 && s.head * 2 > s.items.count {
                        s.items.removeFirst(s.head)
                        s.head = 0
                    }
                    return .success(item)
                }
                return s.closed.map { .failure(.closed($0)) }
            }
            guard let taken else { continue }
            if case .failure = taken { arrived.signal() }  // the next caller sees the end too
            return taken
        }
    }

    /// Removes the `error` messages waiting in the queue and returns them, oldest first.
    func takeErrors() -> [ProtocolError] {
        state.withLock { s in
            var errors: [ProtocolError] = []
            var kept: [Item] = []
            for item in s.items[s.head...] {
                if case .message(.error(let e)) = item { errors.append(e) } else { kept.append(item) }
            }
            s.items = kept
            s.head = 0
            return errors
        }
    }
}
