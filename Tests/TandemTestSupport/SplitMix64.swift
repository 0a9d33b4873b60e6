/// SplitMix64 (Steele, Lea and Flood 2014): a tiny, seeded, deterministic generator, so a
/// failing property or fuzz case is replayed exactly from its seed.
///
/// The helpers below use their own arithmetic (not the standard library's, whose algorithms
/// may change), so a seed means the same case on every toolchain.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % width)
    }

    /// A number in `0..<n`; 0, drawing nothing, when `n` is not positive.
    public mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : int(in: 0...(n - 1)) }

    /// True `percent` times in a hundred.
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One of `items`, each as likely.
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// One of `choices`, each picked in proportion to its weight.
    public mutating func weighted<T>(_ choices: [(weight: Int, value: T)]) -> T {
        var pick = int(in: 0...(choices.reduce(0) { $0 + $1.weight } - 1))
        for c in choices {
            if pick < c.weight { return c.value }
            pick -= c.weight
        }
        return choices[choices.count - 1].value
    }
}
