import TandemModel

extension TreeUpdate.ChildrenEdit {
    /// The edit as an `update`'s `edits` item (Docs/protocol.md#edits).
    public var json: JSONValue {
        var members: [JSONValue.Member] = [.init("parent", .string(parent))]
        if !remove.isEmpty { members.append(.init("remove", .array(remove.map { .string($0) }))) }
        if !insert.isEmpty { members.append(.init("insert", .array(insert.map { .string($0) }))) }
        switch place {
        case .end: break
        case .after(let id): members.append(.init("after", .string(id)))
        case .before(let id): members.append(.init("before", .string(id)))
        }
        return .object(members)
    }
}
