import Synchronization
import TandemVocabulary
import Testing
import TandemOutputs
import TandemPresentation
@testable import TandemService
@testable import TandemSession

/// Long lines are cut before translation (Docs/braille.md#long-lines; issue 27, item 3):
/// counted in characters handed to the translator, never in time.
@Suite("braille long lines")
struct BrailleLimitTests {
    /// A translator that writes one cell per character and counts what it was given.
    final class CountingTranslator: BrailleTranslator, Sendable {
        // Guarded by the mutex; read only by the test after the session is done.
        let given = Mutex<[Int]>([])
        func translate(_ text: String, language: String, cursor: Int?, editing: Bool) -> (cells: [Cell], cursor: Int?) {
            let n = text.unicodeScalars.count
            given.withLock { $0.append(n) }
            return ([Cell](repeating: Cell(1), count: n), cursor)
        }
    }

    @Test("a line over 2,048 characters keeps its start and a marker; with the cursor beyond, the text around the cursor")
    func cut() {
        let long = String(repeating: "a", count: 3_000) + "Z" + String(repeating: "b", count: 3_000)
        let head = BrailleText(text: long, cursor: 0).limited()
        #expect(head.text.unicodeScalars.count == BrailleText.maxCharacters + 1)
        #expect(head.text.hasSuffix("a…"))
        #expect(head.cursor == 0)
        let atZ = BrailleText(text: long, cursor: 3_000, editing: true).limited()
        #expect(atZ.text.hasPrefix("…a"))
        #expect(atZ.text.hasSuffix("b…"))
        #expect(atZ.text.unicodeScalars.count == BrailleText.maxCharacters + 2)
        let scalars = Array(atZ.text.unicodeScalars)
        #expect(scalars[atZ.cursor!] == "Z", "the cursor stays on its character")
        #expect(atZ.editing)
        let end = BrailleText(text: long, cursor: long.unicodeScalars.count).limited()
        #expect(end.text.hasPrefix("…b"))
        #expect(!end.text.hasSuffix("…"))
        #expect(end.cursor == end.text.unicodeScalars.count)
        let short = BrailleText(text: "OK btn", cursor: 0)
        #expect(short.limited() == short)
    }

    @Test("a 900 KiB announcement and a 900 KiB value give the translator at most 2,049 characters each")
    func hugeTextsAreBounded() throws {
        let profile = try ProfileStore.shipped.load("default").0
        let counting = CountingTranslator()
        let records = RecordingSink()
        var (session, service) = Service.start(profile: profile, catalog: nil, sink: records, timing: .virtual, makeTranslator: { _ in counting })
        service.open(&session, at: 0)
        service.connected("c1")
        func send(_ json: String, line: Int) {
            service.received("c1", line: line, bytes: Array(json.utf8), session: &session, at: 0)
            session.settle()
        }
        send(#"{"type":"hello","v":1,"role":"app","name":"Flood"}"#, line: 1)
        send(#"{"type":"screen","screen":{"id":"s","root":{"id":"r","children":[{"id":"f","label":"Notes","traits":["searchField"]}]}}}"#, line: 2)
        let huge = String(repeating: "x", count: 921_600)
        send(#"{"type":"notify","notification":"announcement","text":"\#(huge)"}"#, line: 3)
        send(#"{"type":"set","id":"f","value":"\#(huge)"}"#, line: 4)
        let given = counting.given.withLock { $0 }
        #expect(!given.isEmpty)
        #expect(given.allSatisfy { $0 <= BrailleText.maxCharacters + 2 }, "the translator was given \(given.max() ?? 0) characters")
        let shown = records.records.compactMap { if case .braille(let f) = $0.record { f.text } else { nil } }
        #expect(shown.contains { $0.hasPrefix("xxx") && $0.hasSuffix("…") })
    }

    /// A service with one app on a screen with a search field, translating through `counting`.
    static func served(profile name: String, counting: CountingTranslator) throws -> (Session, Service) {
        let profile = try ProfileStore.shipped.load(name).0
        var (session, service) = Service.start(profile: profile, catalog: nil, sink: RecordingSink(), timing: .virtual, makeTranslator: { _ in counting })
        service.open(&session, at: 0)
        service.connected("c1")
        for (k, line) in [#"{"type":"hello","v":1,"role":"app","name":"Flood"}"#,
                          #"{"type":"screen","screen":{"id":"s","root":{"id":"r","children":[{"id":"f","label":"Notes","traits":["searchField"]}]}}}"#].enumerated() {
            service.received("c1", line: k + 1, bytes: Array(line.utf8), session: &session, at: 0)
            session.settle()
        }
        return (session, service)
    }

    @Test("with no braille output (the speech-only profile) announcements, values and focus are never translated")
    func noDisplayNoTranslation() throws {
        let counting = CountingTranslator()
        var (session, service) = try Self.served(profile: "speech-only", counting: counting)
        for k in 0..<50 {
            service.received("c1", line: 3 + 2 * k, bytes: Array(#"{"type":"notify","notification":"announcement","text":"Item \#(k)"}"#.utf8), session: &session, at: k)
            service.received("c1", line: 4 + 2 * k, bytes: Array(#"{"type":"set","id":"f","value":"v\#(k)"}"#.utf8), session: &session, at: k)
            session.settle()
        }
        #expect(counting.given.withLock { $0 }.isEmpty)
    }

    @Test("with a display, 100 value changes in one instant translate the newest, not all 100")
    func burstTranslatesTheNewest() throws {
        let counting = CountingTranslator()
        var (session, service) = try Self.served(profile: "default", counting: counting)
        let before = counting.given.withLock { $0.count }
        for k in 0..<100 {
            service.received("c1", line: 3 + k, bytes: Array(#"{"type":"set","id":"f","value":"v\#(k)"}"#.utf8), session: &session, at: 10)
        }
        session.settle()
        let given = counting.given.withLock { $0.count } - before
        #expect(given <= 2, "\(given) lines translated for 100 changes")
    }
}
