import TandemVocabulary

extension JSONText {
    /// A parsed value written back (member order kept).
    public static func value(_ node: JSONNode) -> String {
        switch node.kind {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return number(n)
        case .string(let s): return quote(s)
        case .array(let items): return "[" + items.map(value).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { quote($0.key) + ":" + value($0.node) }.joined(separator: ",") + "}"
        }
    }
}
