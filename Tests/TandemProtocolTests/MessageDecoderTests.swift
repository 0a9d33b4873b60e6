import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
@testable import TandemProtocol

/// Every message of Docs/protocol.md decodes to its typed value, and every mistake comes back
/// as one sentence with the line (and the JSON path when it is about a part).
@Suite("protocol messages")
struct MessageDecoderTests {
    func decode(_ json: String, line: Int = 1) -> Result<Incoming, ProtocolError> {
        MessageDecoder.decode(Array(json.utf8), line: line)
    }

    func message(_ json: String) throws -> ClientMessage {
        try decode(json).get().message
    }

    func error(_ json: String, line: Int = 7) -> String? {
        if case .failure(let e) = decode(json, line: line) {
            #expect(e.line == line, "errors carry the message's line")
            return e.message
        }
        return nil
    }

    @Test("hello: version, role, name and language; an app must say its name")
    func hello() throws {
        guard case .hello(let h) = try message(#"{"type":"hello","v":1,"role":"app","name":"Groceries","language":"pt-BR"}"#) else {
            Issue.record("not a hello"); return
        }
        #expect(h == Hello(version: 1, role: .app, name: "Groceries", language: "pt-BR"))
        guard case .hello(let c) = try message(#"{"type":"hello","v":1,"role":"controller"}"#) else { Issue.record("not a hello"); return }
        #expect(c.role == .controller && c.language == "en")
        #expect(error(#"{"type":"hello","v":1,"role":"app"}"#) == "an app's hello needs its \"name\"")
        #expect(error(#"{"type":"hello","v":1,"role":"viewer"}"#) == "role: role is app or controller, found \"viewer\"")
        #expect(error(#"{"type":"hello","role":"app","name":"x"}"#) == "missing field \"v\" (the protocol version: 1)")
    }

    @Test("screen: a whole screen, its elements read as an app sends them (handlers are flags, actions names)")
    func screen() throws {
        guard case .screen(let s) = try message("""
            {"type":"screen","screen":{"id":"list","title":"Groceries","focus":"title","root":{"id":"root","children":[
              {"id":"title","label":"Groceries","traits":["header"],"frame":[0,0,390,44]},
              {"id":"banana","label":"Banana","actions":[{"name":"Delete"}],"magicTap":true,"activate":[{"screen":"nowhere"}]}]}}}
            """) else { Issue.record("not a screen"); return }
        #expect(s.id == "list" && s.focus == "title")
        #expect(s.elements.map(\.id) == ["root", "title", "banana"])
        let banana = try #require(s["banana"])
        #expect(banana.actions.map(\.name) == ["Delete"])
        #expect(banana.magicTap == [] && banana.activate == [], "a handler the app declares; its effects are not read")
        #expect(error(#"{"type":"screen","screen":{"id":"s","focus":"nope","root":{"id":"r"}}}"#)
                == "screen: the screen's focus \"nope\" is not one of its elements")
        #expect(error(#"{"type":"screen","screen":{"id":"s","root":{"id":"r","children":[{"id":"a"},{"id":"a"}]}}}"#)
                == "screen.root.children[1].id: duplicate element id \"a\"")
    }

    @Test("update: nodes with children as ids, and an optional focus")
    func update() throws {
        guard case .update(let u) = try message(#"{"type":"update","nodes":[{"id":"list","children":["a","b"]},{"id":"b","label":"B","value":"2"}],"focus":"b"}"#) else {
            Issue.record("not an update"); return
        }
        #expect(u.focus == "b")
        #expect(u.nodes.map(\.childIDs) == [["a", "b"], nil])
        #expect(u.nodes[1].element.value == "2")
        #expect(error(#"{"type":"update","nodes":[{"id":"b","traits":["buton"]}]}"#)?.hasPrefix("nodes[0].traits[0]: unknown trait \"buton\"") == true)
        #expect(error(#"{"type":"update","nodes":[{"id":"b","children":[{"id":"c"}]}]}"#) == "nodes[0].children[0]: expected a string, found an object")
    }

    @Test("update: children-list edits by id, with or without nodes; their mistakes named by path")
    func edits() throws {
        guard case .update(let u) = try message(#"{"type":"update","nodes":[{"id":"kiwi","label":"Kiwi"}],"edits":[{"parent":"list","insert":["kiwi"],"after":"a"},{"parent":"list","remove":["b","c"]},{"parent":"side","remove":["d"],"insert":["d"],"before":"e"}]}"#) else {
            Issue.record("not an update"); return
        }
        #expect(u.nodes.map(\.element.id) == ["kiwi"])
        #expect(u.edits == [TreeUpdate.ChildrenEdit(parent: "list", insert: ["kiwi"], place: .after("a")),
                            TreeUpdate.ChildrenEdit(parent: "list", remove: ["b", "c"]),
                            TreeUpdate.ChildrenEdit(parent: "side", remove: ["d"], insert: ["d"], place: .before("e"))])
        guard case .update(let alone) = try message(#"{"type":"update","edits":[{"parent":"list","remove":["b"]}]}"#) else {
            Issue.record("not an update"); return
        }
        #expect(alone.nodes.isEmpty && alone.edits.count == 1)
        #expect(error(#"{"type":"update"}"#) == "missing field \"nodes\"")
        #expect(error(#"{"type":"update","edits":[{"remove":["b"]}]}"#) == "edits[0]: an edit needs its \"parent\" (the element whose children it changes)")
        #expect(error(#"{"type":"update","edits":[{"parent":"list","insert":["k"],"after":"a","before":"b"}]}"#) == "edits[0].before: an edit has \"after\" or \"before\", not both")
        #expect(error(#"{"type":"update","edits":[{"parent":"list","remove":["b"],"after":"a"}]}"#) == "edits[0].after: \"after\" and \"before\" place what an edit inserts; this one inserts nothing")
        #expect(error(#"{"type":"update","edits":[{"parent":"list","insert":"k"}]}"#) == "edits[0].insert: expected an array, found a string")
        #expect(error(#"{"type":"update","edits":{"parent":"list"}}"#) == "edits: expected an array, found an object")
    }

    @Test("set: the named fields only, null clears, and its id is the element (never acknowledged)")
    func set() throws {
        let incoming = try decode(#"{"type":"set","id":"cell.banana","value":"1 in cart","hint":null}"#).get()
        #expect(incoming.message.isSet)
        guard case .set(let id, let patch) = incoming.message else { Issue.record("not a set"); return }
        #expect(id == "cell.banana")
        #expect(patch.given == [.value, .hint])
        var e = Element(id: "cell.banana")
        e.hint = "Double tap"
        e.label = .plain("Banana")
        patch.apply(to: &e)
        #expect(e.value == "1 in cart" && e.hint == nil && e.label == .plain("Banana"))
        #expect(error(#"{"type":"set","id":"x","children":[]}"#) == "children: children cannot be set; send an update with the element's children")
        #expect(error(#"{"type":"set","id":"x"}"#) == "set names no field to change (an element field such as \"label\" or \"value\", beside \"id\")")
        #expect(error(#"{"type":"set","value":"1"}"#) == "missing field \"id\" (the element to change)")
    }

    @Test("notify: announcement with priority, layout and screen changes with focus, page scrolled")
    func notify() throws {
        guard case .notify(let a) = try message(#"{"type":"notify","notification":"announcement","text":"Banana deleted","priority":"high"}"#),
              case .notify(let l) = try message(#"{"type":"notify","notification":"layoutChanged","focus":"b"}"#),
              case .notify(let s) = try message(#"{"type":"notify","notification":"screenChanged"}"#),
              case .notify(let p) = try message(#"{"type":"notify","notification":"pageScrolled","text":"Page 2 of 3"}"#) else {
            Issue.record("not notifications"); return
        }
        #expect(a == .announcement(text: "Banana deleted", priority: .high))
        #expect(l == .layoutChanged(focus: "b") && s == .screenChanged(focus: nil) && p == .pageScrolled(text: "Page 2 of 3"))
        #expect(error(#"{"type":"notify","notification":"shake"}"#)?.hasPrefix("notification: unknown notification \"shake\"") == true)
        #expect(error(#"{"type":"notify","notification":"announcement","text":"x","priority":"urgent"}"#) == "priority: priority is high or default, found \"urgent\"")
    }

    @Test("controllers: commands by their table names and input methods, subscribe with channels, status, foreground")
    func controllers() throws {
        guard case .command(let c, let none) = try message(#"{"type":"command","command":"route 3"}"#),
              case .command(let typed, let keyboard) = try message(#"{"type":"command","command":"type q ?","input":"keyboard"}"#),
              case .command(_, let braille) = try message(#"{"type":"command","command":"activate","input":"braille"}"#) else {
            Issue.record("not commands"); return
        }
        #expect(c == .route(3) && none == nil)
        #expect(typed == .type("q ?") && keyboard == .keyboard && braille == .braille)
        #expect(error(#"{"type":"command","command":"next","input":"voice"}"#) == "input: unknown input \"voice\" (touch, keyboard, braille)")
        guard case .subscribe(let all) = try message(#"{"type":"subscribe"}"#),
              case .subscribe(let some) = try message(#"{"type":"subscribe","channels":["speech","braille"]}"#) else {
            Issue.record("not subscribes"); return
        }
        #expect(all == nil && some == [.speech, .braille])
        guard case .foreground(let f) = try message(#"{"type":"foreground","name":"Groceries"}"#) else { Issue.record("not foreground"); return }
        #expect(f == .name("Groceries"))
        #expect(error(#"{"type":"command","command":"jump"}"#)?.hasPrefix("command: unknown command \"jump\"") == true)
        #expect(error(#"{"type":"subscribe","channels":["smell"]}"#) == "channels: unknown channel \"smell\" (speech, braille, sound, event)")
    }

    @Test("a request id comes back as it came, on replies and on errors")
    func requestIDs() throws {
        let ok = try decode(#"{"type":"status","id":7}"#).get()
        #expect(ok.requestID.map(JSONText.value) == "7")
        guard case .failure(let e) = decode(#"{"type":"command","command":"jump","id":{"n":[1,"two"]}}"#) else { Issue.record("no error"); return }
        #expect(e.requestID.map(JSONText.value) == #"{"n":[1,"two"]}"#)
        #expect(ServerMessage.error(e).json.hasSuffix(#","id":{"n":[1,"two"]}}"#))
    }

    @Test("not JSON, not an object, no type, an unknown type: each a sentence")
    func malformed() {
        #expect(error(#"{"type":"status""#)?.hasPrefix("not valid JSON") == true)
        #expect(error("[1,2]") == "a message is a JSON object, found an array")
        #expect(error(#"{"v":1}"#) == "missing field \"type\"")
        #expect(error(#"{"type":"dance"}"#)?.hasPrefix("type: unknown message type \"dance\" (known: hello, screen") == true)
    }

    @Test("what Tandem sends: one JSON object a line, in the shapes Docs/protocol.md gives")
    func serverMessages() {
        #expect(ServerMessage.welcome(client: "c1", limits: .init(maxLine: 1_048_576, userActionWindow: 500),
                                      features: .init([.unsubscribe, .edits, .ack])).json
                == #"{"type":"welcome","v":1,"client":"c1","maxLine":1048576,"maxUpdateNodes":8192,"userActionWindow":500,"features":["ack","edits","unsubscribe"]}"#,
                "features sorted by name")
        #expect(ServerMessage.welcome(client: "c2", limits: .init(maxLine: 4096, userActionWindow: 250), features: .none).json
                == #"{"type":"welcome","v":1,"client":"c2","maxLine":4096,"maxUpdateNodes":8192,"userActionWindow":250,"features":[]}"#)
        #expect(ServerMessage.action(AppAction(.custom, element: "cell.banana", name: "Delete")).json
                == #"{"type":"action","action":"custom","id":"cell.banana","name":"Delete"}"#)
        #expect(ServerMessage.focus(screen: "list", element: "title").json == #"{"type":"focus","screen":"list","id":"title"}"#)
        #expect(ServerMessage.error(ProtocolError("no element \"x\"", line: 4)).json == #"{"type":"error","error":"no element \"x\"","line":4}"#)
        let status = StatusReport(apps: [.init(client: "c1", name: "Groceries", foreground: true)], speech: true, braille: false,
                                  screen: "list", focus: "title", requestID: nil)
        #expect(ServerMessage.status(status).json == #"{"type":"status","apps":[{"client":"c1","name":"Groceries","foreground":true}],"speech":"available","braille":"unavailable","screen":"list","focus":"title"}"#)
        let typing = StatusReport(apps: [.init(client: "c1", name: "Sign in", foreground: true)], speech: true, braille: true,
                                  screen: "signin", focus: "email", editing: "email", requestID: nil)
        #expect(ServerMessage.status(typing).json == #"{"type":"status","apps":[{"client":"c1","name":"Sign in","foreground":true}],"speech":"available","braille":"available","screen":"signin","focus":"email","editing":"email"}"#)
    }
}

@Suite("status for a person")
struct StatusReportTextTests {
    @Test("a status prints as a sentence of its fields, not as the decoder's values")
    func description() {
        let report = StatusReport(apps: [.init(client: "c1", name: "Groceries", foreground: true), .init(client: "c2", name: "Notes", foreground: false)],
                                  speech: true, braille: false, screen: "list", focus: "title", requestID: JSONNode(.number(1), line: 1))
        #expect("\(report)" == "apps: Groceries (c1, in front), Notes (c2); speech yes; braille no; screen list; focus title")
        #expect("\(StatusReport(apps: [], speech: false, braille: false, screen: "signin", focus: "email", editing: "email", requestID: nil))"
                == "apps: none; speech no; braille no; screen signin; focus email; typing into email")
        #expect("\(StatusReport(apps: [], speech: false, braille: false, screen: nil, focus: nil, requestID: nil))"
                == "apps: none; speech no; braille no; screen none; focus none")
    }
}
