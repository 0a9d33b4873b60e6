import Glibc
import TandemPOSIX

/// Monotonic time in nanoseconds: the one clock of both output workers — their deadlines,
/// backoff, write pacing, and the timestamps in `SSIPTrace` and `BrailleWriteEvent`.
///
/// A worker thread may run on another `WorkerTimeSource` (`OutputWorker.start`'s `clock`):
/// every `now()` and every wait with a deadline made on that thread then follow it, so tests
/// drive the outputs' timeouts and retries without waiting for them.
public enum WorkerClock {
    /// Now, in nanoseconds since an arbitrary start (CLOCK_MONOTONIC, or the thread's clock).
    public static func now() -> UInt64 {
        if let source = current { return source.now() }
        return monotonic()
    }

    /// CLOCK_MONOTONIC, whatever the thread's clock.
    public static func monotonic() -> UInt64 { Monotonic.now() }

    /// `ms` milliseconds from now.
    static func deadline(afterMilliseconds ms: Int) -> UInt64 { now() &+ nanoseconds(ms) }

    static func nanoseconds(_ ms: Int) -> UInt64 { UInt64(max(0, ms)) &* 1_000_000 }

    /// Whole milliseconds of a duration, rounded up (settings are given as `Duration`).
    static func milliseconds(_ d: Duration) -> Int { Monotonic.milliseconds(d) }

    /// Milliseconds left until `deadline` for `poll` (0 when it has passed).
    static func pollTimeout(until deadline: UInt64) -> Int32 {
        Monotonic.pollTimeout(until: deadline, now: now())
    }

    /// `poll(2)` until one of `fds` is ready or `deadline` has come, on the thread's clock.
    static func poll(_ fds: inout [pollfd], until deadline: UInt64) -> Int32 {
        if let source = current { return source.poll(&fds, until: deadline) }
        return Glibc.poll(&fds, nfds_t(fds.count), pollTimeout(until: deadline))
    }

    // MARK: the thread's clock

    private final class Box {
        let source: any WorkerTimeSource
        init(_ source: any WorkerTimeSource) { self.source = source }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { raw in
            if let raw { Unmanaged<AnyObject>.fromOpaque(raw).release() }
        }
        return key
    }()

    /// The calling thread's clock; nil: CLOCK_MONOTONIC.
    static var current: (any WorkerTimeSource)? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return (Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue() as? Box)?.source
    }

    /// Makes `source` the calling thread's clock for the rest of its life.
    static func use(_ source: any WorkerTimeSource) {
        if let old = pthread_getspecific(key) { Unmanaged<AnyObject>.fromOpaque(old).release() }
        pthread_setspecific(key, Unmanaged.passRetained(Box(source) as AnyObject).toOpaque())
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
