import TandemModel

/// Why focus moved; presentation and policy treat these differently.
public enum FocusReason: String, Sendable, Hashable {
    /// The run or session started (as after `screenChanged`).
    case start
    /// The user navigated (next, previous, first, last, headings, panning, read-all).
    case user
    case screenChanged
    case layoutChanged
    /// A modal view appeared and took focus, or closed and gave it back.
    case modal
    /// The focused element disappeared and focus went to its neighbour.
    case lost
    /// `back` restored the previous screen's focus.
    case back
    /// Read-all moved on to the next element.
    case readAll
}

/// Which end of the reading order a command ran into.
public enum Edge: String, Sendable, Hashable {
    case start, end
    /// Nothing to do there (no actions, no adjustable, no heading in that direction).
    case none
}

/// Something deferred that the navigator asks its driver to hand back after a delay.
public enum Timer: Sendable, Hashable {
    /// An announcement posted with a `delay`.
    case announce(text: String, high: Bool)
    /// Step `step` (1…steps) of a `load` effect.
    case loadStep(load: Int, step: Int)
}

/// What happened, in order, as the result of a command, a notification or a timer.
/// Presentation turns these into speech and braille.
public enum NavigatorEvent: Sendable, Hashable {
    /// Focus is now on `element` of `screen`.
    case focused(screen: String, element: String, reason: FocusReason)
    /// The focused element's value changed (an adjustment or an effect).
    case valueChanged(element: String)
    /// The focused element's label or traits changed where it stands.
    case elementChanged(element: String)
    case announcement(text: String, high: Bool)
    case pageScrolled(text: String)
    case boundary(Edge)
    /// The actions rotor selected a custom action (`nil`: back on the default activation).
    case actionSelected(element: String, name: String?)
    case actionPerformed(element: String, name: String)
    case activated(element: String)
    case screenChanged(screen: String)
    /// A loading indicator advanced to `step` of `steps`. `focused`: the indicator had focus
    /// when the step happened (a step's effects, such as a load's `then`, may move focus before
    /// the step is presented), so only a focused indicator's steps are presented step by step.
    case progress(element: String, step: Int, steps: Int, focused: Bool)
    /// The command had nothing to act on (no magic tap handler, no activation, …).
    case unhandled(Command)
    /// Call `Navigator.fire(_:)` with `timer` after `afterMs` milliseconds.
    case schedule(timer: Timer, afterMs: Int)
    /// An action for the app that feeds the catalog to carry out.
    case appAction(AppAction)
}

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
