/// A parsed JSON value that remembers the line it started on, so that every error about a
/// catalog or a profile can name the file, the line and the JSON path.
public struct JSONNode: Sendable, Equatable {
    /// The value itself.
    public enum Kind: Sendable, Equatable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONNode])
        /// Members in the order they were written; a duplicate key is rejected by the parser.
        case object([Member])
    }

    /// One `"key": value` pair of an object, with the line of its key.
    public struct Member: Sendable, Equatable {
        public let key: String
        public let keyLine: Int
        public let node: JSONNode
    }

    public let kind: Kind
    /// 1-based line where the value starts.
    public let line: Int

    public init(_ kind: Kind, line: Int) {
        self.kind = kind
        self.line = line
    }

    /// A short name of the value's type, for error messages ("a string", "an object").
    public var typeName: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    public var members: [Member]? {
        if case .object(let m) = kind { return m }
        return nil
    }

    public subscript(key: String) -> JSONNode? {
        members?.first { $0.key == key }?.node
    }
}
