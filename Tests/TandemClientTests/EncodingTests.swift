import Testing
import TandemClient
import TandemModel
import TandemNavigator
import TandemProtocol

/// What an app builds is what the protocol says, and what the service reads back is what the
/// app meant: the typed surface against the wire, without a socket.
@Suite("client encoding")
struct EncodingTests {
    @Test("JSON values keep their members in order, drop absent options and escape as Tandem does")
    func jsonValues() {
        let v: JSONValue = ["type": "notify", "text": "Say \"hi\"\nnow", "n": 3, "x": 0.25, "ok": true, "none": nil, "list": [1, "a"]]
        #expect(v.json == #"{"type":"notify","text":"Say \"hi\"\nnow","n":3,"x":0.25,"ok":true,"none":null,"list":[1,"a"]}"#)
        #expect(JSONValue.compact(["a": 1, "b": nil, "c": "x"]).json == #"{"a":1,"c":"x"}"#)
        #expect((["id": 1] as JSONValue).setting("id", 2).json == #"{"id":2}"#, "replaced in place")
        #expect((["type": "status"] as JSONValue).setting("id", 7).json == #"{"type":"status","id":7}"#, "added at the end")
        #expect(JSONValue.string("Пепперони ⠃").json == "\"Пепперони ⠃\"", "UTF-8 as it is, not escaped")
    }

    static let stepper = AppElement("banana.stepper", label: "Banana quantity", traits: .adjustable,
                                    frame: Frame(x: 276, y: 120, width: 98, height: 32),
                                    adjust: AppAdjust(value: 0, min: 0, max: 20, format: "%@ in cart"))

    @Test("an element writes the fields it has, defaults left out, children nested")
    func element() {
        #expect(Self.stepper.json.json == #"{"id":"banana.stepper","label":"Banana quantity","traits":["adjustable"],"frame":[276,120,98,32],"adjust":{"value":0,"min":0,"max":20,"step":1,"format":"%@ in cart"}}"#)
        let cell = AppElement("banana.cell", frame: Frame(x: 16, y: 104, width: 250, height: 64), accessible: true, actions: ["Delete"],
                              children: [AppElement("banana.name", label: "Banana"), AppElement("banana.photo", accessible: false)])
        #expect(cell.json.json == #"{"id":"banana.cell","frame":[16,104,250,64],"accessible":true,"actions":[{"name":"Delete"}],"children":[{"id":"banana.name","label":"Banana"},{"id":"banana.photo","accessible":false}]}"#)
        let loading = AppElement("loading", progress: Progress(label: "Placing order", value: 0.4), hidden: true, modal: true,
                                 handles: [.escape, .magicTap])
        #expect(loading.json.json == #"{"id":"loading","hidden":true,"modal":true,"progress":{"label":"Placing order","value":0.4},"magicTap":true,"escape":true}"#)
        let spinner = AppElement("spinner", progress: Progress(label: "Loading", value: nil))
        #expect(spinner.json.json == #"{"id":"spinner","progress":{"label":"Loading"}}"#, "no value: indeterminate")
    }

