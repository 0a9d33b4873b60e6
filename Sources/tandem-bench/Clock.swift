import Foundation

/// The benchmark's stopwatch: `CLOCK_MONOTONIC` in nanoseconds. It never jumps with the wall
/// clock, and reading it through the vDSO costs a few tens of nanoseconds, so individual
/// navigation steps can be timed one by one.
enum Monotonic {
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Runs `body` once and returns its result with the nanoseconds it took.
    static func measure<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> (result: T, nanoseconds: UInt64) {
        let start = now()
        let result = try body()
        return (result, now() - start)
    }
}
