import TandemModel
import TandemProtocol

/// One transcript line (Docs/formats.md#transcript) as a subscribed controller receives it:
/// the JSON text, and its fields for reading.
///
///     {"t":6500,"ch":"speech","op":"speak","prio":"text","text":"Banana, 1 kg, $1.99","lang":"en","src":"focus"}
public struct TranscriptEntry: Sendable, Equatable {
    /// The line as JSON text (members in the order Tandem wrote them).
    public let json: String
    /// The line parsed.
    public let node: JSONNode

    /// Parses a transcript line; nil when it is not a JSON object.
    public init?(json: String) {
        guard let node = try? JSONParser.parse(json), node.members != nil else { return nil }
        self.json = json
        self.node = node
    }

    /// A member's value.
    public subscript(key: String) -> JSONNode? { node[key] }

    /// A string member (nil when absent or not a string).
    public func string(_ key: String) -> String? {
        if case .string(let s)? = node[key]?.kind { s } else { nil }
    }

    /// `t`: milliseconds since the service started.
    public var time: Int? {
        if case .number(let n)? = node["t"]?.kind { Int(n) } else { nil }
    }

    /// `ch`: speech, braille, sound or event.
    public var channel: Channel? { string("ch").flatMap(Channel.init(rawValue:)) }

    /// `op` of a speech line: speak, cancel, drop, postpone…
    public var op: String? { string("op") }

    /// `text`: what is spoken, or the text under a braille line's cells.
    public var text: String? { string("text") }

    /// The text of a speech line that was spoken (`op` speak), else nil.
    public var spoken: String? { channel == .speech && op == "speak" ? text : nil }
}
