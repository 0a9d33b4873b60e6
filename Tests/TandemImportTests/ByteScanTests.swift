import Testing
import CByteScan
@testable import TandemImport

/// The reader's 16-byte scans (`CByteScan`, Docs/import.md#speed) and the rules' written-out
/// name keys must answer what the byte-by-byte definitions answer, for every byte at every
/// place of a 16-byte block, at the end of the file (where fewer than 16 bytes are left) and
/// past it.
@Suite("Byte scans: 16 bytes at a time, the same answers as one at a time")
struct ByteScanTests {
    /// `XMLScanner.plainAttribute` as it read before the 16-byte scans, byte by byte.
    static func plainReference(_ d: [UInt8], at start: Int) -> (nameTo: Int, valueTo: Int)? {
        let n = d.count
        guard d[start] < 0x80, XMLScanner.isNameStart(d[start]) else { return nil }
        var j = start + 1
        while j < n, XMLScanner.isNameASCII(d[j]) { j += 1 }
        guard j + 1 < n, d[j] == UInt8(ascii: "="), d[j + 1] == UInt8(ascii: "\"") else { return nil }
        var k = j + 2
        while k < n {
            let v = d[k]
            if v == UInt8(ascii: "\"") { return (j, k) }
            guard v >= 0x20, v < 0x80, v != UInt8(ascii: "<"), v != UInt8(ascii: "&") else { return nil }
            k += 1
        }
        return nil
    }

    static func plain(_ d: [UInt8], at start: Int) -> (nameTo: Int, valueTo: Int)? {
        d.withUnsafeBufferPointer { XMLScanner.plainAttribute($0, at: start) }
    }

    @Test("every byte at every place of a name or a value: the same end, or the same refusal")
    func everyByteEverywhere() {
        var checked = 0
        for nameLength in [1, 7, 15, 16, 17, 33] {
            for valueLength in [0, 5, 15, 16, 17, 40] {
                let name = [UInt8](repeating: UInt8(ascii: "a"), count: nameLength)
                let value = [UInt8](repeating: UInt8(ascii: "v"), count: valueLength)
                let base = name + Array("=\"".utf8) + value + Array("\"".utf8)
                // With room after it (the 16-byte scans) and at the very end of the file (the byte loops).
                for tail in [Array(" b=\"1\" checkable=\"false\"/>".utf8), []] {
                    let text = base + tail
                    for place in 1..<(nameLength + 2 + valueLength) {
                        for byte in 0...255 {
                            var d = text
                            d[place] = UInt8(byte)
                            let got = Self.plain(d, at: 0), want = Self.plainReference(d, at: 0)
                            #expect(got?.nameTo == want?.nameTo && got?.valueTo == want?.valueTo,
                                    "byte \(byte) at \(place) of a \(nameLength)-byte name and a \(valueLength)-byte value")
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 100_000)
    }

    @Test("an attribute cut by the end of the file is not read as whole")
    func cutByTheEnd() {
        let whole = Array("checkable=\"false and more than sixteen bytes\"".utf8)
        for count in 1..<whole.count {
            #expect(Self.plain(Array(whole[0..<count]), at: 0) == nil, "the first \(count) bytes")
        }
        #expect(Self.plain(whole, at: 0)?.valueTo == whole.count - 1)
    }

    @Test("the bytes two runs have in common: every length up to 200, the first difference at every place")
    func commonPrefix() {
        let a = (0..<220).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        for max in 0...200 {
            // `place`: where the runs first differ (`max`: nowhere before the end).
            for place in 0...max {
                var b = a
                if place < max { b[place] ^= 0x01 }
                a.withUnsafeBufferPointer { x in
                    b.withUnsafeBufferPointer { y in
                        #expect(cbytescan_common_prefix(x.baseAddress!, y.baseAddress!, max) == place, "\(place) of \(max)")
                    }
                }
            }
        }
    }

    @Test("equal bytes: every length up to 40, a difference at every place, near the end of the buffer")
    func equalRuns() {
        let a = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for count in 0...40 {
            // The second run at the very end of the buffer, so the 16-byte compare cannot read past it.
            // Then with bytes after it that differ from the first run's (the masked 16-byte compare).
            for after in [[], [UInt8](repeating: 0xFF, count: 16)] {
                let d = a + a[0..<count] + after
                d.withUnsafeBufferPointer { p in
                    #expect(XMLScanner.equal(p, 0, 40, count))
                }
                for place in 0..<count {
                    var e = d
                    e[40 + place] ^= 0x01
                    e.withUnsafeBufferPointer { p in
                        #expect(!XMLScanner.equal(p, 0, 40, count), "a difference at \(place) of \(count)")
                    }
                }
            }
        }
    }

    @Test("names over 16 bytes and names with bytes over ASCII read to the same end")
    func longNames() throws {
        let page = "<a xmlns:very-long.attribute_name-1234567890=\"x\" ünïcödé-näme-longer-than-sixteen=\"y\" b=\"z\"/>"
        let root = try PageSourceReader.read(Array(page.utf8), file: "names.xml")
        #expect(root.attributes == ["xmlns:very-long.attribute_name-1234567890": "x", "ünïcödé-näme-longer-than-sixteen": "y", "b": "z"])
    }

    @Test("each written-out name key is its name's key")
    func nameKeys() {
        for (key, name) in AndroidFacts.Names.all + IOSFacts.Names.all {
            #expect(key == PageTree.NameKey(name), "\(name)")
        }
        #expect(AndroidFacts.Names.all.count == 17 && IOSFacts.Names.all.count == 13)
    }

    @Test("a numbered id is what the interpolation makes; a slug cut at 40 still looks at the rest")
    func ids() {
        for n in [2, 9, 10, 99, 100, 12345, Int.max, -7, Int.min] {
            #expect(IDMaker.numbered("row", n) == "row-\(n)")
            #expect(IDMaker.numbered("", n) == "-\(n)")
            #expect(IDMaker.numbered("zoë", n) == "zoë-\(n)")
            #expect(IDMaker.numbered("a-long-resource-name", n) == "a-long-resource-name-\(n)")
        }
        let long = String(repeating: "ab ", count: 30)
        #expect(IDMaker.slug(long) == String(repeating: "ab-", count: 13) + "a")
        // Over ASCII after the 40th letter: the whole string goes by the rule for any script.
        #expect(IDMaker.slug(long + "É") == String(repeating: "ab-", count: 13) + "a")
        var maker = IDMaker()
        #expect(["Row", "row", "row-2", "row", "ROW"].map { maker.make($0) } == ["row", "row-2", "row-2-2", "row-3", "row-4"])
    }
}
