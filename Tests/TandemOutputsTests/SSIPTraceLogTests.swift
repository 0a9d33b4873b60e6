import Testing
@testable import TandemOutputs

@Suite struct SSIPTraceLogTests {
    @Test("a trace written as text reads back the same, command words with spaces included")
    func roundTrip() throws {
        let log = SSIPTraceLog()
        let entries = [
            SSIPTrace(kind: .wrote, command: "CANCEL SELF", component: .focus, code: 0, time: 1_000),
            SSIPTrace(kind: .replied, command: "CANCEL SELF", component: .focus, code: 210, time: 1_900),
            SSIPTrace(kind: .wrote, command: "SET SELF PRIORITY", component: .announcements, code: 0, time: 2_000),
            SSIPTrace(kind: .wrote, command: "SPEAK", component: .focus, code: 0, time: 2_050),
        ]
        for e in entries { log.record(e) }
        let text = log.text()
        #expect(text.hasPrefix("1000 wrote focus 0 CANCEL SELF\n"))
        #expect(try SSIPTraceLog.parse(text).get() == entries)
    }

    @Test("a line that is not an entry is named")
    func badLine() {
        guard case .failure(let e) = SSIPTraceLog.parse("1000 wrote focus 0 SPEAK\n12 said focus 0 SPEAK\n") else {
            Issue.record("parsed")
            return
        }
        #expect(e.line == 2)
    }

    @Test("past its limit the log keeps its first entries")
    func limit() {
        let log = SSIPTraceLog(limit: 2)
        for t in 0..<5 { log.record(SSIPTrace(kind: .wrote, command: "SPEAK", component: .focus, code: 0, time: UInt64(t))) }
        #expect(log.all.map(\.time) == [0, 1])
    }
}

@Suite struct SSIPTraceNameTests {
    @Test("a command is traced by its fixed words: three for SET, two for the rest, never its values or text")
    func fixedWords() {
        #expect(SSIPConnection.traceName("SET SELF PRIORITY message") == "SET SELF PRIORITY")
        #expect(SSIPConnection.traceName("SET SELF RATE -20") == "SET SELF RATE")
        #expect(SSIPConnection.traceName("SET SELF LANGUAGE pt-BR") == "SET SELF LANGUAGE")
        #expect(SSIPConnection.traceName("CANCEL SELF") == "CANCEL SELF")
        #expect(SSIPConnection.traceName("SOUND_ICON message-sent") == "SOUND_ICON message-sent")
        #expect(SSIPConnection.traceName("SPEAK") == "SPEAK")
        #expect(SSIPConnection.traceName("GET RATE now") == "GET RATE")
        #expect(SSIPConnection.traceName("SET") == "SET")
        #expect(SSIPConnection.traceName("SETTLE A B C") == "SETTLE A", "SET only as a word of its own")
    }
}
