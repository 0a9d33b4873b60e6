import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
@testable import TandemProtocol

/// What Tandem sends decodes, for clients, to the values the service encoded; what is not a
/// message of the protocol is one sentence naming the line and the field.
@Suite("server messages")
struct ServerMessageDecoderTests {
    func decode(_ json: String, line: Int = 1) -> Result<ServerMessage, ProtocolError> {
        ServerMessageDecoder.decode(json, line: line)
    }

    func message(_ json: String) throws -> ServerMessage { try decode(json).get() }

    func error(_ json: String, line: Int = 4) -> String? {
        guard case .failure(let e) = decode(json, line: line) else { return nil }
        #expect(e.line == line, "errors carry the line as received")
        return e.message
    }

    static func node(_ json: String) throws -> JSONNode { try JSONParser.parse(json) }

    @Test("every message the service writes decodes back to itself", arguments: try [
        ServerMessage.welcome(client: "c3", limits: .init(maxLine: 4096, userActionWindow: 250), features: .all),
        .welcome(client: "c4", limits: .init(maxLine: 4096, maxUpdateNodes: 1_000, userActionWindow: 250), features: .init(names: ["edits", "haptics"])),
        .welcome(client: "c5", limits: .init(maxLine: 4096, userActionWindow: 250), features: .none),
        .error(ProtocolError("unknown command \"jump\"", line: 12, requestID: node(#""k1""#))),
        .error(ProtocolError("set: no element \"x\"", line: 3, requestID: nil)),
        .ack(requestID: node("7")),
        .ack(requestID: node(#"{"n":[1,"two"]}"#)),
        .action(AppAction(.increment, element: "banana.stepper")),
        .action(AppAction(.custom, element: "banana.cell", name: "Delete")),
        .action(AppAction(.scrollDown, element: "list.root")),
        .action(AppAction(.type, element: "email", text: "ana maria@example.org")),
        .action(AppAction(.delete, element: "email")),
        .action(AppAction(.clear, element: "email")),
        .focus(screen: "list", element: "checkout"),
        .transcript(line: #"{"t":6500,"ch":"speech","op":"speak","prio":"text","text":"Banana, 1 kg, $1.99","lang":"en","src":"focus"}"#),
        .status(StatusReport(apps: [.init(client: "c2", name: "Groceries", foreground: true), .init(client: "c4", name: "Mail", foreground: false)],
                             speech: true, braille: false, screen: "list", focus: "title", requestID: node("1"))),
        .status(StatusReport(apps: [], speech: false, braille: true, screen: nil, focus: nil, requestID: nil)),
        .status(StatusReport(apps: [.init(client: "c1", name: "Sign in", foreground: true)], speech: true, braille: true,
                             screen: "signin", focus: "email", editing: "email", requestID: node("3"))),
    ])
    func roundTrip(_ sent: ServerMessage) throws {
        let decoded = try decode(sent.json).get()
        #expect(decoded.json == sent.json)
    }

    @Test("the fields come out typed: the action's kind, element and name; the status's apps")
    func typedFields() throws {
        guard case .action(let a) = try message(#"{"type":"action","action":"custom","id":"banana.cell","name":"Delete"}"#) else {
            Issue.record("not an action"); return
        }
        #expect(a == AppAction(.custom, element: "banana.cell", name: "Delete"))
        guard case .status(let s) = try message(#"{"type":"status","id":1,"apps":[{"client":"c1","name":"Groceries","foreground":true}],"speech":"available","braille":"unavailable"}"#) else {
            Issue.record("not a status"); return
        }
        #expect(s.apps == [.init(client: "c1", name: "Groceries", foreground: true)])
        #expect(s.speech && !s.braille && s.screen == nil && s.requestID == .init(.number(1), line: 1))
        guard case .transcript(let line) = try message(#"{"type":"transcript","line":{"t":0,"ch":"braille","cells":"⠠⠛","window":"1/1"}}"#) else {
            Issue.record("not a transcript line"); return
        }
        #expect(line == #"{"t":0,"ch":"braille","cells":"⠠⠛","window":"1/1"}"#, "the line as written, members in order")
    }

    @Test("SPEC §6's core welcome has no limits and no features: the protocol's defaults stand in, and no feature")
    func welcomeWithoutLimits() throws {
        guard case .welcome(let client, let limits, let features) = try message(#"{"type":"welcome","v":1,"client":"c1"}"#) else {
            Issue.record("not a welcome"); return
        }
        #expect(client == "c1" && limits == ServerMessage.Limits(maxLine: 1 << 20, userActionWindow: 500))
        #expect(limits.maxUpdateNodes == 8_192, "an older service's updates are held to the limit Tandem has had since it was set")
        #expect(features.names.isEmpty && features.known.isEmpty && !features.contains(.edits))
    }

    @Test("a newer service's feature names are kept beside the known ones, not refused")
    func unknownFeatures() throws {
        let line = #"{"type":"welcome","v":1,"client":"c1","features":["unsubscribe","haptics","edits","zoom-v2","edits"]}"#
        guard case .welcome(_, _, let features) = try message(line) else {
            Issue.record("not a welcome"); return
        }
        #expect(features.known == [.edits, .unsubscribe])
        #expect(features.unknown == ["haptics", "zoom-v2"])
        #expect(features.names == ["edits", "haptics", "unsubscribe", "zoom-v2"], "sorted, each once")
        #expect(features.contains(.edits) && !features.contains(.foreground))
    }

    @Test("the transport's own error line (keys sorted, no line) decodes with line 0")
    func transportError() throws {
        guard case .error(let e) = try message(#"{"error":"this peer is not the same user as the service","type":"error"}"#) else {
            Issue.record("not an error"); return
        }
        #expect(e.message == "this peer is not the same user as the service" && e.line == 0 && e.requestID == nil)
    }

    @Test("fields a client does not know are ignored")
    func unknownFields() throws {
        guard case .focus(let screen, let element) = try message(#"{"type":"focus","screen":"s","id":"e","since":"v2","extra":{"a":[1]}}"#) else {
            Issue.record("not a focus"); return
        }
        #expect(screen == "s" && element == "e")
    }

    @Test("what is not a server message is an error naming the field")
    func errors() {
        #expect(error("not json")?.hasPrefix("not valid JSON") == true)
        #expect(error("[1]") == "a message is a JSON object, found an array")
        #expect(error(#"{"id":1}"#) == "missing field \"type\"")
        #expect(error(#"{"type":"hello"}"#) == "type: unknown message type \"hello\" (known: welcome, error, ack, action, focus, transcript, status)")
        #expect(error(#"{"type":"welcome","v":2,"client":"c1"}"#) == "v: protocol version 2 is not one this client speaks (1)")
        #expect(error(#"{"type":"welcome","v":1}"#) == "missing field \"client\" (the id Tandem gave this connection)")
        #expect(error(#"{"type":"welcome","v":1,"client":"c1","features":"edits"}"#)?.hasPrefix("features: ") == true)
        #expect(error(#"{"type":"welcome","v":1,"client":"c1","features":["edits",2]}"#)?.hasPrefix("features[1]: ") == true)
        #expect(error(#"{"type":"ack"}"#) == "missing field \"id\" (the request acknowledged)")
        #expect(error(#"{"type":"action","action":"swipe","id":"a"}"#)?.hasPrefix("action: unknown action \"swipe\"") == true)
        #expect(error(#"{"type":"action","action":"custom","id":"a"}"#) == "a custom action needs its \"name\"")
        #expect(error(#"{"type":"focus","screen":"s","id":3}"#)?.hasPrefix("id: ") == true)
        #expect(error(#"{"type":"transcript","line":"text"}"#) == "line: a transcript line is a JSON object, found a string")
        #expect(error(#"{"type":"status","apps":[{"client":"c1","name":"A"}],"speech":"available","braille":"unavailable"}"#)
                == "apps[0].foreground: foreground is true or false")
        #expect(error(#"{"type":"status","apps":[3],"speech":"available","braille":"unavailable"}"#) == "apps[0]: an app is an object, found a number")
        #expect(error(#"{"type":"status","apps":[],"speech":"maybe","braille":"unavailable"}"#) == "speech: speech is available or unavailable, found \"maybe\"")
    }
}
