/// Median and 99th percentile of a set of timings (nanoseconds, or any other unit).
///
/// Percentiles use the nearest-rank method on the sorted samples: with fewer than 100 samples
/// the p99 is the largest one, which is what an honest p99 of a small sample is.
struct Summary: Codable, Sendable {
    var count: Int
    var median: Double
    var p99: Double
    var min: Double
    var max: Double

    init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "a summary needs at least one sample")
        let sorted = samples.sorted()
        count = sorted.count
        let mid = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
        p99 = Self.percentile(99, ofSorted: sorted)
        min = sorted[0]
        max = sorted[sorted.count - 1]
    }

    init(nanoseconds samples: [UInt64]) { self.init(samples.map { Double($0) }) }

    /// Nearest rank: the smallest sample that at least `p` percent of the samples do not exceed.
    static func percentile(_ p: Double, ofSorted sorted: [Double]) -> Double {
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }
}
