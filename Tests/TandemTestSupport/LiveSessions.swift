import Synchronization

/// The live sessions a daemon fixture made, to finish them before the fixture stops its
/// daemon (a session must not outlive the daemon its output talks to), and only once.
public final class LiveSessions: Sendable {
    private let state = Mutex<(sessions: [LiveSession], closed: Bool)>(([], false))

    public init() {}

    /// Keeps `live` to finish later; returns it.
    @discardableResult
    public func keep(_ live: LiveSession) -> LiveSession {
        state.withLock { $0.sessions.append(live) }
        return live
    }

    /// Finishes every session kept. True the first time only: the fixture's `stop()` goes on
    /// to stop its daemon then, and returns at once on later calls.
    public func close() -> Bool {
        let sessions: [LiveSession]? = state.withLock { s in
            guard !s.closed else { return nil }
            s.closed = true
            return s.sessions
        }
        guard let sessions else { return false }
        for live in sessions { live.finish() }
        return true
    }
}
