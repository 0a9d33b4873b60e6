import Synchronization
import TandemProtocol
import TandemVocabulary

/// Messages the service has for its clients, in the order it made them, until the driver
/// takes them (live: to the socket; in tests: to look at). Transcript lines for subscribers
/// join the same queue, so a client sees everything in the order it happened.
///
/// A transcript line is queued as its record and written as JSON only when the driver takes
/// the queue, after the batch of input: the speech and braille outputs get the record first,
/// and a key press reaches speech-dispatcher without waiting for the subscribers' JSON.
public final class ServiceOutbox: Sendable {
    public enum Item: Sendable {
        case send(client: ClientID, ServerMessage)
        /// Close the connection once what is queued for it is sent.
        case close(client: ClientID)
    }

    private enum Queued: Sendable {
        case item(Item)
        case transcript(clients: [ClientID], record: Record, time: Int)
    }

    private let items = Mutex<[Queued]>([])
    public init() {}

    public func send(_ client: ClientID, _ message: ServerMessage) { items.withLock { $0.append(.item(.send(client: client, message))) } }
    public func close(_ client: ClientID) { items.withLock { $0.append(.item(.close(client: client))) } }

    /// `record`'s transcript line to each of `clients`, written when the queue is taken.
    func sendTranscript(_ clients: [ClientID], _ record: Record, at time: Int) {
        items.withLock { $0.append(.transcript(clients: clients, record: record, time: time)) }
    }

    /// Everything queued, oldest first; the queue is empty afterwards.
    public func take() -> [Item] {
        let queued = items.withLock { q in defer { q.removeAll() }; return q }
        var out: [Item] = []
        out.reserveCapacity(queued.count)
        for q in queued {
            switch q {
            case .item(let item):
                out.append(item)
            case .transcript(let clients, let record, let time):
                let json = Transcript.line(for: record, at: time).json
                for c in clients { out.append(.send(client: c, .transcript(line: json))) }
            }
        }
        return out
    }
}

/// Which controllers subscribed to which transcript channels.
public final class Subscribers: Sendable {
    private let table = Mutex(Table())
    public init() {}

    func add(_ client: ClientID, channels: Set<Channel>) { table.withLock { $0.set(client, channels) } }
    func remove(_ client: ClientID) { table.withLock { $0.set(client, nil) } }
    var isEmpty: Bool { table.withLock { $0.byClient.isEmpty } }

    /// The clients that want `channel`, in a stable order.
    func wanting(_ channel: Channel) -> [ClientID] {
        table.withLock { $0.byChannel[channel] ?? [] }
    }

    /// Who wants what, and the answer to `wanting` for each channel, worked out when a client
    /// subscribes or leaves rather than for every line.
    private struct Table: Sendable {
        private(set) var byClient: [ClientID: Set<Channel>] = [:]
        private(set) var byChannel: [Channel: [ClientID]] = [:]

        /// `client` now wants `channels` (nil: nothing, it left).
        mutating func set(_ client: ClientID, _ channels: Set<Channel>?) {
            byClient[client] = channels
            byChannel = Dictionary(uniqueKeysWithValues: Channel.allCases.map { channel in
                (channel, byClient.filter { $0.value.contains(channel) }.map(\.key).sorted())
            })
        }
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
        guard !subscribers.isEmpty, let channel = Channel(rawValue: Transcript.channel(of: record)) else { return }
        // Who gets it is decided now (a client subscribing later in the batch does not).
        let clients = subscribers.wanting(channel)
        guard !clients.isEmpty else { return }
        outbox.sendTranscript(clients, record, at: time)
    }
}
