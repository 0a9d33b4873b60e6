import Foundation
import Synchronization
import TandemOutputs
import TandemProtocol

/// Messages the service has for its clients, in the order it made them, until the driver
/// takes them (live: to the socket; in tests: to look at). Transcript lines for subscribers
/// join the same queue, so a client sees everything in the order it happened.
public final class ServiceOutbox: Sendable {
    public enum Item: Sendable {
        case send(client: String, ServerMessage)
        /// Close the connection once what is queued for it is sent.
        case close(client: String)
    }

    private let items = Mutex<[Item]>([])
    public init() {}

    public func send(_ client: String, _ message: ServerMessage) { items.withLock { $0.append(.send(client: client, message)) } }
    public func close(_ client: String) { items.withLock { $0.append(.close(client: client)) } }

    /// Everything queued, oldest first; the queue is empty afterwards.
    public func take() -> [Item] { items.withLock { q in defer { q.removeAll() }; return q } }
}

/// Which controllers subscribed to which transcript channels.
public final class Subscribers: Sendable {
    private let table = Mutex<[String: Set<Channel>]>([:])
    public init() {}

    func add(_ client: String, channels: Set<Channel>) { table.withLock { $0[client] = channels } }
    func remove(_ client: String) { _ = table.withLock { $0.removeValue(forKey: client) } }
    var isEmpty: Bool { table.withLock { $0.isEmpty } }

    /// The clients that want `channel`, in a stable order.
    func wanting(_ channel: Channel) -> [String] {
        table.withLock { t in t.filter { $0.value.contains(channel) }.map(\.key).sorted() }
    }
}

/// Every transcript line to the controllers that subscribed to its channel, through the
/// service's outbox (`{"type":"transcript","line":{…}}`).
public final class SubscriberSink: OutputSink {
    let subscribers: Subscribers
    let outbox: ServiceOutbox

    public init(subscribers: Subscribers, outbox: ServiceOutbox) {
        self.subscribers = subscribers
        self.outbox = outbox
    }

    public func emit(_ record: Record, at time: Int) {
        guard !subscribers.isEmpty else { return }
        let line = Transcript.line(for: record, at: time)
        guard let channel = line.string("ch").flatMap(Channel.init(rawValue:)) else { return }
        let clients = subscribers.wanting(channel)
        guard !clients.isEmpty else { return }
        let json = line.json
        for c in clients { outbox.send(c, .transcript(line: json)) }
    }
}
