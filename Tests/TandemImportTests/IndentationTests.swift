import Testing
import TandemTestSupport
@testable import TandemImport

/// The indentation between tags (spaces and line feeds) is skipped 16 bytes at a time, the lines
/// passed counted from the line feeds' bits (`cbytescan_blanks16`, Docs/import.md#speed): the
/// helper must answer what its definition answers at every byte and place, and every element's
/// line and column, and every refusal's, must be what counting character by character gives.
@Suite("Indentation between tags: skipped 16 bytes at a time, lines and columns as counted one by one")
struct IndentationTests {
    @Test("cbytescan_blanks16: every byte at every place, against its definition")
    func blanksHelper() {
        for fill in [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "a")] {
            var block = [UInt8](repeating: fill, count: 16)
            for place in 0..<16 {
                for b in 0...255 {
                    block[place] = UInt8(b)
                    let got = block.withUnsafeBufferPointer { cbytescanBlanks($0.baseAddress!) }
                    var stops: UInt32 = 0, feeds: UInt32 = 0
                    for (k, c) in block.enumerated() {
                        if c != 0x20, c != 0x0A { stops |= 1 << UInt32(k) }
                        if c == 0x0A { feeds |= 1 << UInt32(k) }
                    }
                    #expect(got == stops | feeds << 16, "byte \(b) at \(place) among \(fill)")
                }
                block[place] = fill
            }
        }
    }

    /// Where each start tag is, counted character by character: its line and column (in
    /// characters, as the reader counts them).
    static func places(_ text: [UInt8]) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        var line = 1, column = 1
        var inTag = false, quote: UInt8 = 0
        for (k, b) in text.enumerated() {
            if quote != 0 {
                if b == quote { quote = 0 }
            } else if inTag {
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") { quote = b }
                if b == UInt8(ascii: ">") { inTag = false }
            } else if b == UInt8(ascii: "<"), k + 1 < text.count, text[k + 1] != UInt8(ascii: "/"), text[k + 1] != UInt8(ascii: "?"), text[k + 1] != UInt8(ascii: "!") {
                out.append((line, column))
                inTag = true
            } else if b == UInt8(ascii: "<") {
                inTag = true
            }
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return out
    }

    /// Expects the reader to put every element of `data` where `places` counts it.
    static func expectPlaces(_ data: [UInt8], _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let tree = try PageTree(data, file: "p.xml")
        let want = places(data)
        #expect(tree.count == want.count, "\(what)", sourceLocation: sourceLocation)
        for i in 0..<min(tree.count, want.count) {
            #expect(Int(tree.lines[i]) == want[i].0 && Int(tree.columns[i]) == want[i].1, "\(what) element \(i)", sourceLocation: sourceLocation)
        }
    }

    /// A page whose tags are separated by random runs of spaces, line feeds, tabs, carriage
    /// returns, text and comments, short and longer than 16 bytes.
    static func page(seed: UInt64, rows: Int) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        let gaps = ["\n", "\n  ", "\n      ", "\n" + String(repeating: " ", count: 40), "\n\n\n    ", String(repeating: "\n", count: 20),
                    "", " ", "\r\n  ", "\n\t", "\n  text é ", "\n<!-- note -->\n  ", "\n" + String(repeating: " ", count: 15) + "\n" + String(repeating: " ", count: 17),
                    "    \n    \n    \n    \n    \n", "\n  Zoë  \n"]
        var out = "<hierarchy rotation=\"0\">"
        for row in 0..<rows {
            out += gaps[Int(random.next() % UInt64(gaps.count))]
            out += "<node index=\"\(row)\" text=\"Item é \(row)\" bounds=\"[0,0][10,10]\">"
            out += gaps[Int(random.next() % UInt64(gaps.count))]
            out += "<node index=\"0\" text=\"\"/>"
            out += gaps[Int(random.next() % UInt64(gaps.count))]
            out += "</node>"
        }
        return Array((out + "\n</hierarchy>\n").utf8)
    }

    @Test("every element's line and column after indentation of every shape")
    func elementPlaces() throws {
        for seed in 1...20 as ClosedRange<UInt64> {
            try Self.expectPlaces(Self.page(seed: seed, rows: 80), "seed \(seed)")
        }
    }

    @Test("a refusal after indentation names its own line and column")
    func refusalsAfterIndentation() {
        let deep = String(repeating: " ", count: 37)
        let cases: [(String, String)] = [
            ("<a>\n\n\n" + deep + "<b>\n" + deep + "</c></a>", "t.xml:5:38: malformed XML: </c> does not match <b> (opened at line 4, column 38)"),
            ("<a/>\n" + deep + "\n" + deep + "x", "t.xml:3:38: malformed XML: content after the root element (a page source has one root)"),
            ("<a>" + String(repeating: "\n", count: 18) + deep + "\u{01}</a>", "t.xml:19:38: malformed XML: a character XML does not allow (U+0001)"),
            ("<a>\n" + deep + "é" + deep + "&bad;</a>", "t.xml:2:76: malformed XML: an entity that is not declared (&bad;): only &amp; &lt; &gt; &quot; &apos; and character references are known"),
            ("<a>\n" + deep + "]]>" + "</a>", "t.xml:2:38: malformed XML: \"]]>\" in text"),
            ("<a>\n" + deep + "\n" + deep, "t.xml:3:38: malformed XML: the file ends inside <a> (opened at line 1, column 1); is it truncated?"),
        ]
        for (xml, expected) in cases {
            #expect(XMLScannerTests.refusal(xml) == expected, "\(xml.debugDescription)")
        }
    }
}

/// `cbytescan_blanks16`, reached through the module that imports `CByteScan`.
func cbytescanBlanks(_ p: UnsafePointer<UInt8>) -> UInt32 { XMLScanner.blanks16(p) }
