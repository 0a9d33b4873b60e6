import TandemModel
import TandemVocabulary

/// A JSON value to send: what a client builds its messages from. Objects keep their members
/// in the order written, so a message reads on the wire as it reads in the code.
///
///     let message: JSONValue = ["type": "command", "command": "next"]
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// One `"key": value` pair of an object.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue
        public init(_ key: String, _ value: JSONValue) { self.key = key; self.value = value }
    }

    /// An object from members, leaving out those whose value is nil (an optional field not given).
    public static func compact(_ members: KeyValuePairs<String, JSONValue?>) -> JSONValue {
        .object(members.compactMap { k, v in v.map { Member(k, $0) } })
    }

    /// The value as one line of JSON text (no newline inside: strings escape theirs), written
    /// as Tandem writes its own (`JSONText`). A number that is not finite is written `null`.
    public var json: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let n): JSONText.number(n)
        case .string(let s): JSONText.quote(s)
        case .array(let items): "[" + items.map(\.json).joined(separator: ",") + "]"
        case .object(let members): "{" + members.map { JSONText.quote($0.key) + ":" + $0.value.json }.joined(separator: ",") + "}"
        }
    }

    /// A parsed value (a request id echoed back, a transcript line's field) as a value to send.
    public init(_ node: JSONNode) {
        switch node.kind {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(JSONValue.init))
        case .object(let members): self = .object(members.map { Member($0.key, JSONValue($0.node)) })
        }
    }

    /// The member `key` of an object (nil for anything else, or when it has none).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// A copy of an object with `key` set to `value` (replaced in place when it is there,
    /// added at the end when not).
    public func setting(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        if let k = members.firstIndex(where: { $0.key == key }) { members[k].value = value } else { members.append(Member(key, value)) }
        return .object(members)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
                     ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
                     ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements.map { Member($0.0, $0.1) }) }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { json }
}
