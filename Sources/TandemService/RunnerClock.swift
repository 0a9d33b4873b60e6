import Foundation
import TandemVocabulary

/// A live session's time (`LiveRunner`): the wall clock (`WallClock`), or a clock a test moves
/// by hand, so a timer's rule (a message shown for the message time) is checked against real
/// outputs to the millisecond without waiting for it.
public protocol RunnerClock: AnyObject, Sendable {
    /// Now, in milliseconds since an origin of the clock's own.
    func now() -> Milliseconds
    /// The real seconds a wait of `ms` of this clock's milliseconds takes; nil when no real
    /// time makes it pass (a clock moved by hand: only `onMove`'s call ends the wait).
    func realSeconds(for ms: Milliseconds) -> Double?
    /// Remembers `wake`, to call each time the clock is moved by hand (never, for the wall clock).
    func onMove(_ wake: @escaping @Sendable () -> Void)
}

/// The wall clock (CLOCK_MONOTONIC), `speed` times faster than real time (1: real time; tests
/// play long scenarios quickly against daemons that speak as fast).
public final class WallClock: RunnerClock {
    public let speed: Double
    private let origin = ContinuousClock.now

    public init(speed: Double = 1) { self.speed = speed }

    public func now() -> Milliseconds {
        let d = ContinuousClock.now - origin
        let ms = Int(d.components.seconds) * 1000 + Int(d.components.attoseconds / 1_000_000_000_000_000)
        return speed == 1 ? ms : Int(Double(ms) * speed)
    }

    public func realSeconds(for ms: Milliseconds) -> Double? { Double(ms) / 1000 / speed }

    public func onMove(_ wake: @escaping @Sendable () -> Void) {}
}
