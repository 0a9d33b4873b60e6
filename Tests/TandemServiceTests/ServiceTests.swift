import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemProtocol
import TandemTestSupport
@testable import TandemService
@testable import TandemSession

/// `tandem serve`'s service on the virtual clock, no socket: apps publish trees and get the
/// user's actions; controllers command and listen; several apps take turns in front.
@Suite("service")
struct ServiceTests {
    /// A service and session as `tandem serve` makes them, with the transcript kept.
    struct Served {
        /// The one entry `tandem serve` feeds; each step here is an instant of its own.
        var core: SessionCore
        let records = RecordingSink()
        var now = 0
        var session: Session { core.session }
        var service: Service { core.service! }

        init(catalog: Catalog? = nil, options: Service.Options = Service.Options()) throws {
            let profile = try ProfileStore.shipped.load("default").0
            let (session, service) = Service.start(profile: profile, catalog: catalog, options: options, sink: records, timing: .virtual,
                                                   makeTranslator: louisTranslator(for:))
            core = SessionCore(session: session, service: service, keyMap: profile.keyMap)
            core.apply(.open(), at: 0)
        }

        mutating func connect(_ client: ClientID) { step(.clientConnected(client)) }

        /// Sends a line from `client` at the current time and returns what came back to whom.
        @discardableResult
        mutating func send(_ client: ClientID, _ json: String, line: Int = 1) -> [(client: ClientID, json: String)] {
            step(.clientLine(client, line: line, bytes: Array(json.utf8)))
            return take()
        }

        mutating func key(_ command: Command) -> [(client: ClientID, json: String)] {
            step(.command(command))
            return take()
        }

        mutating func wait(_ ms: Int) {
            now += ms
            core.advance(to: now)
        }

        mutating func disconnect(_ client: ClientID) { step(.clientDisconnected(client)) }

        /// One input, settled at once.
        mutating func step(_ input: SessionInput) {
            core.apply(input, at: now)
            core.advance(to: now)
        }

        mutating func take() -> [(client: ClientID, json: String)] {
            core.takeOutbox().compactMap { item in
                if case .send(let c, let m) = item { return (c, m.json) }
                return nil
            }
        }

        var spoken: [String] {
            records.records.compactMap { if case .speech(.speak(let s)) = $0.record { s.utterance.text } else { nil } }
        }

        /// Whether the last value spoken was the user's own action's (Docs/protocol.md#user-action-window).
        var usersOwnValue: Bool? {
            records.records.compactMap {
                if case .speech(.speak(let s)) = $0.record, s.utterance.source == .value { s.userAction != nil } else { nil }
            }.last
        }

        /// Speech of one source since the start.
        func spoken(_ source: Source) -> [(text: String, priority: Priority)] {
            records.records.compactMap {
                if case .speech(.speak(let s)) = $0.record, s.utterance.source == source { (s.utterance.text, s.priority) } else { nil }
            }
        }
    }

    static let groceryScreen = """
        {"type":"screen","screen":{"id":"list","title":"Groceries","focus":"title","root":{"id":"root","children":[
          {"id":"title","label":"Groceries","traits":["header"],"frame":[0,0,390,44]},
          {"id":"banana","label":"Banana","value":"0 in cart","traits":["adjustable"],"adjust":{"value":0,"min":0,"max":9,"format":"%@ in cart"},
           "actions":[{"name":"Delete"}],"frame":[0,60,390,44]},
          {"id":"bread","label":"Bread","traits":["button"],"frame":[0,110,390,44]}]}}}
        """

