/// Whether keys the bridge types would reach the field's window (Docs/atspi.md#actions).
/// Synthesized keys go through X's XTEST extension to the window with X's keyboard focus,
/// whatever AT-SPI says has focus inside an application: a field focused within Chromium
/// while another window is in front would have its keys typed into that other window.
public enum KeyReach: Equatable, Sendable {
    /// The field's window has the keyboard: keys typed now reach the field.
    case field
    /// Keys typed now would go elsewhere, or nowhere; nothing may be typed.
    case elsewhere(Elsewhere)

    /// Why keys would not reach the field, for the bridge's log and for the user.
    public struct Elsewhere: Equatable, Sendable {
        /// The log's words, after "not typed: ".
        public let reason: String
        /// What the user hears (and reads on the display, as any announcement).
        public let spoken: String
    }

    /// The window X sends keys to, as X says (nil: no X display to ask, as under Wayland).
    public enum XTarget: Equatable, Sendable {
        /// Keys go to no window (X's focus is None, or on the root with no window under the pointer).
        case nowhere
        /// A window, with the process id its top-level names (`_NET_WM_PID`; nil when it names
        /// none) and its title (nil when it has none).
        case window(pid: Int32?, title: String?)
    }

    /// Decides from what AT-SPI and X say: the field's window must be `active` (AT-SPI: the
    /// window that has the keyboard, as the application knows it) and, where X can be asked,
    /// the window X sends keys to must belong to the application's process. A window whose
    /// process X cannot tell (no `_NET_WM_PID`) is left to AT-SPI's word.
    public static func decide(windowActive: Bool, x: XTarget?, appPID: Int32, appName: String) -> KeyReach {
        switch x {
        case .nowhere?:
            return .elsewhere(Elsewhere(reason: "X sends keys to no window now", spoken: "Not typed: no window has the keyboard"))
        case .window(let pid?, let title)? where pid != appPID:
            let named = title.flatMap { $0.isEmpty ? nil : $0 }
            return .elsewhere(Elsewhere(
                reason: "X sends keys to another window, " + (named.map { "\"\($0)\" " } ?? "") + "(process \(pid)), not to \(appName)'s",
                spoken: "Not typed: " + (named ?? "another window") + " has the keyboard"))
        case .window?, nil:
            guard windowActive else {
                return .elsewhere(Elsewhere(reason: "the field's window is not active (AT-SPI), so it does not get the keys",
                                            spoken: "Not typed: \(appName)'s window does not have the keyboard"))
            }
            return .field
        }
    }
}
