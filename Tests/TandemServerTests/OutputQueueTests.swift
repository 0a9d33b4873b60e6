import Testing
@testable import TandemServer

@Suite("output queue")
struct OutputQueueTests {
    @Test("a short write keeps the rest, in order, for the socket's next turn")
    func shortWrites() {
        var q = OutputQueue()
        q.append(line: Array("first".utf8))
        q.append(line: Array("second".utf8))
        #expect(q.count == 13)
        var written: [UInt8] = []
        q.drain { raw in
            written += raw.prefix(4)
            return 4   // the socket took 4 bytes and is full
        }
        #expect(q.count == 9)
        q.drain { _ in 0 }
        #expect(q.count == 9, "nothing taken, nothing dropped")
        q.drain { raw in
            written += raw
            return raw.count
        }
        #expect(String(decoding: written, as: UTF8.self) == "first\nsecond\n")
        #expect(q.isEmpty)
    }
}
