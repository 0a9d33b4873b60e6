/// The keys a hint names, for a user who drives Tandem with keys rather than VoiceOver's
/// gestures (Docs/keymaps.md#hints): each as a key map writes it (`enter`, `up`, a BRLTTY
/// command name such as `HOME`), said through the language's `key.NAME` phrase when it has one
/// ("Up arrow"), else as written. nil for an action no key is bound to: its hint is left out.
public struct HintKeys: Sendable, Hashable {
    /// The key that activates (a text field's "Press Enter to edit", a switch's toggle).
    public var activate: String?
    /// The keys that raise and lower an adjustable value.
    public var increment: String?
    public var decrement: String?

    public init(activate: String? = nil, increment: String? = nil, decrement: String? = nil) {
        self.activate = activate; self.increment = increment; self.decrement = decrement
    }
}

extension Phrases {
    /// How a key is said: its `key.NAME` phrase ("Enter", "Up arrow"), else its name.
    public func keyName(_ key: String) -> String {
        has("key." + key) ? text("key." + key) : key
    }
}
