import Foundation
import Testing
import TandemModel
import TandemService
import TandemSession
import TandemVocabulary
import TandemTestSupport

/// A live `tandem serve` session speaking through a real speech-dispatcher, recorded with
/// `--record`, replays headless to the transcript the live session wrote, byte for byte
/// (Docs/protocol.md#record): speech-dispatcher's begin/end/cancel notices are in the
/// recording, so the replay makes the choices the live run made — what was dropped while
/// something spoke, which progress step was said — not the ones estimates would make.
@Suite("a live session with speech-dispatcher, recorded and replayed", .serialized)
struct LiveRecordingTests {
    static let screen = #"""
        {"type":"screen","screen":{"id":"order","title":"Checkout","focus":"title","root":{"id":"root","children":[{"id":"title","label":"Checkout","traits":["header"],"frame":[0,0,390,44]},{"id":"pay","label":"Pay now","traits":["button"],"frame":[0,60,390,44]},{"id":"loading","label":"Placing order","frame":[0,110,390,44],"progress":{"label":"Placing order","value":0}}]}}}
        """#

    @Test("the replay of the recording is the live transcript, line for line, notices and all")
    func replayIsWhatWasHeard() throws {
        // The daemon speaks slower than Tandem's estimate (100 ms a character, not 60), so a
        // replay that estimated would end speech early and start and drop other things than
        // were heard.
        let speech = try SpeechFixture(msPerCharacter: 100)
        defer { speech.stop() }
        let folder = try temporaryDirectory(prefix: "tandem-live-record")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recordPath = folder + "/checkout.session.record"
        let serve = try ServeProcess(profile: "headless", extra: ["--speech", speech.address, "--record", recordPath])

        let app = try serve.client()
        #expect(app.send(#"{"type":"hello","v":1,"role":"app","name":"Shop","language":"en"}"#))
        #expect(app.send(Self.screen.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(app.send(#"{"type":"status","id":"ready"}"#))
        #expect(app.readLine(timeout: .seconds(10)) { $0.contains(#""id":"ready""#) } != nil)
        let controller = try serve.client()
        #expect(controller.send(#"{"type":"hello","v":1,"role":"controller"}"#))
        // The user moves to the indicator while the app reports its progress in quick steps
        // and announces; each step is sent as speech-dispatcher is saying the last.
        for command in ["next", "next"] {
            #expect(controller.send(#"{"type":"command","command":"\#(command)"}"#))
        }
        for step in [0.25, 0.5, 0.75, 1.0] {
            #expect(app.send(#"{"type":"set","id":"loading","progress":{"label":"Placing order","value":\#(step)}}"#))
        }
        #expect(app.send(#"{"type":"notify","notification":"announcement","text":"Order placed"}"#))
        // Everything said to its end: the last thing Tandem sent finished in the daemon.
        let finished = speech.waitForCapture(timeout: .seconds(30)) { $0.finished.contains("Order placed") }
        #expect(finished.finished.contains("Order placed"), "\(finished)")
        #expect(waitUntil(timeout: .seconds(10)) {
            serve.transcriptLines.contains { $0.contains(#""notice":"end""#) && $0.contains(#""text":"Order placed""#) }
        }, "the end notice of the last utterance reached the transcript")
        #expect(serve.stop() == 0)
        let live = serve.transcriptLines

        let inputs = try RecordedInput.read(try String(contentsOfFile: recordPath, encoding: .utf8), file: recordPath)
        guard case .start(_, _, _, let notices)? = inputs.first?.input else { Issue.record("no start line"); return }
        #expect(notices, "the recording says its notices are in it")
        #expect(inputs.contains { if case .speech(.end, _) = $0.input { true } else { false } }, "speech-dispatcher's end notices are recorded")
        #expect(inputs.last?.input == .stop)
        #expect(live.contains { $0.contains(#""type":"speechd""#) }, "speech went through the daemon")

        let sink = RecordingSink()
        _ = try SessionReplay(inputs: inputs, file: recordPath, profiles: .shipped, makeTranslator: louisTranslator(for:))
            .run(sink: sink) { (p) throws(Diagnostic) in throw Diagnostic(file: p, line: nil, path: "", message: "no catalog") }
        let replayed = sink.records.map { Transcript.line(for: $0.record, at: $0.time).json }
        #expect(replayed == live, Comment(rawValue: Self.firstDifference(replayed, live)))
    }

    static func firstDifference(_ a: [String], _ b: [String]) -> String {
        for i in 0..<max(a.count, b.count) where i >= a.count || i >= b.count || a[i] != b[i] {
            return "line \(i + 1): replay \(i < a.count ? a[i] : "(none)")\n        live   \(i < b.count ? b[i] : "(none)")"
        }
        return "same"
    }
}
