/// One of N disjoint parts of a suite (`--shard K/N`), so that a CI matrix spreads the cases
/// over N runners. A case belongs to shard `⌊FNV-1a-64(name) × N / 2⁶⁴⌋ + 1`: a fixed hash of
/// the case's stable name (path, profile, language), not Swift's per-process seeded
/// `hashValue`, so every machine agrees; the N shards are disjoint and together hold every case.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// 1-based.
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index; self.count = count
    }

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case format(String)
        case range(String)
        public var description: String {
            switch self {
            case .format(let s): "--shard takes K/N (this runner's part K of N, e.g. 2/4), not \"\(s)\""
            case .range(let s): "--shard \(s): K must be between 1 and N, and N at least 1"
            }
        }
    }

    /// Parses `K/N`.
    public static func parse(_ text: String) throws(ParseError) -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { throw .format(text) }
        guard let shard = Shard(index: k, count: n) else { throw .range(text) }
        return shard
    }

    public func contains(_ name: String) -> Bool {
        Self.part(of: name, count: count) == index
    }

    /// The 1-based part of `count` that `name` falls in: the hash's full width scaled to
    /// `0..<count` (multiply, keep the high word). Taking the hash modulo a power of two would
    /// look only at FNV's low bits, which mix the input's bytes poorly.
    public static func part(of name: String, count: Int) -> Int {
        Int(fnv1a64(name).multipliedFullWidth(by: UInt64(count)).high) + 1
    }

    public var description: String { "\(index)/\(count)" }

    /// FNV-1a, 64-bit, over the UTF-8 bytes.
    public static func fnv1a64(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }
}
