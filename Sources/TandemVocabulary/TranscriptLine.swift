/// One JSON Lines record: fields in a fixed order (`t`, `ch`, then the channel's own), written
/// byte-for-byte the same on every run.
public struct TranscriptLine: Sendable, Hashable {
    public enum Value: Sendable, Hashable {
        case string(String)
        case int(Int)
        case bool(Bool)
    }

    public var fields: [(String, Value)] {
        get { storage.map { ($0.key, $0.value) } }
        set { storage = newValue.map { Field(key: $0.0, value: $0.1) } }
    }

    struct Field: Sendable, Hashable { let key: String; let value: Value }
    var storage: [Field]

    public init(_ fields: [(String, Value)]) { storage = fields.map { Field(key: $0.0, value: $0.1) } }

    public subscript(key: String) -> Value? { storage.first { $0.key == key }?.value }

    public func string(_ key: String) -> String? {
        if case .string(let s)? = self[key] { return s }
        return nil
    }

    public func int(_ key: String) -> Int? {
        if case .int(let i)? = self[key] { return i }
        return nil
    }

    /// The line as compact JSON, without the newline.
    public var json: String {
        var out = "{"
        for (i, f) in storage.enumerated() {
            if i > 0 { out += "," }
            out += Self.quote(f.key) + ":"
            switch f.value {
            case .string(let s): out += Self.quote(s)
            case .int(let n): out += String(n)
            case .bool(let b): out += b ? "true" : "false"
            }
        }
        return out + "}"
    }

    /// JSON string escaping (`JSONText.quote`).
    public static func quote(_ s: String) -> String { JSONText.quote(s) }
}
