/// How long an output waits before trying its daemon again: `first`, then twice as long after
/// each failure, up to `longest`; a connection that works starts it again from `first`.
struct Backoff: Sendable, Hashable {
    let first: Int
    let longest: Int
    private var current: Int

    /// Waits in milliseconds.
    init(first: Int, longest: Int) {
        self.first = max(1, first)
        self.longest = max(self.first, longest)
        self.current = self.first
    }

    /// The wait before the next attempt; the one after it doubles.
    mutating func next() -> Int {
        defer { current = min(current * 2, longest) }
        return current
    }

    /// A connection worked.
    mutating func reset() { current = first }
}
