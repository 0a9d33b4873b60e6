import Foundation
import Testing
@testable import TandemImport

/// The reader's two shortcuts (Docs/import.md#speed): an attribute written `name="value"` in
/// printable ASCII is read in one pass, and one whose text repeats the previous start tag's
/// attribute at the same place is taken as read. Both must read what the general steps read
/// (the same tree as Foundation's `XMLParser`, the same places) and refuse what they refuse.
@Suite("XMLScanner: the shortcuts read what the general steps read")
struct ReaderShortcutTests {
    /// Rows whose attributes repeat from tag to tag, with, among them, values the shortcuts must
    /// leave to the general steps: a reference, a tab, a line break, text over ASCII, single
    /// quotes, spaces around `=`.
    static let page = """
        <?xml version="1.0" encoding="UTF-8"?>
        <hierarchy rotation="0">
          <node a="x" b="" c="false" d="Zoë"/>
          <node a="x" b="" c="false" d="Zoë"/>
          <node a="x" b="a &amp; b" c='false' d="Zoë"/>
          <node a="x" b="a &amp; b" c = "false" d="tab\there"/>
          <node a="x" b="a &amp; b" c="false" d="tab\there"/><node a="x" b="line
        break" c="false" d="é"/>
          <node a="x" b="line
        break" c="false" d="é" e="1"/>
          <node a="x" c="false" b="" d="é" e="1"/>
        </hierarchy>

        """

    @Test("a page of repeated attributes reads to XMLParser's tree, each element at its place")
    func sameTree() throws {
        let data = Array(Self.page.utf8)
        let root = try PageSourceReader.read(data, file: "t.xml")
        let theirs = try #require(FoundationTree.read(Data(data)))
        #expect(FoundationTree(root) == theirs)
        #expect(root.children.map(\.line) == [3, 4, 5, 6, 7, 7, 9, 11])
        #expect(root.children.map(\.column) == [3, 3, 3, 3, 3, 53, 3, 3])
        #expect(root.children[2]["b"] == "a & b")
        #expect(root.children[3]["d"] == "tab here")
        #expect(root.children[5]["b"] == "line break")
        #expect(root.children[7]["b"] == "" && root.children[7]["c"] == "false")
        // The flat table the rules read has the same values at the same spans.
        let tree = try PageTree(data, file: "t.xml")
        #expect(tree.count == 9)
        for i in 1..<tree.count {
            let node = root.children[i - 1]
            for k in tree.attributes[i] {
                let s = tree.spans[Int(k)]
                let name = tree.bytes.withUnsafeBufferPointer { XMLScanner.string($0, Int(s.nameFrom), Int(s.nameTo)) }
                #expect(tree.string(Int(k)) == node[name], "element \(i) attribute \(name)")
            }
        }
    }

    @Test("an attribute written twice is refused whichever way each was read")
    func repeatedNames() {
        let cases: [(String, String)] = [
            // The second y repeats the previous tag's y at the same place (taken as read).
            ("<r><a x=\"1\" y=\"2\"/><b y=\"9\" y=\"2\"/></r>", "t.xml:1:29: malformed XML: attribute y is written twice in <b>"),
            // The repeated one is read by the one pass, the first by the shortcut.
            ("<r><a x=\"1\" y=\"2\"/><b x=\"1\" x=\"3\"/></r>", "t.xml:1:29: malformed XML: attribute x is written twice in <b>"),
            // Both by the general steps (single quotes).
            ("<r><a x='1' x='1'/></r>", "t.xml:1:13: malformed XML: attribute x is written twice in <a>"),
            // A shortcut attribute, then a general one.
            ("<r><a x=\"1\" x = \"1\"/></r>", "t.xml:1:13: malformed XML: attribute x is written twice in <a>"),
        ]
        for (xml, expected) in cases {
            #expect(XMLScannerTests.refusal(xml) == expected, "\(xml)")
        }
    }

    @Test("after attributes taken as read, a refusal still names its own line and column")
    func placesAfterShortcuts() {
        let xml = "<r>\n  <a k=\"é\" v=\"1\"/>\n  <a k=\"é\" v=\"1\" w=\"<\"/>\n</r>"
        #expect(XMLScannerTests.refusal(xml) == "t.xml:3:21: malformed XML: \"<\" in the value of attribute w (write &lt;)")
        let truncated = "<r>\n  <a k=\"v\" z=\"1\"/>\n  <a k=\"v\" z=\"1"
        #expect(XMLScannerTests.refusal(truncated) == "t.xml:3:16: malformed XML: the file ends inside the value of attribute z of <a> (opened at line 3, column 14); is it truncated?")
    }
}
