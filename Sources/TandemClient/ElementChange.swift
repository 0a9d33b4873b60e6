import TandemModel

/// One field a `set` changes (Docs/protocol.md#set); the other fields of the element stay as
/// they are. `nil` clears a field.
///
///     try app.set("checkout.loading", .hidden(false), .modal(true))
public enum ElementChange: Sendable, Hashable {
    case label(String?)
    case value(String?)
    case hint(String?)
    case traits(Traits)
    case frame(Frame?)
    case accessible(Bool?)
    case hidden(Bool)
    case modal(Bool)
    case group(Bool)
    case order([String]?)
    case actions([String])
    case adjust(AppAdjust?)
    case progress(Progress?)

    /// The `set` message changing `changes` on the element `id` (what `TandemApp.set` sends).
    public static func message(for id: String, _ changes: [ElementChange]) -> JSONValue {
        .object([.init("type", "set"), .init("id", .string(id))] + changes.map(\.member))
    }

    /// The change as the member of a `set` message.
    var member: JSONValue.Member {
        func text(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
        return switch self {
        case .label(let s): .init("label", text(s))
        case .value(let s): .init("value", text(s))
        case .hint(let s): .init("hint", text(s))
        case .traits(let t): .init("traits", Self.encode(t))
        case .frame(let f): .init("frame", f.map(Self.encode) ?? .null)
        case .accessible(let b): .init("accessible", b.map { .bool($0) } ?? .null)
        case .hidden(let b): .init("hidden", .bool(b))
        case .modal(let b): .init("modal", .bool(b))
        case .group(let b): .init("group", .bool(b))
        case .order(let ids): .init("order", ids.map { .array($0.map { .string($0) }) } ?? .null)
        case .actions(let names): .init("actions", Self.encode(actions: names))
        case .adjust(let a): .init("adjust", a?.json ?? .null)
        case .progress(let p): .init("progress", p.map(Self.encode) ?? .null)
        }
    }

    static func encode(_ traits: Traits) -> JSONValue { .array(traits.names.map { .string($0) }) }

    static func encode(_ f: Frame) -> JSONValue { .array([.number(f.x), .number(f.y), .number(f.width), .number(f.height)]) }

    static func encode(actions names: [String]) -> JSONValue { .array(names.map { ["name": .string($0)] }) }

    /// `value` left out means indeterminate.
    static func encode(_ p: Progress) -> JSONValue {
        .compact(["label": p.label.map { .string($0) }, "value": p.value.map { .number($0) }])
    }
}
