import TandemSession
import TandemVocabulary

/// The live runner's pending input, taken in a fair order (Docs/reliability.md#fair-rounds), so
/// that no client's lines hold up a key or another client for more than about one line:
///
/// - **Keys first.** Input that is not a client's (keys, the outputs' events and statuses, a
///   scenario's steps) is taken before any client's, in the order it came.
/// - **Clients in turn.** Each client's input (its connection, its lines, its leaving) is taken
///   in its own order; clients take turns, one input each a turn, in the order they first had
///   input waiting.
/// - **Barriers in place.** A mark, `quit` and `quitWhenQuiet` take effect only once everything
///   that came before them is taken (`readyBarrier`), and in the order they came.
///
/// Pure: no lock, no clock. The runner adds what its inbox held and takes one input at a time.
struct FairInbox {
    /// A barrier: what takes effect once everything before it is taken.
    enum Barrier {
        case quit
        case quitWhenQuiet(timeout: Milliseconds)
        case mark(@Sendable (SessionSnapshot) -> Void)
    }

    /// A first-in, first-out queue that does not shift its elements on every take.
    struct Queue<Element> {
        private var items: [Element] = []
        private var head = 0

        var isEmpty: Bool { head == items.count }
        var count: Int { items.count - head }
        var first: Element? { isEmpty ? nil : items[head] }

        mutating func append(_ e: Element) { items.append(e) }

        mutating func removeFirst() -> Element {
            let e = items[head]
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64 && head * 2 >= items.count {
                items.removeFirst(head)
                head = 0
            }
            return e
        }
    }

    /// Each input's place in the order everything came (what a barrier waits for).
    private var nextNumber = 0
    private var keys = Queue<(number: Int, input: SessionInput)>()
    private var clients: [ClientID: Queue<(number: Int, input: SessionInput)>] = [:]
    /// Clients with input waiting, the one whose turn it is first.
    private var turns = Queue<ClientID>()
    private var barriers = Queue<(number: Int, barrier: Barrier)>()
    /// Inputs waiting (barriers not counted).
    private(set) var count = 0

    /// Nothing waiting, barriers included.
    var isEmpty: Bool { count == 0 && barriers.isEmpty }

    /// The number the next input added will get: every input added before has a lower one.
    var mark: Int { nextNumber }

    /// Adds what came, in the order it came.
    mutating func add(_ input: LiveInput) {
        let number = nextNumber
        nextNumber += 1
        switch input {
        case .quit: barriers.append((number, .quit))
        case .quitWhenQuiet(let timeout): barriers.append((number, .quitWhenQuiet(timeout: timeout)))
        case .mark(let done): barriers.append((number, .mark(done)))
        case .session(let s):
            count += 1
            if let client = s.client {
                if clients[client] == nil { turns.append(client) }
                clients[client, default: Queue()].append((number, s))
            } else {
                keys.append((number, s))
            }
        }
    }

    /// The next input in the fair order, with its number, or nil when none waits.
    mutating func next() -> (number: Int, input: SessionInput)? {
        if !keys.isEmpty {
            count -= 1
            return keys.removeFirst()
        }
        guard !turns.isEmpty else { return nil }
        let client = turns.removeFirst()
        let taken = clients[client]!.removeFirst()
        if clients[client]!.isEmpty {
            clients[client] = nil
        } else {
            turns.append(client)
        }
        count -= 1
        return taken
    }

    /// The first barrier, taken, once every input that came before it has been taken.
    mutating func readyBarrier() -> Barrier? {
        guard let first = barriers.first else { return nil }
        if let k = keys.first, k.number < first.number { return nil }
        // Each client's queue is in the order its input came, so its first is its oldest.
        for (_, queue) in clients where queue.first!.number < first.number { return nil }
        return barriers.removeFirst().barrier
    }
}

extension SessionInput {
    /// The client this input is of (its connection, a line, its leaving), nil for the rest.
    var client: ClientID? {
        switch self {
        case .clientConnected(let c), .clientLine(let c, _, _), .clientDisconnected(let c): c
        default: nil
        }
    }
}
