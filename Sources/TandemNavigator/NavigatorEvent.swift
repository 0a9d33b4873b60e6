import TandemModel
import TandemVocabulary

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

