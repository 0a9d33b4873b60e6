/// What the user asked of an element of a running app: the app carries it out itself
/// (Docs/protocol.md#action). Only for catalogs fed by an app (`Navigator.forwardsActions`).
public struct AppAction: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case activate, increment, decrement, custom, magicTap, escape, scrollUp, scrollDown
        /// Text entry on a text field: `text` typed at the insertion point, the character
        /// before it deleted, the field cleared.
        case type, delete, clear
    }
    public var kind: Kind
    /// The element the action is for (for magic tap, escape and scrolling: the element they
    /// were resolved on).
    public var element: String
    /// The custom action's name.
    public var name: String?
    /// What `type` types.
    public var text: String?

    public init(_ kind: Kind, element: String, name: String? = nil, text: String? = nil) {
        self.kind = kind; self.element = element; self.name = name; self.text = text
    }

    /// A text-entry action's result on a field holding `old` (its end is the insertion point):
    /// `type` appends its text, `delete` takes the last character, `clear` empties it. nil for
    /// actions that are not text entry. The navigator (a catalog's field) and an adapter that
    /// edits a real field (AT-SPI's EditableText) both use it.
    public func edited(_ old: String) -> String? {
        switch kind {
        case .type: old + (text ?? "")
        case .delete: String(old.dropLast())
        case .clear: ""
        default: nil
        }
    }
}
