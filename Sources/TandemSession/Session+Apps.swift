import TandemModel
import TandemNavigator
import TandemPolicy
import TandemPresentation
import TandemVocabulary

/// What a session tells the service about the foreground app's user (Docs/protocol.md): the
/// actions to send it and where focus went.
public enum SessionNotice: Sendable, Hashable {
    case action(AppAction)
    case focus(screen: String, element: String)
}

extension Session {
    /// Notices since the last call, oldest first.
    public mutating func takeNotices() -> [SessionNotice] {
        defer { notices.removeAll() }
        return notices
    }

    /// Puts another app's navigator in front and says where the user is in it (as after
    /// `screenChanged`); returns the one that was in front, to keep its tree and focus.
    /// `named`: the app's name, said first and flashed on the display, as VoiceOver says the
    /// app a switch lands in.
    public mutating func bringForward(_ next: Navigator, named: String? = nil, at time: Milliseconds) -> Navigator {
        now = max(now, time)
        var incoming = next
        incoming.setLanguage(profile.language ?? incoming.catalog.language)
        let previous = navigator
        navigator = incoming
        // Timers of the app that went back (delayed announcements, loading steps) are not its
        // any more.
        timers.removeNavigatorTimers()
        presenter = Presenter(language: navigator.language, verbosity: profile.verbosity)
        display.language = navigator.language
        appIntro = named
        handle(navigator.focusAgain(reason: .screenChanged), user: false)
        appIntro = nil
        if let named { flash(named) }
        return previous
    }

    /// The foreground app shows a screen.
    public mutating func show(_ screen: Screen, at time: Milliseconds) {
        now = max(now, time)
        handle(navigator.show(screen), user: false)
    }

    /// The foreground app changed its tree; `user`: the change answers the user's own action.
    public mutating func applyUpdate(_ update: TreeUpdate, user: Bool, at time: Milliseconds) throws(TreeUpdateError) {
        now = max(now, time)
        handle(try navigator.apply(update), user: user)
    }

    /// The foreground app changed fields of one element; false when it has no such element.
    public mutating func set(_ id: String, _ patch: ElementPatch, user: Bool, at time: Milliseconds) -> Bool {
        now = max(now, time)
        guard let events = navigator.set(id, { patch.apply(to: &$0) }) else { return false }
        handle(events, user: user)
        return true
    }

    /// Which outputs answer now (as last reported).
    public func isAvailable(_ output: OutputKind) -> Bool { outputAvailability[output] ?? false }
}
