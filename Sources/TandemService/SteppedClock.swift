import Synchronization
import TandemVocabulary

/// A live runner's clock that stands still until its driver moves it (`RunnerClock`): the
/// virtual clock of `tandem test`'s app cases, where a real app talks to a private service
/// and time moves only when the app has gone quiet (Docs/ci.md#apps), and the tests' clock
/// for a live session whose timers must fire exactly when the test says. No real time makes
/// it pass, so a slow machine changes how long a run takes, never what its transcript says.
public final class SteppedClock: RunnerClock {
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

    /// Moves the clock to `time` (never back) and wakes the runners on it.
    public func move(to time: Milliseconds) {
        let wakes = state.withLock { s -> [@Sendable () -> Void] in
            guard time > s.now else { return [] }
            s.now = time
            return s.wakes
        }
        for wake in wakes { wake() }
    }

    /// Moves the clock on by `ms` and wakes the runners on it.
    public func advance(milliseconds ms: Milliseconds) { move(to: now() + ms) }
}