    @Test("an element's subtree as update nodes: parent first, children as ids; children left unsaid stay as they are")
    func nodes() {
        let row = AppElement("row", group: true, children: [AppElement("cell", label: "Banana", children: [AppElement("name", label: "B")]),
                                                            AppElement("stepper", label: "Q", children: [])])
        #expect(row.nodes.map(\.json) == [
            #"{"id":"row","group":true,"children":["cell","stepper"]}"#,
            #"{"id":"cell","label":"Banana","children":["name"]}"#,
            #"{"id":"name","label":"B"}"#,
            #"{"id":"stepper","label":"Q","children":[]}"#,
        ])
        // A list relabelled without its children keeps them (the service reads a node without
        // `children` as "children unchanged"), as the Python client's update does.
        #expect(AppElement("list", label: "Tasks (2)").nodes.map(\.json) == [#"{"id":"list","label":"Tasks (2)"}"#])
    }

    @Test("children edits write the protocol's edits, and Tandem's decoder reads back the same edits")
    func edits() throws {
        let edits = [TreeUpdate.ChildrenEdit(parent: "products", insert: ["kiwi.row"], place: .after("banana.row")),
                     TreeUpdate.ChildrenEdit(parent: "products", remove: ["milk.row"]),
                     TreeUpdate.ChildrenEdit(parent: "products", remove: ["a"], insert: ["a"], place: .before("b"))]
        #expect(edits.map(\.json.json) == [
            #"{"parent":"products","insert":["kiwi.row"],"after":"banana.row"}"#,
            #"{"parent":"products","remove":["milk.row"]}"#,
            #"{"parent":"products","remove":["a"],"insert":["a"],"before":"b"}"#,
        ])
        let message = JSONValue.compact(["type": "update", "edits": .array(edits.map(\.json))])
        guard case .update(let update) = try MessageDecoder.decode(Array(message.json.utf8), line: 1).get().message else {
            Issue.record("not an update"); return
        }
        #expect(update.edits == edits && update.nodes.isEmpty)
    }

    @Test("a set names only its fields; nil clears one")
    func changes() throws {
        let message = ElementChange.message(for: "sheet", [.hidden(false), .modal(true), .label(nil), .traits([.button, .selected])])
        #expect(message.json == #"{"type":"set","id":"sheet","hidden":false,"modal":true,"label":null,"traits":["button","selected"]}"#)
        guard case .set(let id, let patch) = try MessageDecoder.decode(Array(message.json.utf8), line: 1).get().message else {
            Issue.record("not a set"); return
        }
        #expect(id == "sheet")
        #expect(patch.given == [.hidden, .modal, .label, .traits])
        #expect(patch.values.modal && !patch.values.hidden && patch.values.label == nil && patch.values.traits == [.button, .selected])
    }

    @Test("a screen the app builds is the screen the service reads: ids, fields and tree shape")
    func screenRoundTrip() throws {
        let screen = AppScreen(id: "list", title: "Groceries", focus: "title", root: AppElement("root", children: [
            AppElement("title", label: "Groceries", traits: .header, frame: Frame(x: 16, y: 44, width: 358, height: 44)),
            AppElement("row", group: true, children: [
                AppElement("cell", accessible: true, actions: ["Delete", "Share"], children: [AppElement("name", label: "Banana")]),
                Self.stepper,
            ]),
        ]))
        let json: JSONValue = ["type": "screen", "screen": screen.json]
        guard case .screen(let s) = try MessageDecoder.decode(Array(json.json.utf8), line: 1).get().message else {
            Issue.record("not a screen"); return
        }
        #expect(s.id == "list" && s.title == "Groceries" && s.focus == "title")
        #expect(s.elements.map(\.id) == ["root", "title", "row", "cell", "name", "banana.stepper"])
        let row = try #require(s["row"])
        #expect(row.group && row.children.map { s.elements[$0].id } == ["cell", "banana.stepper"])
        #expect(s["cell"]?.actions.map(\.name) == ["Delete", "Share"] && s["cell"]?.accessible == true)
        let stepper = try #require(s["banana.stepper"])
        #expect(stepper.traits == .adjustable && stepper.adjust?.max == 20 && stepper.adjust?.format == "%@ in cart")
        #expect(stepper.frame == Frame(x: 276, y: 120, width: 98, height: 32))
    }

    @Test("the default socket is in the runtime directory; without one the error asks for a path")
    func defaultSocket() throws {
        #expect(try TandemConnection.defaultSocketPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"]) == "/run/user/1000/tandem/control.sock")
        #expect(throws: TandemClientError.self) { try TandemConnection.defaultSocketPath(environment: [:]) }
        do {
            _ = try TandemConnection.defaultSocketPath(environment: ["XDG_RUNTIME_DIR": "relative"])
            Issue.record("a relative runtime directory was taken")
        } catch {
            #expect("\(error)".contains("give its path"))
        }
    }

    @Test("no service at the path: unavailable, naming the path")
    func noService() {
        do {
            _ = try TandemController(socketPath: "/tmp/tandem-no-such-dir/control.sock")
            Issue.record("connected to nothing")
        } catch {
            guard case .unavailable(let m) = error else { Issue.record("not unavailable: \(error)"); return }
            #expect(m.contains("/tmp/tandem-no-such-dir/control.sock") && m.contains("tandem serve"))
        }
    }
}
