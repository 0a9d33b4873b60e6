import TandemModel
import TandemVocabulary

/// Decodes one line Tandem sends (Docs/protocol.md), for clients: the inverse of
/// `ServerMessage.json`. Unknown fields are ignored, as the protocol asks of every receiver;
/// an unknown `type`, a missing field or a field of the wrong kind is an error naming it.
///
/// Three things are filled in when a line leaves them out: `welcome`'s limits (the protocol's core
/// `welcome` has only `v` and `client`) take the protocol's defaults, a `welcome` without
/// `features` has none (an older service's), and an `error` that names no line (the
/// transport's errors about the connection itself) has `line` 0. Feature names this side does
/// not know are kept, not refused: a newer service announces more.
public enum ServerMessageDecoder {
    /// The message types a client may receive.
    public static let types = ["welcome", "error", "ack", "action", "focus", "transcript", "status"]

    /// The limits a `welcome` without them stands for (Docs/protocol.md#transport).
    public static let defaultLimits = ServerMessage.Limits(maxLine: 1 << 20, userActionWindow: 500)

    /// Decodes `bytes`, the `line`-th line received on a connection (errors carry it).
    public static func decode(_ bytes: [UInt8], line: Int) -> Result<ServerMessage, ProtocolError> {
        do throws(Diagnostic) {
            let message = try MessageReader.read(bytes, line: line) { (r) throws(Diagnostic) -> ServerMessage in
                guard let type = try r.string("type") else { throw r.failure(nil, "missing field \"type\"") }
                return try typed(type, r)
            }
            return .success(message)
        } catch {
            let where_ = error.path.isEmpty ? "" : "\(error.path): "
            return .failure(ProtocolError(where_ + error.message, line: line))
        }
    }

    /// Decodes one line of text (without its newline).
    public static func decode(_ text: String, line: Int) -> Result<ServerMessage, ProtocolError> {
        decode(Array(text.utf8), line: line)
    }

    static func typed(_ type: String, _ r: MessageReader) throws(Diagnostic) -> ServerMessage {
        func required(_ key: String, _ what: String) throws(Diagnostic) -> String {
            guard let s = try r.string(key) else { throw r.failure(nil, "missing field \"\(key)\" (\(what))") }
            return s
        }
        switch type {
        case "welcome":
            guard let v = try r.integer("v") else { throw r.failure(nil, "missing field \"v\" (the protocol version)") }
            guard MessageDecoder.versions.contains(v) else {
                throw r.failure("v", "protocol version \(v) is not one this client speaks (\(MessageDecoder.versions.map(String.init).joined(separator: ", ")))")
            }
            let client = try required("client", "the id Tandem gave this connection")
            let limits = ServerMessage.Limits(maxLine: try r.integer("maxLine") ?? defaultLimits.maxLine,
                                              maxUpdateNodes: try r.integer("maxUpdateNodes") ?? defaultLimits.maxUpdateNodes,
                                              userActionWindow: try r.integer("userActionWindow") ?? defaultLimits.userActionWindow)
            let features = try r.strings("features").map(ServerMessage.Features.init(names:)) ?? .none
            return .welcome(client: client, limits: limits, features: features)
        case "error":
            let sentence = try required("error", "the sentence saying what was wrong")
            return .error(ProtocolError(sentence, line: try r.integer("line") ?? 0, requestID: r.value("id")))
        case "ack":
            guard let id = r.value("id") else { throw r.failure(nil, "missing field \"id\" (the request acknowledged)") }
            return .ack(requestID: id)
        case "action":
            let kindName = try required("action", "what the user did")
            guard let kind = AppAction.Kind(rawValue: kindName) else {
                throw r.failure("action", "unknown action \"\(kindName)\" (activate, increment, decrement, custom, magicTap, escape, scrollUp, scrollDown, type, delete, clear)")
            }
            let element = try required("id", "the element acted on")
            let name = try r.string("name")
            if kind == .custom, name == nil { throw r.failure(nil, "a custom action needs its \"name\"") }
            let text = try r.string("text")
            if kind == .type, text == nil { throw r.failure(nil, "a type action needs its \"text\"") }
            return .action(AppAction(kind, element: element, name: name, text: text))
        case "focus":
            return .focus(screen: try required("screen", "the screen"), element: try required("id", "the focused element"))
        case "transcript":
            guard let line = r.value("line") else { throw r.failure(nil, "missing field \"line\" (a transcript line)") }
            guard line.members != nil else { throw r.failure("line", "a transcript line is a JSON object, found \(line.typeName)") }
            return .transcript(line: JSONText.value(line))
        case "status":
            return .status(try status(r))
        default:
            throw r.failure("type", "unknown message type \"\(type)\" (known: \(types.joined(separator: ", ")))")
        }
    }

    static func status(_ r: MessageReader) throws(Diagnostic) -> StatusReport {
        func availability(_ key: String) throws(Diagnostic) -> Bool {
            guard let s = try r.string(key) else { throw r.failure(nil, "missing field \"\(key)\" (available or unavailable)") }
            switch s {
            case "available": return true
            case "unavailable": return false
            default: throw r.failure(key, "\(key) is available or unavailable, found \"\(s)\"")
            }
        }
        guard let appsNode = r.value("apps") else { throw r.failure(nil, "missing field \"apps\"") }
        guard case .array(let items) = appsNode.kind else { throw r.failure("apps", "apps is an array, found \(appsNode.typeName)") }
        var apps: [StatusReport.AppEntry] = []
        for (k, item) in items.enumerated() {
            func field<T>(_ key: String, _ what: String, _ read: (JSONNode.Kind) -> T?) throws(Diagnostic) -> T {
                guard let value = item[key].flatMap({ read($0.kind) }) else {
                    var d = r.failure("apps", item.members == nil ? "an app is an object, found \(item.typeName)" : "\(key) is \(what)")
                    d.path = "apps[\(k)]" + (item.members == nil ? "" : ".\(key)")
                    throw d
                }
                return value
            }
            apps.append(StatusReport.AppEntry(
                client: try field("client", "a string") { if case .string(let s) = $0 { s } else { nil } },
                name: try field("name", "a string") { if case .string(let s) = $0 { s } else { nil } },
                foreground: try field("foreground", "true or false") { if case .bool(let b) = $0 { b } else { nil } }))
        }
        return StatusReport(apps: apps, speech: try availability("speech"), braille: try availability("braille"),
                            screen: try r.string("screen"), focus: try r.string("focus"), editing: try r.string("editing"),
                            requestID: r.value("id"))
    }
}