    func grocery(options: Service.Options = Service.Options()) throws -> Served {
        var s = try Served(options: options)
        s.connect("c1")
        let welcome = s.send("c1", #"{"type":"hello","v":1,"role":"app","name":"Groceries","language":"en"}"#)
        #expect(welcome.map(\.json) == [#"{"type":"welcome","v":1,"client":"c1","maxLine":1048576,"maxUpdateNodes":8192,"userActionWindow":\#(options.userActionWindow),"features":["ack","appForeground","appStatus","channels","commandInput","controllerAnnounce","edits","foreground","unsubscribe"]}"#])
        s.send("c1", Self.groceryScreen, line: 2)
        return s
    }

    @Test("with no app, the user hears that nothing is connected")
    func noApp() throws {
        let s = try Served()
        #expect(s.spoken.first == "No app is connected")
    }

    @Test("an app's screen comes to the front and its first focus is its title")
    func screenComesToFront() throws {
        let s = try grocery()
        #expect(s.spoken.contains("Groceries, heading"))
        #expect(s.session.navigator.screen.id == "list")
    }

    @Test("the user's increment goes to the app; the app's new value, within the window, is spoken as the user's own")
    func quickAddStepper() throws {
        var s = try grocery()
        s.connect("k")
        s.send("k", #"{"type":"hello","v":1,"role":"controller"}"#)
        #expect(s.send("k", #"{"type":"command","command":"next"}"#).contains { $0.client == "c1" && $0.json == #"{"type":"focus","screen":"list","id":"banana"}"# })
        let out = s.send("k", #"{"type":"command","command":"increment","id":"k-2"}"#)
        #expect(out.contains { $0.client == "c1" && $0.json == #"{"type":"action","action":"increment","id":"banana"}"# })
        #expect(out.contains { $0.client == "k" && $0.json == #"{"type":"ack","id":"k-2"}"# })
        s.wait(120)
        s.send("c1", #"{"type":"set","id":"banana","adjust":{"value":1,"min":0,"max":9,"format":"%@ in cart"},"value":"1 in cart"}"#, line: 3)
        let value = try #require(s.spoken(.value).last)
        #expect(value.text == "1 in cart")
        #expect(value.priority == .text, "the user's own value: text priority")
    }

    @Test("the app's own change outside the window is the app's")
    func appsOwnChange() throws {
        var s = try grocery()
        _ = s.key(.next)
        _ = s.key(.increment)
        s.wait(600)
        s.send("c1", #"{"type":"set","id":"banana","value":"5 in cart"}"#, line: 3)
        // Still said (it is the focused element's value) but not marked as the user's.
        #expect(s.spoken(.value).last?.text == "5 in cart")
        #expect(s.usersOwnValue == false)
    }

    @Test("a longer user-action window (tandem serve --user-action-window) makes a slower app's change the user's own")
    func longerWindow() throws {
        var options = Service.Options()
        options.userActionWindow = 1_000
        var s = try grocery(options: options)
        _ = s.key(.next)
        _ = s.key(.increment)
        s.wait(600)
        s.send("c1", #"{"type":"set","id":"banana","value":"1 in cart"}"#, line: 3)
        #expect(s.spoken(.value).last?.text == "1 in cart")
        #expect(s.usersOwnValue == true, "600 ms is inside a 1 s window")
    }

    @Test("foreground brings the --catalog app back to the front, by its client id or its name")
    func foregroundCatalogApp() throws {
        let catalog = try Example("grocery").catalog()
        var s = try Served(catalog: catalog)
        let first = s.session.navigator.screen.id
        s.connect("c1")
        s.send("c1", #"{"type":"hello","v":1,"role":"app","name":"Groceries"}"#)
        s.send("c1", Self.groceryScreen, line: 2)
        #expect(s.session.navigator.screen.id == "list")
        s.connect("k")
        s.send("k", #"{"type":"hello","v":1,"role":"controller"}"#)
        #expect(s.send("k", #"{"type":"foreground","client":"catalog","id":1}"#, line: 2).map(\.json) == [#"{"type":"ack","id":1}"#])
        #expect(s.session.navigator.screen.id == first, "the catalog app is in front again, on the screen it was on")
        s.send("k", #"{"type":"foreground","name":"Groceries"}"#, line: 3)
        #expect(s.session.navigator.screen.id == "list")
        let name = try #require(catalog.name)
        s.send("k", #"{"type":"foreground","name":"\#(name)"}"#, line: 4)
        #expect(s.session.navigator.screen.id == first)
        // The catalog app plays its own effects: an action on it goes to no client.
        #expect(s.key(.activate).allSatisfy { $0.client != "c1" })
    }

    @Test("a custom action goes to the app by name; the app removes the row and announces it; focus moves on")
    func deleteRow() throws {
        var s = try grocery()
        _ = s.key(.next)
        _ = s.key(.actionNext)
        let out = s.key(.activate)
        #expect(out.contains { $0.json == #"{"type":"action","action":"custom","id":"banana","name":"Delete"}"# })
        s.send("c1", #"{"type":"notify","notification":"announcement","text":"Banana deleted"}"#, line: 3)
        let moved = s.send("c1", #"{"type":"update","nodes":[{"id":"root","children":["title","bread"]}]}"#, line: 4)
        #expect(moved.contains { $0.json == #"{"type":"focus","screen":"list","id":"bread"}"# })
        s.wait(5000)
        #expect(s.spoken.contains("Banana deleted"))
        #expect(s.spoken.contains("Bread, button"))
    }

    @Test("a loading indicator the app shows takes focus; its progress is heard; a new screen follows")
    func checkoutLoading() throws {
        var s = try grocery()
        s.send("c1", #"{"type":"update","nodes":[{"id":"root","children":["title","banana","bread","loading"]},{"id":"loading","progress":{"label":"Placing order","value":0},"hidden":false,"modal":true,"frame":[0,300,390,44]}]}"#, line: 3)
        #expect(s.session.navigator.focusedElement?.id == "loading", "a modal indicator takes focus")
        for (k, v) in [0.5, 1.0].enumerated() {
            s.wait(400)
            s.send("c1", #"{"type":"set","id":"loading","progress":{"label":"Placing order","value":\#(v)}}"#, line: 4 + k)
        }
        s.wait(3000)
        #expect(s.spoken(.progress).map(\.text).last == "100%")
        s.send("c1", #"{"type":"screen","screen":{"id":"done","focus":"thanks","root":{"id":"r2","children":[{"id":"thanks","label":"Order confirmed","traits":["header"]}]}}}"#, line: 6)
        s.wait(3000)
        #expect(s.spoken.contains("Order confirmed, heading"))
    }

    @Test("an app with two indicators: the focused one's steps are heard; the other is heard and shown only when it ends, by name")
    func twoAppIndicators() throws {
        var s = try grocery()
        s.send("c1", #"{"type":"update","nodes":[{"id":"root","children":["title","banana","bread","upload","sync"]},{"id":"upload","progress":{"label":"Uploading photos","value":0},"frame":[0,160,390,44]},{"id":"sync","progress":{"label":"Syncing list","value":0},"frame":[0,210,390,44]}]}"#, line: 3)
        _ = s.key(.last)
        #expect(s.session.navigator.focusedElement?.id == "sync")
        s.wait(3000)
        // A field is replaced whole: each set sends the label again (Docs/protocol.md#update).
        let labels = ["upload": "Uploading photos", "sync": "Syncing list"]
        for (k, (id, v)) in [("upload", 0.3), ("sync", 0.5), ("upload", 0.6), ("upload", 1.0)].enumerated() {
            s.send("c1", #"{"type":"set","id":"\#(id)","progress":{"label":"\#(labels[id]!)","value":\#(v)}}"#, line: 4 + k)
            s.wait(1500)
        }
        let progress = s.spoken(.progress)
        #expect(progress.map(\.text) == ["50%", "Uploading photos, 100%"], "the upload's 30% and 60% are not said")
        #expect(progress.last?.priority == .message)
        let shown = s.records.records.compactMap { if case .braille(let f) = $0.record { f } else { nil } }
        #expect(!shown.contains { $0.text.contains("30%") || $0.text.contains("60%") })
        #expect(shown.contains { $0.text == "Uploading photos, 100%" && $0.flash })
        #expect(shown.contains { $0.text.hasPrefix("Syncing list, 50%") })
    }

    @Test("bad messages get one error naming the line; the connection and the tree stay as they were")
    func badMessages() throws {
        var s = try grocery()
        let before = s.session.navigator.screen
        let replies = [
            s.send("c1", #"{"type":"update","nodes":[{"id":"root","children":["title","ghost"]}]}"#, line: 3),
            s.send("c1", #"{"type":"set","id":"nobody","value":"1"}"#, line: 4),
            s.send("c1", #"{"type":"command","command":"next"}"#, line: 5),
            s.send("c1", #"{"type":"hello","v":1,"role":"app","name":"Again"}"#, line: 6),
            s.send("c1", "not json", line: 7),
        ].map { $0.map(\.json) }
        #expect(replies[0].first?.contains(#""error":"the children of \"root\" name \"ghost\""#) == true && replies[0].first?.contains(#""line":3"#) == true)
        #expect(replies[1] == [#"{"type":"error","error":"no element \"nobody\" on the app's screen","line":4,"id":"nobody"}"#])
        #expect(replies[2] == [#"{"type":"error","error":"command is a message for controllers; this connection is an app","line":5}"#])
        #expect(replies[3] == [#"{"type":"error","error":"this connection said hello already","line":6}"#])
        #expect(replies[4].first?.hasPrefix(#"{"type":"error","error":"not valid JSON"#) == true)
        #expect(s.session.navigator.screen == before)
    }

    @Test("a message before hello, and a version Tandem does not speak (which also closes)")
    func opening() throws {
        var s = try Served()
        s.connect("c9")
        #expect(s.send("c9", #"{"type":"status"}"#).map(\.json) == [#"{"type":"error","error":"the first message must be hello","line":1}"#])
        s.send("c9", #"{"type":"hello","v":2,"role":"controller"}"#, line: 2)
        // (take() dropped the close item; look at the raw outbox instead.)
        s.step(.clientLine("c9", line: 3, bytes: Array(#"{"type":"hello","v":3,"role":"controller"}"#.utf8)))
        let items = s.core.takeOutbox()
        #expect(items.contains { if case .close("c9") = $0 { true } else { false } })
    }

    @Test("two apps: the last to show a screen is in front; the other keeps its tree; closing one announces it and the other comes back")
    func twoApps() throws {
        var s = try grocery()
        s.connect("c2")
        s.send("c2", #"{"type":"hello","v":1,"role":"app","name":"Mail"}"#)
        s.send("c2", #"{"type":"screen","screen":{"id":"inbox","root":{"id":"m","children":[{"id":"m1","label":"Inbox","traits":["header"]}]}}}"#, line: 2)
        #expect(s.session.navigator.screen.id == "inbox")
        // The grocery app updates in the background: nothing is said, its tree changes.
        s.send("c1", #"{"type":"set","id":"bread","label":"Rye bread"}"#, line: 3)
        #expect(!s.spoken.contains { $0.contains("Rye") })
        s.disconnect("c2")
        s.wait(5000)
        #expect(s.spoken.contains("Mail closed"))
        #expect(s.session.navigator.screen.id == "list")
        _ = s.key(.last)
        #expect(s.session.navigator.focusedElement?.label == .plain("Rye bread"), "the background change was kept")
    }

    @Test("--catalog: the catalog is an app of its own whose effects play; an app comes in front of it and leaves it in front again")
    func catalogApp() throws {
        var s = try Served(catalog: try Example("grocery").catalog())
        #expect(s.session.navigator.forwardsActions == false)
        let first = s.session.navigator.screen.id
        s.connect("c1")
        s.send("c1", #"{"type":"hello","v":1,"role":"app","name":"Groceries"}"#)
        s.send("c1", Self.groceryScreen, line: 2)
        #expect(s.session.navigator.screen.id == "list")
        s.disconnect("c1")
        #expect(s.session.navigator.screen.id == first, "the catalog app is in front again")
        s.connect("k")
        s.send("k", #"{"type":"hello","v":1,"role":"controller"}"#)
        let status = s.send("k", #"{"type":"status"}"#).map(\.json).first ?? ""
        #expect(status.contains(#"{"client":"catalog","name":"#) && status.contains(#""foreground":true"#))
    }

    @Test("an app that reconnects takes its place again: its place in the list, and the front once it shows its screen")
    func reconnect() throws {
        var s = try grocery()
        s.connect("c2")
        s.send("c2", #"{"type":"hello","v":1,"role":"app","name":"Mail"}"#)
        s.disconnect("c1")
        s.connect("c3")
        s.send("c3", #"{"type":"hello","v":1,"role":"app","name":"Groceries"}"#)
        s.send("c3", Self.groceryScreen, line: 2)
        #expect(s.session.navigator.screen.id == "list")
        s.connect("k")
        s.send("k", #"{"type":"hello","v":1,"role":"controller"}"#)
        let status = s.send("k", #"{"type":"status"}"#).map(\.json).first ?? ""
        #expect(status.contains(#""apps":[{"client":"c3","name":"Groceries","foreground":true},{"client":"c2","name":"Mail","foreground":false}]"#), "\(status)")
    }

    @Test("a controller's status lists the apps and which is in front")
    func status() throws {
        var s = try grocery()
        s.connect("k")
        s.send("k", #"{"type":"hello","v":1,"role":"controller"}"#)
        let out = s.send("k", #"{"type":"status","id":1}"#).map(\.json)
        #expect(out == [#"{"type":"status","apps":[{"client":"c1","name":"Groceries","foreground":true}],"speech":"unavailable","braille":"unavailable","screen":"list","focus":"title","id":1}"#])
    }

    @Test("a command's input: from a keyboard, activate on a text field starts typing into it, and status says which field; from touch it does not")
    func commandInput() throws {
        var s = try Served()
        s.connect("c1")
        s.send("c1", #"{"type":"hello","v":1,"role":"app","name":"Sign in"}"#)
        s.send("c1", #"{"type":"screen","screen":{"id":"signin","focus":"email","root":{"id":"root","children":[{"id":"email","label":"Email","traits":["textField"]}]}}}"#, line: 2)
        s.connect("k")
        s.send("k", #"{"type":"hello","v":1,"role":"controller"}"#)
        func status() -> String { s.send("k", #"{"type":"status"}"#).map(\.json).first ?? "" }
        s.send("k", #"{"type":"command","command":"activate","input":"touch"}"#)
        #expect(!status().contains("editing"), "a touch activation does not start editing")
        s.send("k", #"{"type":"command","command":"activate","input":"keyboard"}"#)
        #expect(status().hasSuffix(#""screen":"signin","focus":"email","editing":"email"}"#), "\(status())")
        #expect(s.records.records.contains { if case .speech(.speak(let u)) = $0.record { u.utterance.text == "Editing Email" } else { false } })
        s.send("k", #"{"type":"command","command":"escape","input":"keyboard"}"#)
        #expect(!status().contains("editing"), "Escape ended it")
    }

    @Test("a subscriber gets the transcript lines of its channels only")
    func subscribe() throws {
        var s = try grocery()
        s.connect("k")
        s.send("k", #"{"type":"hello","v":1,"role":"controller"}"#)
        s.send("k", #"{"type":"subscribe","channels":["speech"]}"#)
        let out = s.send("k", #"{"type":"command","command":"next"}"#)
        let lines = out.filter { $0.client == "k" }.map(\.json)
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.hasPrefix(#"{"type":"transcript","line":{"t":"#) && $0.contains(#""ch":"speech""#) })
    }

    @Test("a recorded session replays to the same transcript, byte for byte")
    func recordAndReplay() throws {
        let inputs: [(time: Int, input: RecordedInput)] = [
            (0, .start(profile: "default", catalog: nil)),
            (10, .connect(client: "c1")),
            (12, .line(client: "c1", number: 1, bytes: Array(#"{"type":"hello","v":1,"role":"app","name":"Groceries"}"#.utf8))),
            (15, .line(client: "c1", number: 2, bytes: Array(Self.groceryScreen.utf8))),
            (900, .key(.next)),
            (1400, .key(.increment)),
            (1450, .line(client: "c1", number: 3, bytes: Array(#"{"type":"set","id":"banana","value":"1 in cart"}"#.utf8))),
            (4000, .disconnect(client: "c1")),
        ]
        func run() throws -> String {
            let sink = RecordingSink()
            let replay = SessionReplay(inputs: inputs, file: "x.record", profiles: .shipped, makeTranslator: louisTranslator(for:))
            _ = try replay.run(sink: sink) { (_) throws(Diagnostic) in throw Diagnostic(file: "", line: nil, path: "", message: "no catalog") }
            return sink.records.map { Transcript.line(for: $0.record, at: $0.time).json }.joined(separator: "\n")
        }
        let first = try run()
        #expect(first == (try run()))
        #expect(first.contains(#""text":"1 in cart""#) && first.contains(#""text":"Groceries closed""#))
        // The recording format reads back to the same inputs.
        let text = inputs.map { "{\"t\":\($0.time),\($0.input.fields)}" }.joined(separator: "\n")
        let read = try RecordedInput.read(text, file: "x.record")
        #expect(read.map(\.input) == inputs.map(\.input) && read.map(\.time) == inputs.map(\.time))
    }

    @Test("a replay ends where the live session stopped: a hint still due then is not played")
    func replayEndsAtStop() throws {
        func replay(stopAt stop: Int?) throws -> (end: Int, hints: Int, last: Int) {
            var inputs: [(time: Int, input: RecordedInput)] = [
                (0, .start(profile: "default", catalog: nil)),
                (10, .connect(client: "c1")),
                (12, .line(client: "c1", number: 1, bytes: Array(#"{"type":"hello","v":1,"role":"app","name":"Groceries"}"#.utf8))),
                (15, .line(client: "c1", number: 2, bytes: Array(Self.groceryScreen.utf8))),
                (900, .key(.next)),
            ]
            if let stop { inputs.append((stop, .stop)) }
            let text = inputs.map { "{\"t\":\($0.time),\($0.input.fields)}" }.joined(separator: "\n")
            let read = try RecordedInput.read(text, file: "x.record")
            #expect(read.map(\.input) == inputs.map(\.input))
            let sink = RecordingSink()
            let result = try SessionReplay(inputs: read, file: "x.record", profiles: .shipped, makeTranslator: louisTranslator(for:))
                .run(sink: sink) { (_) throws(Diagnostic) in throw Diagnostic(file: "", line: nil, path: "", message: "no catalog") }
            let hints = sink.records.filter { if case .speech(.speak(let s)) = $0.record { s.utterance.source == .hint } else { false } }
            return (result.endTime, hints.count, sink.records.map(\.time).max() ?? 0)
        }
        // Stopped right after the move: its hint (due after the label is said) never came live.
        let stopped = try replay(stopAt: 1_000)
        #expect(stopped.end == 1_000)
        #expect(stopped.last <= 1_000, "nothing after the stop")
        #expect(stopped.hints == 0)
        // Without a stop the replay plays on until nothing is due, the hint included.
        let unstopped = try replay(stopAt: nil)
        #expect(unstopped.hints >= 1)
        #expect(unstopped.end > 1_000)
    }

    @Test("a recording keeps a changed user-action window, and its replay decides whose change a value was with it")
    func recordedWindow() throws {
        /// Whether the replay spoke the app's new value as the user's own action's.
        func usersOwn(window: Int?) throws -> Bool? {
            let inputs: [(time: Int, input: RecordedInput)] = [
                (0, .start(profile: "default", catalog: nil, userActionWindow: window)),
                (10, .connect(client: "c1")),
                (12, .line(client: "c1", number: 1, bytes: Array(#"{"type":"hello","v":1,"role":"app","name":"Groceries"}"#.utf8))),
                (15, .line(client: "c1", number: 2, bytes: Array(Self.groceryScreen.utf8))),
                (900, .key(.next)),
                (1400, .key(.increment)),
                (2100, .line(client: "c1", number: 3, bytes: Array(#"{"type":"set","id":"banana","value":"1 in cart"}"#.utf8))),
            ]
            let text = inputs.map { "{\"t\":\($0.time),\($0.input.fields)}" }.joined(separator: "\n")
            let read = try RecordedInput.read(text, file: "x.record")
            #expect(read.map(\.input) == inputs.map(\.input))
            let sink = RecordingSink()
            _ = try SessionReplay(inputs: read, file: "x.record", profiles: .shipped, makeTranslator: louisTranslator(for:))
                .run(sink: sink) { (_) throws(Diagnostic) in throw Diagnostic(file: "", line: nil, path: "", message: "no catalog") }
            return sink.records.compactMap {
                if case .speech(.speak(let s)) = $0.record, s.utterance.source == .value, s.utterance.text == "1 in cart" { s.userAction != nil } else { nil }
            }.last
        }
        #expect(try usersOwn(window: 1_000) == true, "700 ms after the action, inside the recorded 1 s window")
        #expect(try usersOwn(window: nil) == false, "outside the default 500 ms window: the app's own change, still said")
        #expect(throws: Diagnostic.self) {
            try RecordedInput.read(#"{"t":0,"start":{"profile":"default","userActionWindow":-5}}"#, file: "x.record")
        }
    }
}

/// A live `tandem serve` session with the Python grocery app, recorded with `--record`, replays
/// to the transcript read and kept beside it (Docs/protocol.md#record).
@Suite("a recorded serve session")
struct RecordedSessionTests {
    @Test("the grocery app's recorded session replays to its golden, byte for byte")
    func replaysToGolden() throws {
        let record = PackageRoot.path("Tests/Fixtures/service/grocery.session.record")
        let golden = try String(contentsOfFile: PackageRoot.path("Tests/Fixtures/service/grocery.session.golden.jsonl"), encoding: .utf8)
        let inputs = try RecordedInput.read(try String(contentsOfFile: record, encoding: .utf8), file: record)
        let sink = RecordingSink()
        _ = try SessionReplay(inputs: inputs, file: record, profiles: .shipped, makeTranslator: louisTranslator(for:))
            .run(sink: sink) { (p) throws(Diagnostic) in throw Diagnostic(file: p, line: nil, path: "", message: "no catalog") }
        let lines = sink.records.map { Transcript.line(for: $0.record, at: $0.time).json + "\n" }.joined()
        #expect(lines == golden)
        // What the story is about, read from the golden: the user's increment answered by the app,
        // the Delete announced, the loading indicator focused, the new screen, the app closing.
        for said in ["1 in cart", "Banana deleted", "Placing order, 0%", "100%", "Order confirmed, heading", "Groceries closed"] {
            #expect(golden.contains("\"op\":\"speak\"") && golden.contains("\"text\":\"\(said)\""), "\(said)")
        }
    }
}
