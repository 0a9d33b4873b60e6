import Foundation
import Testing
import TandemModel
import TandemOutputs
import TandemVocabulary
@testable import TandemService
@testable import TandemSession
import TandemTestSupport

/// speech-dispatcher's begin/end/cancel notices in a `tandem serve --record` recording
/// (Docs/protocol.md#record): the replay waits for them as the live session did, so an
/// utterance that ended or was cut early live lets what was queued behind it start at the
/// same moment in the replay.
@Suite("speech-dispatcher's notices in a recording")
struct RecordedNoticesTests {
    static let hello = #"{"type":"hello","v":1,"role":"app","name":"Groceries","language":"en"}"#
    static let announcement = #"{"type":"notify","notification":"announcement","text":"Three items added"}"#
    static let second = #"{"type":"notify","notification":"announcement","text":"Total 12 euros"}"#

    /// The live set-up: speech-dispatcher answering, an app publishing its screen, then two
    /// announcements, the second put off until the first ends (Docs/policy.md).
    static func inputs(notices: Bool, extra: [(time: Int, input: RecordedInput)] = []) -> [(time: Int, input: RecordedInput)] {
        let head: [(time: Int, input: RecordedInput)] = [
            (0, .start(profile: "headless", catalog: nil, speechNotices: notices)),
            (0, .output(OutputStatus(.speech, available: true, message: "speech-dispatcher answers"))),
            (0, .open),
            (10, .connect(client: "c1")),
            (12, .line(client: "c1", number: 1, bytes: Array(hello.utf8))),
            (15, .line(client: "c1", number: 2, bytes: Array(ServiceTests.groceryScreen.utf8))),
            (20, .line(client: "c1", number: 3, bytes: Array(announcement.utf8))),
            (25, .line(client: "c1", number: 4, bytes: Array(second.utf8))),
        ]
        return (head + extra).sorted { $0.time < $1.time }
    }

    /// The recording written as a file and read back (so the format is what is tested), replayed.
    static func replay(_ inputs: [(time: Int, input: RecordedInput)]) throws -> [(time: Int, record: Record)] {
        let text = inputs.map { "{\"t\":\($0.time),\($0.input.fields)}" }.joined(separator: "\n")
        let read = try RecordedInput.read(text, file: "n.session.record")
        #expect(read.map(\.input) == inputs.map(\.input))
        let sink = RecordingSink()
        _ = try SessionReplay(inputs: read, file: "n.session.record", profiles: .shipped, makeTranslator: louisTranslator(for:))
            .run(sink: sink) { (p) throws(Diagnostic) in throw Diagnostic(file: p, line: nil, path: "", message: "no catalog") }
        return sink.records
    }

    static func speaks(_ records: [(time: Int, record: Record)]) -> [(time: Int, spoken: Spoken)] {
        records.compactMap { if case .speech(.speak(let s)) = $0.record { ($0.time, s) } else { nil } }
    }

    /// The first announcement as spoken: its id, read from a replay of the set-up alone.
    static func firstAnnouncement() throws -> Spoken {
        try #require(speaks(try replay(inputs(notices: true))).first { $0.spoken.utterance.text == "Three items added" }?.spoken)
    }

    @Test("an end notice earlier than the estimate starts the announcement put off behind it then, as it did live")
    func endedEarly() throws {
        let first = try Self.firstAnnouncement()
        let records = try Self.replay(Self.inputs(notices: true, extra: [(21, .speech(.begin, id: first.id)), (300, .speech(.end, id: first.id))]))
        let announced = try #require(Self.speaks(records).first { $0.spoken.utterance.text == "Total 12 euros" })
        #expect(announced.time == 300, "it started when speech-dispatcher said the first one ended")
        // The notices are in the transcript as the live session wrote them.
        let lines = records.map { Transcript.line(for: $0.record, at: $0.time).json }
        #expect(lines.contains(#"{"t":300,"ch":"event","type":"speechd","notice":"end","id":"\#(first.id)","text":"\#(first.utterance.text)"}"#), "\(lines)")

        // A recording without notices (an older one) keeps estimating: the announcement waits
        // for the first one's estimated end, 60 ms a character.
        let estimated = try #require(Self.speaks(try Self.replay(Self.inputs(notices: false))).first { $0.spoken.utterance.text == "Total 12 euros" })
        #expect(estimated.time == 20 + first.utterance.text.count * 60, "\(estimated.time)")
    }

    @Test("an end notice later than the estimate (a slow voice) holds the announcement put off behind it until then")
    func endedLate() throws {
        let first = try Self.firstAnnouncement()
        let estimate = 20 + first.utterance.text.count * 60
        let records = try Self.replay(Self.inputs(notices: true, extra: [(21, .speech(.begin, id: first.id)), (estimate + 900, .speech(.end, id: first.id))]))
        let announced = try #require(Self.speaks(records).first { $0.spoken.utterance.text == "Total 12 euros" })
        #expect(announced.time == estimate + 900, "not at the estimate, \(estimate)")
    }

    @Test("a cancel notice (speech-dispatcher cut it) lets the announcement put off behind it start then")
    func cancelled() throws {
        let first = try Self.firstAnnouncement()
        let records = try Self.replay(Self.inputs(notices: true, extra: [(21, .speech(.begin, id: first.id)), (120, .speech(.cancel, id: first.id))]))
        let announced = try #require(Self.speaks(records).first { $0.spoken.utterance.text == "Total 12 euros" })
        #expect(announced.time == 120)
        let lines = records.map { Transcript.line(for: $0.record, at: $0.time).json }
        #expect(lines.contains { $0.hasPrefix(#"{"t":120,"ch":"event","type":"speechd","notice":"cancel","id":"\#(first.id)""#) })
    }

    @Test("while speech-dispatcher answers, nothing queued starts before its end notice")
    func waitsForTheNotice() throws {
        let first = try Self.firstAnnouncement()
        // Begun but never ended before the recording stops: the announcement never started live.
        let records = try Self.replay(Self.inputs(notices: true, extra: [(21, .speech(.begin, id: first.id)), (5_000, .stop)]))
        #expect(!Self.speaks(records).contains { $0.spoken.utterance.text == "Total 12 euros" })
    }

    @Test("notices are written and read back; a wrong one is named")
    func format() throws {
        #expect(RecordedInput.speech(.end, id: 12).fields == #""speechd":"end","id":12"#)
        #expect(RecordedInput.start(profile: "default", catalog: nil, speechNotices: true).fields == #""start":{"profile":"default","speechNotices":true}"#)
        let read = try RecordedInput.read(#"{"t":5,"speechd":"begin","id":3}"# + "\n" + #"{"t":9,"speechd":"cancel","id":3}"#, file: "k.session.record")
        #expect(read.map(\.input) == [.speech(.begin, id: 3), .speech(.cancel, id: 3)])
        #expect(read.map(\.time) == [5, 9])
        #expect(SessionInput(.speech(.end, id: 4)).map { if case .output(.speechEnded(4)) = $0 { true } else { false } } == true)
        do {
            _ = try RecordedInput.read(#"{"t":5,"speechd":"paused","id":3}"#, file: "k.session.record")
            Issue.record("an unknown notice was accepted")
        } catch {
            #expect("\(error)".contains("k.session.record:1") && "\(error)".contains(#"unknown notice "paused""#), "\(error)")
        }
        do {
            _ = try RecordedInput.read(#"{"t":5,"speechd":"end"}"#, file: "k.session.record")
            Issue.record("a notice without its id was accepted")
        } catch {
            #expect("\(error)".contains(#"needs "id""#), "\(error)")
        }
    }
}
