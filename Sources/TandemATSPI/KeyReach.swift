import TandemModel
import TandemPresentation

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
        /// What the user is told, in the session's language (`spoken(in:)`).
        public let told: Told

        /// What the user hears (and reads on the display, as any announcement) in `phrases`' language.
        public func spoken(in phrases: Phrases) -> String {
            switch told {
            case .noWindow: phrases.notTypedNoWindow
            case .window(nil): phrases.notTypedOtherWindow
            case .window(let title?): StringFormat.render(phrases.notTypedNamedWindow, [title])
            case .inactive(let app): StringFormat.render(phrases.notTypedInactive, [app])
            }
        }
    }

    /// Why nothing was typed, as the user is told it.
    public enum Told: Equatable, Sendable {
        /// X sends keys to no window.
        case noWindow
        /// Another window has the keyboard: its title, nil when it has none.
        case window(String?)
        /// The app's own window (the app's name) is not the active one.
        case inactive(String)
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
            return .elsewhere(Elsewhere(reason: "X sends keys to no window now", told: .noWindow))
        case .window(let pid?, let title)? where pid != appPID:
            let named = title.flatMap { $0.isEmpty ? nil : $0 }
            return .elsewhere(Elsewhere(
                reason: "X sends keys to another window, " + (named.map { "\"\($0)\" " } ?? "") + "(process \(pid)), not to \(appName)'s",
                told: .window(named)))
        case .window?, nil:
            guard windowActive else {
                return .elsewhere(Elsewhere(reason: "the field's window is not active (AT-SPI), so it does not get the keys",
                                            told: .inactive(appName)))
            }
            return .field
        }
    }
}
