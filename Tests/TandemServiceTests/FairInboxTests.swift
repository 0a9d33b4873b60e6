import Testing
import TandemSession
import TandemVocabulary
@testable import TandemService

/// The live runner's fair order on its own (Docs/reliability.md#fair-rounds): keys first,
/// clients in turn one input each, each client's in its order, barriers once everything before
/// them is taken.
@Suite("the live runner's fair order")
struct FairInboxTests {
    static func line(_ c: ClientID, _ n: Int) -> LiveInput { .session(.clientLine(c, line: n, bytes: [])) }

    /// What `next` gives until nothing is left, written `a1`, `b2`, `key`, `+a` (connected), `-a` (left).
    static func drain(_ inbox: inout FairInbox) -> [String] {
        var taken: [String] = []
        while let (_, input) = inbox.next() {
            switch input {
            case .clientLine(let c, let n, _): taken.append("\(c)\(n)")
            case .clientConnected(let c): taken.append("+\(c)")
            case .clientDisconnected(let c): taken.append("-\(c)")
            default: taken.append("key")
            }
        }
        return taken
    }

    @Test("keys before any client's line; clients in turn, one input each, in the order they first had input waiting")
    func order() {
        var inbox = FairInbox()
        inbox.add(.session(.clientConnected("a")))
        for n in 1...4 { inbox.add(Self.line("a", n)) }
        inbox.add(Self.line("b", 1))
        inbox.add(.session(.command(.next)))
        inbox.add(Self.line("c", 1))
        inbox.add(Self.line("c", 2))
        inbox.add(.session(.clientDisconnected("a")))
        inbox.add(.session(.command(.previous)))
        #expect(inbox.count == 11)
        #expect(Self.drain(&inbox) == ["key", "key", "+a", "b1", "c1", "a1", "c2", "a2", "a3", "a4", "-a"])
        #expect(inbox.isEmpty && inbox.count == 0)
    }

    @Test("a client that comes while another has lines waiting takes its turn after the one whose turn it is")
    func latecomer() {
        var inbox = FairInbox()
        for n in 1...3 { inbox.add(Self.line("a", n)) }
        #expect(Self.drain(&inbox).isEmpty == false)
        for n in 4...6 { inbox.add(Self.line("a", n)) }
        var taken: [String] = []
        if case .clientLine(let c, let n, _)? = inbox.next()?.input { taken.append("\(c)\(n)") }
        inbox.add(Self.line("b", 1))
        taken += Self.drain(&inbox)
        #expect(taken == ["a4", "a5", "b1", "a6"])
    }

    @Test("a barrier is ready once everything that came before it is taken, not before; barriers in the order they came")
    func barriers() {
        var inbox = FairInbox()
        inbox.add(Self.line("a", 1))
        inbox.add(Self.line("a", 2))
        inbox.add(.mark { _ in })
        inbox.add(.session(.command(.next)))
        inbox.add(Self.line("b", 1))
        inbox.add(.quit)
        #expect(inbox.readyBarrier() == nil, "two lines of a's came before the mark")
        _ = inbox.next()  // the key
        _ = inbox.next()  // a1
        #expect(inbox.readyBarrier() == nil, "a2 came before the mark")
        _ = inbox.next()  // b1
        #expect(inbox.readyBarrier() == nil, "a2 came before the mark")
        _ = inbox.next()  // a2
        guard case .mark? = inbox.readyBarrier() else {
            Issue.record("the mark is ready once a2 is taken")
            return
        }
        guard case .quit? = inbox.readyBarrier() else {
            Issue.record("the quit is ready: everything before it was taken")
            return
        }
        #expect(inbox.isEmpty)
    }

    @Test("a client's queue keeps its order through many takes (the queue compacts as it goes)")
    func longQueue() {
        var inbox = FairInbox()
        for n in 0..<1_000 { inbox.add(Self.line("a", n)) }
        var numbers: [Int] = []
        for k in 0..<1_000 {
            if k % 3 == 0 { inbox.add(Self.line("a", 1_000 + k)) }
            if case .clientLine(_, let n, _)? = inbox.next()?.input { numbers.append(n) }
        }
        numbers += Self.drain(&inbox).map { Int($0.dropFirst())! }
        #expect(numbers == Array(0..<1_000) + stride(from: 1_000, to: 2_000, by: 3).map { $0 })
    }
}
