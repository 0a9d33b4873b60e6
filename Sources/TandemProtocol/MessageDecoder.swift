import TandemModel
import TandemVocabulary

/// A message as it came: what it says, and the request `id` replies about it carry.
public struct Incoming: Sendable {
    public var message: ClientMessage
    /// The `id` member, echoed as it came on errors (for `set` it names the element, so a
    /// `set` is never acknowledged).
    public var requestID: JSONNode?
}

/// A message that could not be taken, and why (Docs/protocol.md#errors).
public struct ProtocolError: Error, Sendable, Equatable {
    /// A sentence naming what was wrong (with the JSON path when it is about a part).
    public var message: String
    /// The message's line on its connection, from 1.
    public var line: Int
    /// The request `id` of the message, when it had one that could be read.
    public var requestID: JSONNode?

    public init(_ message: String, line: Int, requestID: JSONNode? = nil) {
        self.message = message; self.line = line; self.requestID = requestID
    }
}

/// Decodes one line of a client's (Docs/protocol.md): JSON, then the message its `type` names,
/// with the catalog's checks for elements.
public enum MessageDecoder {
    /// The protocol versions Tandem speaks.
    public static let versions = [1]

    public static let types = ["hello", "screen", "update", "set", "notify", "command", "subscribe", "unsubscribe", "status", "foreground"]

    public static func decode(_ bytes: [UInt8], line: Int) -> Result<Incoming, ProtocolError> {
        // The JSON parser tolerates a byte-order mark at the start of a file; a line of the
        // protocol is UTF-8 with none (RFC 8259 §8.1), and one is a client's bug to be told of.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return .failure(ProtocolError("the line starts with a UTF-8 byte-order mark (EF BB BF); send each line's JSON without one", line: line))
        }
        var requestID: JSONNode?
        do throws(Diagnostic) {
            let incoming = try MessageReader.read(bytes, line: line) { (r) throws(Diagnostic) -> Incoming in
                guard let type = try r.string("type") else { throw r.failure(nil, "missing field \"type\"") }
                requestID = r.value("id")
                return Incoming(message: try message(type, &r), requestID: requestID)
            }
            return .success(incoming)
        } catch {
            let where_ = error.path.isEmpty ? "" : "\(error.path): "
            return .failure(ProtocolError(where_ + error.message, line: line, requestID: requestID))
        }
    }

    static func message(_ type: String, _ r: inout MessageReader) throws(Diagnostic) -> ClientMessage {
        switch type {
        case "hello":
            guard let v = try r.integer("v") else { throw r.failure(nil, "missing field \"v\" (the protocol version: 1)") }
            guard let roleName = try r.string("role") else { throw r.failure(nil, "missing field \"role\" (app or controller)") }
            guard let role = Role(rawValue: roleName) else { throw r.failure("role", "role is app or controller, found \"\(roleName)\"") }
            let name = try r.string("name")
            if role == .app, name?.isEmpty ?? true { throw r.failure(nil, "an app's hello needs its \"name\"") }
            return .hello(Hello(version: v, role: role, name: name, language: try r.string("language") ?? "en"))
        case "screen":
            return .screen(try r.screen("screen"))
        case "update":
            // Counted before anything is read, so an update over the limit costs its parsing only.
            let size = r.updateSize()
            guard size <= Screen.maxUpdateNodes else { throw r.failure(nil, TreeUpdate.overLimit(size)) }
            let edits = try r.edits("edits")
            // An update of edits alone needs no nodes.
            var nodes: [TreeUpdate.Node] = []
            if edits == nil || r.has("nodes") { nodes = try r.nodes("nodes") }
            return .update(TreeUpdate(nodes: nodes, edits: edits ?? [], focus: try r.string("focus")))
        case "set":
            guard let id = try r.string("id") else { throw r.failure(nil, "missing field \"id\" (the element to change)") }
            let patch = try r.patch()
            if patch.given.isEmpty { throw r.failure(nil, "set names no field to change (an element field such as \"label\" or \"value\", beside \"id\")") }
            return .set(element: id, patch)
        case "notify":
            guard let n = try r.string("notification") else { throw r.failure(nil, "missing field \"notification\"") }
            switch n {
            case "announcement":
                guard let text = try r.string("text") else { throw r.failure(nil, "an announcement needs its \"text\"") }
                let p = try r.string("priority") ?? "default"
                guard let priority = AnnouncementPriority(rawValue: p) else { throw r.failure("priority", "priority is high or default, found \"\(p)\"") }
                return .notify(.announcement(text: text, priority: priority))
            case "layoutChanged": return .notify(.layoutChanged(focus: try r.string("focus")))
            case "screenChanged": return .notify(.screenChanged(focus: try r.string("focus")))
            case "pageScrolled":
                guard let text = try r.string("text") else { throw r.failure(nil, "pageScrolled needs its \"text\"") }
                return .notify(.pageScrolled(text: text))
            default:
                throw r.failure("notification", "unknown notification \"\(n)\" (announcement, layoutChanged, screenChanged, pageScrolled)")
            }
        case "command":
            guard let name = try r.string("command") else { throw r.failure(nil, "missing field \"command\"") }
            guard let c = Command(name: name) else {
                throw r.failure("command", "unknown command \"\(name)\" (commands: \(Command.table.map(\.usage).joined(separator: ", ")))")
            }
            var input: InputMethod?
            if let name = try r.string("input") {
                guard let method = InputMethod(rawValue: name) else {
                    throw r.failure("input", "unknown input \"\(name)\" (\(InputMethod.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                input = method
            }
            return .command(c, input: input)
        case "subscribe":
            guard let names = try r.strings("channels") else { return .subscribe(channels: nil) }
            var channels: Set<Channel> = []
            for n in names {
                guard let c = Channel(rawValue: n) else { throw r.failure("channels", "unknown channel \"\(n)\" (speech, braille, sound, event)") }
                channels.insert(c)
            }
            return .subscribe(channels: channels)
        case "unsubscribe": return .unsubscribe
        case "status": return .status
        case "foreground":
            if let c = try r.string("client") { return .foreground(.client(c)) }
            if let n = try r.string("name") { return .foreground(.name(n)) }
            // no app named: the app that sends it comes to the front (an app's own; a
            // controller's is refused by role)
            return .foreground(.sender)
        default:
            throw r.failure("type", "unknown message type \"\(type)\" (known: \(types.joined(separator: ", ")))")
        }
    }
}
