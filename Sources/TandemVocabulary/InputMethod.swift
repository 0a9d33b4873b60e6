/// How the user drives the session: what hints name (VoiceOver's gestures, or the bound keys)
/// and whether keys type into a text field (Docs/keymaps.md#hints, #typing).
public enum InputMethod: String, Sendable, Hashable, CaseIterable {
    /// VoiceOver's touch gestures: headless scenarios, the catalogs' goldens.
    case touch
    /// A keyboard: `tandem run`'s terminal keys (also `tandem run --connect`'s, sent with each command).
    case keyboard
    /// A braille display's keys and keyboard.
    case braille
}
