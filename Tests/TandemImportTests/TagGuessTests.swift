import Foundation
import Testing
import TandemTestSupport
@testable import TandemImport

/// The reader guesses a start tag's name from the tag last met at the same child position under
/// a parent of the same tag (`SpanTable.guesses`, Docs/import.md#speed), and takes it when the
/// same bytes are there and end where a name ends. A name that only begins with the guessed one,
/// or goes on past ASCII, must still be read whole, and places and refusals must not move.
@Suite("Tag names guessed by their place: read as scanned, places and refusals unchanged")
struct TagGuessTests {
    /// Rows whose children repeat a shape, then a child whose name begins with the guessed name.
    static func rows(_ odd: String, after: String = " a=\"1\"/>") -> String {
        var out = "<hierarchy>\n"
        for _ in 0..<3 { out += "  <row>\n    <node a=\"1\"/>\n    <text a=\"2\"/>\n  </row>\n" }
        out += "  <row>\n    <" + odd + after + "\n    <text a=\"2\"/>\n  </row>\n"
        return out + "</hierarchy>\n"
    }

    @Test("a name that begins with the guessed one, or goes on past ASCII, is read whole")
    func longerNames() throws {
        for odd in ["nodeX", "node-1", "node.x", "node:y", "node_", "node9", "nodé", "node\u{E9}x", "nod", "no", "text", "row"] {
            let data = Array(Self.rows(odd).utf8)
            let tree = try PageTree(data, file: "g.xml")
            // The odd child is the 12th element: the root, three rows of three, the fourth row, it.
            #expect(tree.tag(11) == odd, "\(odd)")
            let root = try PageSourceReader.read(data, file: "g.xml")
            #expect(FoundationTree(root) == FoundationTree.read(Data(data)), "\(odd)")
        }
        // The guessed name and what may end it: a space, a tab, a line break, "/", ">".
        for after in [" a=\"1\"/>", "\ta=\"1\"/>", "\na=\"1\"/>", "/>", "></node>", "\r\n/>"] {
            let tree = try PageTree(Array(Self.rows("node", after: after).utf8), file: "g.xml")
            #expect(tree.tag(11) == "node", "\(after.debugDescription)")
        }
    }

    @Test("places after a guessed name, and after a name over ASCII at a guessed place, as counted")
    func places() throws {
        // Every element's line and column against a count character by character, on pages whose
        // rows repeat their shapes with names over ASCII among them.
        var random = SplitMix64(seed: 2812)
        for _ in 0..<20 {
            var out = "<hierarchy>\n"
            let names = ["node", "nodé", "node", "nœud", "x", "node"]
            for _ in 0..<40 {
                out += "  <row>"
                for _ in 0..<Int(random.next() % 4) {
                    out += "\n    <" + names[Int(random.next() % UInt64(names.count))] + " a=\"é\"/>"
                }
                out += "</row>\n"
            }
            try IndentationTests.expectPlaces(Array((out + "</hierarchy>\n").utf8), "a guessed page")
        }
    }

    @Test("end tags: the open element's name and \">\" taken at once; names over ASCII, spaces before \">\" and other names read as before")
    func endTags() throws {
        // Places counted character by character after end tags of every kind.
        var random = SplitMix64(seed: 37)
        let names = ["node", "nodé", "nœud", "x", "android.widget.LinearLayout"]
        for _ in 0..<20 {
            var out = "<hierarchy>\n"
            for _ in 0..<30 {
                let name = names[Int(random.next() % UInt64(names.count))]
                let close = ["</\(name)>", "</\(name) >", "</\(name)\n>"][Int(random.next() % 3)]
                out += "  <\(name) a=\"é\">\n    <x b=\"1\"/>" + close + "<y c=\"ü\"/>\n"
            }
            try IndentationTests.expectPlaces(Array((out + "</hierarchy>\n").utf8), "end tags")
        }
        // A name that only begins or ends like the open one, one over ASCII, the end cut off.
        let cases: [(String, String)] = [
            ("<h><node a=\"1\"></nodeX></h>", "t.xml:1:16: malformed XML: </nodeX> does not match <node> (opened at line 1, column 4)"),
            ("<h><nodeX a=\"1\"></node></h>", "t.xml:1:17: malformed XML: </node> does not match <nodeX> (opened at line 1, column 4)"),
            ("<h><node a=\"1\"></nod></h>", "t.xml:1:16: malformed XML: </nod> does not match <node> (opened at line 1, column 4)"),
            ("<h><nodé a=\"1\"></node></h>", "t.xml:1:16: malformed XML: </node> does not match <nodé> (opened at line 1, column 4)"),
            ("<h><node a=\"1\"></node x></h>", "t.xml:1:23: malformed XML: \">\" was expected to end </node>"),
            ("<h><node a=\"1\"></node", "t.xml:1:22: malformed XML: the file ends inside the end tag </node> in <node> (opened at line 1, column 4); is it truncated?"),
        ]
        for (xml, expected) in cases {
            #expect(XMLScannerTests.refusal(xml) == expected, "\(xml)")
        }
    }

    @Test("refusals after a guessed name name their own place")
    func refusals() {
        let row = "<r><nodé a=\"1\"/><node b=\"2\"/></r>"
        let cases: [(String, String)] = [
            ("<h>" + row + "<r><nodé a=\"1\"/><nodeX a=\"1\"></node></r></h>", "t.xml:1:66: malformed XML: </node> does not match <nodeX> (opened at line 1, column 53)"),
            ("<h>" + row + "<r><nodé a=\"&bad;\"/></r></h>", "t.xml:1:49: malformed XML: an entity that is not declared (&bad;): only &amp; &lt; &gt; &quot; &apos; and character references are known"),
            ("<h>" + row + "<r><nodé a=\"1\"/><node b=\"2\" b=\"3\"/></r></h>", "t.xml:1:65: malformed XML: attribute b is written twice in <node>"),
            ("<h>" + row + "<r><nodé a=\"1\"/><node", "t.xml:1:58: malformed XML: the file ends inside the start tag of <node> (at line 1, column 53); is it truncated?"),
        ]
        for (xml, expected) in cases {
            #expect(XMLScannerTests.refusal(xml) == expected, "\(xml)")
        }
    }
}
