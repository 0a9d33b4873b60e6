import Testing
import TandemTestSupport

/// A seed must mean the same fuzz or property case everywhere.
@Suite("SplitMix64")
struct SplitMix64Tests {
    @Test("seed 0 gives the reference sequence of Steele, Lea and Flood's splitmix64")
    func referenceValues() {
        var rng = SplitMix64(seed: 0)
        #expect([rng.next(), rng.next(), rng.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
    }

    @Test("below(n) and int(in: 0...n-1) draw the same numbers, and below(0) draws none")
    func helpersAgree() {
        var a = SplitMix64(seed: 42), b = SplitMix64(seed: 42)
        for n in [1, 2, 7, 100, 1_000_003] {
            #expect(a.below(n) == b.int(in: 0...(n - 1)))
        }
        let before = a.state
        #expect(a.below(0) == 0)
        #expect(a.state == before)
        #expect(a.chance(100) && !a.chance(0))
    }
}
