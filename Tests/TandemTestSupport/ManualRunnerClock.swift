import Synchronization
import TandemService
import TandemVocabulary

/// A `RunnerClock` that moves only when the test says (`advance`): a live session's timers on
/// it fire exactly when the test has moved it far enough, never on their own, while its outputs
/// still talk to real daemons.
public final class ManualRunnerClock: RunnerClock {
    private struct State {
        var now: Milliseconds = 0
        var wakes: [@Sendable () -> Void] = []
    }
    private let state = Mutex(State())

    public init() {}

    public func now() -> Milliseconds { state.withLock { $0.now } }

    /// Real time never moves it.
    public func realSeconds(for ms: Milliseconds) -> Double? { nil }

    public func onMove(_ wake: @escaping @Sendable () -> Void) { state.withLock { $0.wakes.append(wake) } }

    /// Moves the clock on by `ms` and wakes the runners on it.
    public func advance(milliseconds ms: Milliseconds) {
        let wakes = state.withLock { s in
            s.now += ms
            return s.wakes
        }
        for wake in wakes { wake() }
    }
}
