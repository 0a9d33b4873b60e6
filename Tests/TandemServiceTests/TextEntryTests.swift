import Foundation
import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
import TandemTestSupport
@testable import TandemService
@testable import TandemSession

/// Text entry (`type TEXT`, `delete`, `clear`): a focused text field takes typed text — a
/// catalog's field changes its value, an app is sent the action and its new value is heard as
/// the user's own change; a secure field's text is never said or written down.
@Suite("text entry")
struct TextEntryTests {
    @Test("type takes the rest of the line as its text; delete and clear are words; a key cannot carry text")
    func parsing() {
        #expect(Command(name: "type Hello  world") == .type("Hello  world"))
        #expect(Command(name: "type Hello  world")?.name == "type Hello  world")
        #expect(Command(name: "type") == nil && Command(name: "type ") == nil)
        #expect(Command(name: "delete") == .deleteBackward && Command(name: "clear") == .clearText)
        #expect(KeyBinding(name: "type") == nil)
        #expect(KeyBinding(name: "clear") == .command(.clearText))
    }

    @Test("in a catalog, typed text is the field's value and is said; a secure field says one bullet a character; a button takes none")
    func catalogReplay() throws {
        let r = try CLITests.tandem(["replay", CLITests.fixture("form.catalog.json"), CLITests.fixture("form.scenario")])
        #expect(r.status == 0, "\(r.stderr)")
        let spoken = r.stdout.split(separator: "\n").filter { $0.contains(#""op":"speak""#) }.compactMap { line -> String? in
            guard let a = line.range(of: #""text":""#), let b = line[a.upperBound...].range(of: #"""#) else { return nil }
            return String(line[a.upperBound..<b.lowerBound])
        }
        #expect(spoken == ["Sign in, heading", "Email, text field", "ana@example.org", "ana@example.or",
                           "Password, secure text field", "••••••",
                           "Password",  // cleared: nothing left to say but the field's name
                           "Sign in, button"], "\(spoken)")
        #expect(!r.stdout.contains("s3cret"), "the secret is in no line of the transcript")
        let tail = r.stdout.split(separator: "\n").suffix(3).map(String.init)
        #expect(tail.first == #"{"t":14000,"ch":"sound","icon":"boundary"}"#, "typing on a button is a boundary: \(tail)")
        #expect(tail.dropFirst().first?.contains(#""text":"Not available","#) == true, "and the display says so: \(tail)")
    }

    @Test("a scenario's type with no text names what it takes")
    func scenarioError() throws {
        let scenario = CLITests.temporaryPath("bad.scenario")
        try "next\ntype\n".write(toFile: scenario, atomically: true, encoding: .utf8)
        let r = try CLITests.tandem(["replay", CLITests.fixture("form.catalog.json"), scenario])
        #expect(r.status == 2)
        #expect(r.stderr.contains("bad.scenario:2: type takes the text to type (type TEXT)"), "\(r.stderr)")
    }

    @Test("an app's text field is sent the typed text; the value the app sets back is heard as the user's own; secure text stays secret in the transcript")
    func appTextField() throws {
        var s = try ServiceTests.Served()
        s.connect("c1")
        s.send("c1", #"{"type":"hello","v":1,"role":"app","name":"Bank"}"#)
        s.send("c1", #"{"type":"screen","screen":{"id":"login","focus":"user","root":{"id":"r","children":[{"id":"user","label":"User","traits":["textField"],"frame":[0,0,390,44]},{"id":"pin","label":"PIN","traits":["secureTextField"],"frame":[0,50,390,44]}]}}}"#, line: 2)
        s.wait(2000)
        #expect(s.key(.type("ana")).map(\.json).contains(#"{"type":"action","action":"type","id":"user","text":"ana"}"#))
        s.wait(100)
        let before = s.spoken.count
        s.send("c1", #"{"type":"set","id":"user","value":"ana"}"#, line: 3)
        s.wait(2000)
        #expect(Array(s.spoken.dropFirst(before)) == ["ana"])
        #expect(s.usersOwnValue == true)
        #expect(s.key(.deleteBackward).map(\.json).contains(#"{"type":"action","action":"delete","id":"user"}"#))
        #expect(s.key(.clearText).map(\.json).contains(#"{"type":"action","action":"clear","id":"user"}"#))
        _ = s.key(.next)
        s.wait(2000)
        #expect(s.key(.type("1234")).map(\.json).contains(#"{"type":"action","action":"type","id":"pin","text":"1234"}"#))
        let events = s.records.records.compactMap { if case .event(let e) = $0.record, e.type == "app-action" { e } else { nil } }
        #expect(events.last?.fields.contains { $0.key == "text" && $0.value == "••••" } == true, "\(String(describing: events.last))")
    }
}

extension TextEntryTests {
    @Test("tandem ctl command type \"…\": the quoted word is the text, spaces kept, and the next word is a command again")
    func ctlType() throws {
        let serve = try ServeProcess(extra: ["--catalog", CLITests.fixture("form.catalog.json")])
        defer { serve.stop() }
        let r = try CtlCommandTests.ctl(["command", "next", "type", "ana maria@example.org", "delete"], socket: serve.socket)
        #expect(r.status == 0, "\(r.output)")
        #expect(waitUntil(timeout: .seconds(10)) { serve.transcriptLines.contains { $0.contains(#""command":"delete""#) } })
        let keys = serve.transcriptLines.filter { $0.contains(#""type":"key""#) }
        #expect(keys.contains { $0.hasSuffix(#""command":"type ana maria@example.org"}"#) }, "\(keys)")
        #expect(waitUntil(timeout: .seconds(10)) {
            serve.transcriptLines.contains { $0.contains(#""op":"speak""#) && $0.contains(#""text":"ana maria@example.or""#) }
        }, "\(serve.transcriptLines.filter { $0.contains("speak") })")
    }
}
