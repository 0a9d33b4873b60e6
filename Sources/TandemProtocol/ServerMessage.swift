import TandemModel
import TandemVocabulary

/// What Tandem says to a client (Docs/protocol.md), one JSON object a line.
public enum ServerMessage: Sendable {
    /// The answer to `hello`: the id Tandem gives the connection, the limits a client may rely
    /// on, and the additions to the protocol's core the service has.
    case welcome(client: String, limits: Limits, features: Features)
    case error(ProtocolError)
    /// A message that carried a request `id` and has no other reply was taken.
    case ack(requestID: JSONNode)
    /// For an app: carry out what the user asked.
    case action(AppAction)
    /// For an app: where the user's focus is now.
    case focus(screen: String, element: String)
    /// For a subscribed controller: one transcript line, as JSON text.
    case transcript(line: String)
    case status(StatusReport)

    /// What a client may rely on, sent with `welcome`.
    public struct Limits: Sendable, Hashable {
        public var maxLine: Int
        /// The most nodes plus edited ids one `update` may carry (Docs/protocol.md#limits).
        public var maxUpdateNodes: Int
        public var userActionWindow: Int
        public init(maxLine: Int, maxUpdateNodes: Int = Screen.maxUpdateNodes, userActionWindow: Int) {
            self.maxLine = maxLine; self.maxUpdateNodes = maxUpdateNodes; self.userActionWindow = userActionWindow
        }
    }

    /// The message as one line of JSON (without the newline).
    public var json: String {
        func object(_ members: [(String, String?)]) -> String {
            "{" + members.compactMap { k, v in v.map { JSONText.quote(k) + ":" + $0 } }.joined(separator: ",") + "}"
        }
        let q = JSONText.quote
        switch self {
        case .welcome(let client, let limits, let features):
            return object([("type", q("welcome")), ("v", "1"), ("client", q(client)),
                           ("maxLine", String(limits.maxLine)), ("maxUpdateNodes", String(limits.maxUpdateNodes)),
                           ("userActionWindow", String(limits.userActionWindow)),
                           ("features", "[" + features.names.map(q).joined(separator: ",") + "]")])
        case .error(let e):
            let bounded = ErrorBounds.parts(of: e)
            return object([("type", q("error")), ("error", q(bounded.sentence)), ("line", String(e.line)), ("id", bounded.id)])
        case .ack(let id):
            return object([("type", q("ack")), ("id", JSONText.value(id))])
        case .action(let a):
            return object([("type", q("action")), ("action", q(a.kind.rawValue)), ("id", q(a.element)), ("name", a.name.map(q)),
                           ("text", a.text.map(q))])
        case .focus(let screen, let element):
            return object([("type", q("focus")), ("screen", q(screen)), ("id", q(element))])
        case .transcript(let line):
            return object([("type", q("transcript")), ("line", line)])
        case .status(let s):
            let apps = "[" + s.apps.map { a in
                object([("client", q(a.client)), ("name", q(a.name)), ("foreground", a.foreground ? "true" : "false")])
            }.joined(separator: ",") + "]"
            return object([("type", q("status")), ("apps", apps), ("speech", q(s.speech ? "available" : "unavailable")),
                           ("braille", q(s.braille ? "available" : "unavailable")), ("screen", s.screen.map(q)), ("focus", s.focus.map(q)),
                           ("editing", s.editing.map(q)), ("id", s.requestID.map(JSONText.value))])
        }
    }
}

/// The answer to `status`.
public struct StatusReport: Sendable {
    public struct AppEntry: Sendable, Hashable {
        public var client: String
        public var name: String
        public var foreground: Bool
        public init(client: String, name: String, foreground: Bool) { self.client = client; self.name = name; self.foreground = foreground }
    }
    public var apps: [AppEntry]
    public var speech: Bool
    public var braille: Bool
    /// The foreground app's screen and focused element.
    public var screen: String?
    public var focus: String?
    /// The text field the user is typing into (focused, editing started with a key;
    /// Docs/keymaps.md#typing): keys that type go to it, not to their bindings.
    public var editing: String?
    public var requestID: JSONNode?

    public init(apps: [AppEntry], speech: Bool, braille: Bool, screen: String?, focus: String?, editing: String? = nil,
                requestID: JSONNode?) {
        self.apps = apps; self.speech = speech; self.braille = braille; self.screen = screen; self.focus = focus
        self.editing = editing; self.requestID = requestID
    }
}

extension StatusReport: CustomStringConvertible {
    /// For a person: "apps: Groceries (c1, in front), Notes (c2); speech yes; braille no; screen list; focus title".
    public var description: String {
        let apps = self.apps.map { "\($0.name) (\($0.client)\($0.foreground ? ", in front" : ""))" }
        return "apps: \(apps.isEmpty ? "none" : apps.joined(separator: ", ")); speech \(speech ? "yes" : "no"); "
            + "braille \(braille ? "yes" : "no"); screen \(screen ?? "none"); focus \(focus ?? "none")"
            + (editing.map { "; typing into \($0)" } ?? "")
    }
}
