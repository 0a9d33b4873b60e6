import Glibc
import TandemPOSIX

/// Monotonic time in nanoseconds: the one clock of an output worker — its deadlines,
/// backoff, write pacing, and the timestamps in `SSIPTrace` and `BrailleWriteEvent`.
///
/// A worker runs on the clock it is given (`OutputWorker`'s `clock`), and everything it calls
/// that waits or reads the time is handed that same value: CLOCK_MONOTONIC (`.monotonic`), or
/// another `WorkerTimeSource` (tests: one that moves only when told, so timeouts, retries and
/// pacing are exact and instant).
public struct WorkerClock: Sendable {
    /// nil: CLOCK_MONOTONIC.
    let source: (any WorkerTimeSource)?

    /// CLOCK_MONOTONIC.
    public static let monotonic = WorkerClock(nil)

    /// `source`'s time, or CLOCK_MONOTONIC when nil.
    public init(_ source: (any WorkerTimeSource)?) { self.source = source }

    /// Now, in nanoseconds since an arbitrary start.
    public func now() -> UInt64 { source?.now() ?? Monotonic.now() }

    /// `ms` milliseconds from now.
    func deadline(afterMilliseconds ms: Int) -> UInt64 { now() &+ Self.nanoseconds(ms) }

    static func nanoseconds(_ ms: Int) -> UInt64 { UInt64(max(0, ms)) &* 1_000_000 }

    /// Whole milliseconds of a duration, rounded up (settings are given as `Duration`).
    static func milliseconds(_ d: Duration) -> Int { Monotonic.milliseconds(d) }

    /// `poll(2)` until one of `fds` is ready or `deadline` has come, on this clock.
    func poll(_ fds: inout [pollfd], until deadline: UInt64) -> Int32 {
        if let source { return source.poll(&fds, until: deadline) }
        return Glibc.poll(&fds, nfds_t(fds.count), Monotonic.pollTimeout(until: deadline, now: now()))
    }
}

/// A clock an output worker can run on instead of CLOCK_MONOTONIC (tests: a clock that moves
/// only when told, so timeouts, backoff and pacing are exact and instant).
public protocol WorkerTimeSource: AnyObject, Sendable {
    /// Now, in nanoseconds.
    func now() -> UInt64
    /// Waits as `poll(2)` does until one of `fds` is ready or `deadline` (on this clock) has
    /// come; returns what `poll` returns (0: the deadline came first).
    func poll(_ fds: inout [pollfd], until deadline: UInt64) -> Int32
}
