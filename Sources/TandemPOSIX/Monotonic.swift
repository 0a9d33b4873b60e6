import Glibc

/// Monotonic nanoseconds (CLOCK_MONOTONIC), the one clock of the server's stall and closing
/// deadlines, the output workers (`WorkerClock`, when no test clock is set) and the
/// benchmarks' stopwatch. It never jumps with the wall clock, and reading it through the vDSO
/// costs a few tens of nanoseconds.
public enum Monotonic {
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// A duration in nanoseconds (negative durations are 0).
    public static func nanoseconds(_ d: Duration) -> UInt64 {
        let (seconds, attoseconds) = d.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }

    /// Whole milliseconds of a duration, rounded up (negative durations are 0).
    public static func milliseconds(_ d: Duration) -> Int {
        let (seconds, attoseconds) = d.components
        return Int(clamping: max(0, seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
    }

    /// `poll`'s timeout in milliseconds until `deadline` (rounded up; -1 when there is none).
    public static func pollTimeout(until deadline: UInt64?) -> Int32 {
        guard let deadline else { return -1 }
        return pollTimeout(until: deadline, now: now())
    }

    /// `poll`'s timeout in milliseconds from `now` until `deadline`, on any clock counting
    /// nanoseconds (0 when it has passed).
    public static func pollTimeout(until deadline: UInt64, now: UInt64) -> Int32 {
        guard deadline > now else { return 0 }
        return pollMilliseconds(deadline - now)
    }

    /// Nanoseconds as `poll`'s milliseconds, rounded up: a wait that ends early would find its
    /// deadline not yet due and wait again for nothing, over and over.
    public static func pollMilliseconds(_ ns: UInt64) -> Int32 {
        Int32(min(UInt64(Int32.max), (ns + 999_999) / 1_000_000))
    }

    /// A duration as a person reads it in an error: "10 s", "1.5 s", "200 ms".
    public static func describe(_ d: Duration) -> String {
        let ms = nanoseconds(d) / 1_000_000
        if ms < 1000 { return "\(ms) ms" }
        if ms % 1000 == 0 { return "\(ms / 1000) s" }
        let tenths = (ms + 50) / 100
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
