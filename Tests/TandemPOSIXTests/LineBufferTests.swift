import Testing
import TandemPOSIX

@Suite("line buffer")
struct LineBufferTests {
    private func feed(_ buffer: inout LineBuffer, _ text: String) {
        Array(text.utf8).withUnsafeBytes { buffer.append($0) }
    }

    private func drain(_ buffer: inout LineBuffer) -> [LineBuffer.Next] {
        var out: [LineBuffer.Next] = []
        while true {
            let next = buffer.next()
            if next == .none { return out }
            out.append(next)
            if case .tooLong = next { return out }
        }
    }

    private func line(_ n: Int, _ text: String) -> LineBuffer.Next { .line(number: n, bytes: Array(text.utf8)) }

    @Test("lines end at LF or CRLF; empty lines are skipped but counted")
    func endingsAndNumbers() {
        var b = LineBuffer(maxLine: 100)
        feed(&b, "one\r\ntwo\n\n\r\nfive\n")
        #expect(drain(&b) == [line(1, "one"), line(2, "two"), line(5, "five")])
        #expect(b.lastNumber == 5)
        #expect(b.isEmpty)
    }

    @Test("a line split across reads is whole only once its newline arrives")
    func splitAcrossReads() {
        var b = LineBuffer(maxLine: 100)
        feed(&b, "{\"type\":")
        #expect(drain(&b) == [])
        #expect(!b.isEmpty)
        feed(&b, "\"status\"}\r")
        #expect(drain(&b) == [])
        feed(&b, "\nnext")
        #expect(drain(&b) == [line(1, "{\"type\":\"status\"}")])
        #expect(b.nextNumber == 2)
    }

    @Test("a carriage return inside a line is kept; only the one before LF goes")
    func innerCarriageReturn() {
        var b = LineBuffer(maxLine: 100)
        feed(&b, "a\rb\r\r\n")
        #expect(drain(&b) == [line(1, "a\rb\r")])
    }

    @Test("a line of exactly the limit is accepted, with LF or CRLF")
    func exactlyTheLimit() {
        var b = LineBuffer(maxLine: 5)
        feed(&b, "abcde\nvwxyz\r")
        #expect(drain(&b) == [line(1, "abcde")])
        feed(&b, "\n")
        #expect(drain(&b) == [line(2, "vwxyz")])
    }

    @Test("a line over the limit is refused with its number, before its end arrives")
    func overTheLimit() {
        var b = LineBuffer(maxLine: 5)
        feed(&b, "ok\nabcde")
        #expect(drain(&b) == [line(1, "ok")])
        feed(&b, "f")
        #expect(b.next() == .tooLong(number: 2))

        var whole = LineBuffer(maxLine: 5)
        feed(&whole, "abcdef\n")
        #expect(whole.next() == .tooLong(number: 1))
    }

    @Test("bytes after handed lines are kept when the buffer compacts")
    func compaction() {
        var b = LineBuffer(maxLine: 1000)
        var expected: [LineBuffer.Next] = []
        for i in 1...300 {
            feed(&b, "line \(i)\npart")
            feed(&b, "ial \(i)\n")
            expected += [line(2 * i - 1, "line \(i)"), line(2 * i, "partial \(i)")]
        }
        // Drained in steps, so the buffer compacts between appends.
        var b2 = LineBuffer(maxLine: 1000)
        var got: [LineBuffer.Next] = []
        for i in 1...300 {
            feed(&b2, "line \(i)\npart")
            got += drain(&b2)
            feed(&b2, "ial \(i)\n")
            got += drain(&b2)
        }
        #expect(drain(&b) == expected)
        #expect(got == expected)
    }
}
