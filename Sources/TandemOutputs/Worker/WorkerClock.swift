import Glibc

/// Monotonic time in nanoseconds: the one clock of both output workers — their deadlines,
/// backoff, write pacing, and the timestamps in `SSIPTrace` and `BrailleWriteEvent`.
public enum WorkerClock {
    /// Now, in nanoseconds since an arbitrary start (CLOCK_MONOTONIC).
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// `ms` milliseconds from now.
    static func deadline(afterMilliseconds ms: Int) -> UInt64 { now() &+ nanoseconds(ms) }

    static func nanoseconds(_ ms: Int) -> UInt64 { UInt64(max(0, ms)) &* 1_000_000 }

    /// Whole milliseconds of a duration, rounded up (settings are given as `Duration`).
    static func milliseconds(_ d: Duration) -> Int {
        let (seconds, attoseconds) = d.components
        return Int(clamping: max(0, seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
    }

    /// Milliseconds left until `deadline` for `poll` (0 when it has passed).
    static func pollTimeout(until deadline: UInt64) -> Int32 {
        let n = now()
        guard deadline > n else { return 0 }
        return Int32(min(UInt64(Int32.max), (deadline - n + 999_999) / 1_000_000))
    }
}
