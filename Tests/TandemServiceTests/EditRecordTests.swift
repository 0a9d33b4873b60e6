import Foundation
import TandemVocabulary
import Testing
import TandemModel
import TandemOutputs
@testable import TandemService
@testable import TandemSession
import TandemTestSupport

/// Children-list edits (Docs/protocol.md#edits) through `tandem serve --record` and
/// `tandem replay --session`: recorded as sent, byte for byte, and replayed with the focus moves
/// the live session made.
@Suite("children edits recorded and replayed", .serialized)
struct EditRecordTests {
    static let lines = [
        #"{"type":"hello","v":1,"role":"app","name":"Groceries"}"#,
        #"{"type":"screen","screen":{"id":"list","focus":"title","root":{"id":"root","children":[{"id":"title","label":"Groceries","traits":["header"],"frame":[0,0,390,44]},{"id":"rows","children":[{"id":"bread","label":"Bread","traits":["button"],"frame":[0,60,390,44]},{"id":"eggs","label":"Eggs","frame":[0,110,390,44]}]}]}}}"#,
        #"{"type":"update","nodes":[{"id":"milk","label":"Milk","frame":[0,85,390,20]}],"edits":[{"parent":"rows","insert":["milk"],"after":"bread"}],"focus":"milk"}"#,
        #"{"type":"update","edits":[{"parent":"rows","remove":["ghost"]}]}"#,
        #"{"type":"update","edits":[{"parent":"rows","remove":["milk"]}],"focus":"eggs"}"#,
        #"{"type":"update","edits":[{"parent":"rows","remove":["bread"]},{"parent":"root","insert":["bread"],"before":"rows"}]}"#,
    ]

    @Test("an app's edits are recorded as sent, and the recording replays them as the live session made them")
    func roundTrip() throws {
        let folder = try temporaryDirectory(prefix: "tandem-edit-record")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recordPath = folder + "/edits.record"
        let serve = try ServeProcess(extra: ["--record", recordPath])
        let app = try serve.client()
        for line in Self.lines { app.send(line) }
        // A barrier: everything before it is carried out (and recorded).
        app.send(#"{"type":"status","id":"done"}"#)
        #expect(app.readLine(timeout: .seconds(10)) { $0.contains(#""id":"done""#) } != nil)
        #expect(serve.stop() == 0)
        let liveLines = serve.transcriptLines
        #expect(liveLines.contains { $0.contains(#""id":"milk","reason":"layoutChanged""#) }, "the inserted row took focus")

        let text = try String(contentsOfFile: recordPath, encoding: .utf8)
        let inputs = try RecordedInput.read(text, file: recordPath)
        #expect(inputs.last?.input == .stop, "SIGTERM is recorded as the end")
        #expect(inputs.contains { $0.input == .open }, "the opening is recorded after the devices' first reports")
        let sent: [String] = inputs.compactMap {
            guard case .line(_, _, let bytes) = $0.input else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(Array(sent.prefix(Self.lines.count)) == Self.lines, "recorded byte for byte")

        func replay() throws -> [String] {
            let sink = RecordingSink()
            _ = try SessionReplay(inputs: inputs, file: recordPath, profiles: .shipped, makeTranslator: louisTranslator(for:))
                .run(sink: sink) { (p) throws(Diagnostic) in throw Diagnostic(file: p, line: nil, path: "", message: "no catalog") }
            return sink.records.map { Transcript.line(for: $0.record, at: $0.time).json }
        }
        let replayed = try replay()
        #expect(try replay() == replayed, "a replay is the same every time")
        let stopTime = try #require(inputs.last?.time)
        let times = replayed.compactMap { line in line.split(separator: ",").first.flatMap { Int($0.dropFirst(#"{"t":"#.count)) } }
        #expect(times.count == replayed.count && times.allSatisfy { $0 <= stopTime }, "nothing is replayed past the stop")
        // The replay is the live transcript, line for line, from the devices' reports the runner
        // took before it opened to the stop.
        #expect(replayed == liveLines)
        // The focus moves the edits made, at the times they were made live.
        func focusMoves(_ lines: [String]) -> [String] { lines.filter { $0.contains(#""type":"focus""#) && $0.contains(#""screen":"list""#) } }
        #expect(focusMoves(replayed) == focusMoves(liveLines))
        #expect(focusMoves(replayed).map { $0.contains(#""id":"milk","reason":"layoutChanged""#) || $0.contains(#""id":"eggs","reason":"layoutChanged""#) }.filter { $0 }.count == 2,
                "\(focusMoves(replayed))")
    }
}
