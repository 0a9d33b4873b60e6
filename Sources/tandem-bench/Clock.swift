import TandemPOSIX

/// The benchmark's stopwatch: `Monotonic` (CLOCK_MONOTONIC in nanoseconds), so individual
/// navigation steps can be timed one by one.
extension Monotonic {
    /// Runs `body` once and returns its result with the nanoseconds it took.
    static func measure<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> (result: T, nanoseconds: UInt64) {
        let start = now()
        let result = try body()
        return (result, now() - start)
    }
}
