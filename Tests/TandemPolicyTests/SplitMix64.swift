/// SplitMix64 (Steele, Lea and Flood): a tiny, seeded, deterministic generator, so that a failing
/// property case is replayed exactly from its seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`, by our own arithmetic (not the standard library's, whose algorithm
    /// may change), so a seed means the same case on every toolchain.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % width)
    }

    /// True `percent` times in a hundred.
    mutating func chance(_ percent: Int) -> Bool { int(in: 0...99) < percent }

    /// One of `choices`, each picked in proportion to its weight.
    mutating func weighted<T>(_ choices: [(weight: Int, value: T)]) -> T {
        var pick = int(in: 0...(choices.reduce(0) { $0 + $1.weight } - 1))
        for c in choices {
            if pick < c.weight { return c.value }
            pick -= c.weight
        }
        return choices[choices.count - 1].value
    }
}
