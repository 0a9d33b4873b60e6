import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TandemTestSupport
@testable import TandemImport

/// The page-source reader's own XML scanner (Docs/import.md#reader): what it refuses, where it
/// says so, and that what it reads is what an XML parser reads.
@Suite("XMLScanner: XML as page sources write it")
struct XMLScannerTests {
    static func refusal(_ xml: String) -> String {
        refusal(Array(xml.utf8))
    }

    static func refusal(_ bytes: [UInt8]) -> String {
        do {
            _ = try PageSourceReader.read(bytes, file: "t.xml")
            return "read"
        } catch {
            return error.description
        }
    }

    @Test("each malformed construct is refused at its line and column, saying what is wrong")
    func refusals() {
        let cases: [(String, String)] = [
            (#"<a x="1" x="2"/>"#, #"t.xml:1:10: malformed XML: attribute x is written twice in <a>"#),
            ("<a x=1/>", "t.xml:1:6: malformed XML: the value of attribute x has no quotes"),
            ("<a x/>", "t.xml:1:5: malformed XML: attribute x has no value (\"=\" expected)"),
            (#"<a x="1"y="2"/>"#, "t.xml:1:9: malformed XML: a space was expected between the attributes of <a>"),
            ("<a>\n  <b></a>", "t.xml:2:6: malformed XML: </a> does not match <b> (opened at line 2, column 3)"),
            ("<a>\u{1}</a>", "t.xml:1:4: malformed XML: a character XML does not allow (U+0001)"),
            ("<a/>\n<b/>", "t.xml:2:1: malformed XML: content after the root element (a page source has one root)"),
            ("<a/> x", "t.xml:1:6: malformed XML: content after the root element (a page source has one root)"),
            ("x<a/>", "t.xml:1:1: malformed XML: text before the root element"),
            (#" <?xml version="1.0"?><a/>"#, "t.xml:1:2: malformed XML: an XML declaration (<?xml …?>) that is not at the very start of the file"),
            (#"<a x="<"/>"#, #"t.xml:1:7: malformed XML: "<" in the value of attribute x (write &lt;)"#),
            ("<a>&#1;</a>", "t.xml:1:4: malformed XML: a character reference to a character XML does not allow"),
            ("<a>fish & chips</a>", "t.xml:1:9: malformed XML: \"&\" that starts no reference (write &amp;)"),
            ("<a><!-- a -- b --></a>", "t.xml:1:11: malformed XML: \"--\" inside a comment"),
            ("<a><!DOCTYPE a></a>", "t.xml:1:4: malformed XML: \"<!\" that starts no comment or CDATA section (a declaration is not allowed here)"),
            ("<a>]]></a>", "t.xml:1:4: malformed XML: \"]]>\" in text"),
            ("<a>\n<b x=\"1", "t.xml:2:8: malformed XML: the file ends inside the value of attribute x of <b> (opened at line 2, column 6); is it truncated?"),
            ("<a>\n<b", "t.xml:2:3: malformed XML: the file ends inside the start tag of <b> (at line 2, column 1); is it truncated?"),
            ("<a><!-- x", "t.xml:1:10: malformed XML: the file ends inside a comment in <a> (opened at line 1, column 1); is it truncated?"),
            ("<1a/>", "t.xml:1:2: malformed XML: an element name was expected"),
            ("", "t.xml:1:1: malformed XML: no root element (an empty file?)"),
        ]
        for (xml, expected) in cases {
            #expect(Self.refusal(xml) == expected, "\(xml)")
        }
        // Bytes that are not UTF-8 (a lone 0xFF; an overlong "/"), and UTF-16.
        #expect(Self.refusal(Array("<a x=\"é".utf8) + [0xFF, 0x22, 0x2F, 0x3E]) == "t.xml:1:8: malformed XML: bytes that are not UTF-8")
        #expect(Self.refusal([0x3C, 0x61, 0x3E, 0xC0, 0xAF, 0x3C, 0x2F, 0x61, 0x3E]) == "t.xml:1:4: malformed XML: bytes that are not UTF-8")
        #expect(Self.refusal([0xFF, 0xFE, 0x3C, 0x00]) == "t.xml:1:1: malformed XML: a UTF-16 file; page sources are UTF-8")
    }

    @Test("what XML allows is read: a BOM, the declaration, comments, processing instructions, CDATA, single quotes, spaces around =")
    func accepted() throws {
        let xml = "\u{FEFF}<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<!-- saved by a test run -->\n<?pi data?>\n"
            + "<a k = 'v &quot;q&quot;' ><![CDATA[ <not a tag> & ]]><b/>text &lt;&#x41;&#66;</a >\n<!-- end -->\n"
        let root = try PageSourceReader.read(Array(xml.utf8), file: "t.xml")
        #expect(root.tag == "a")
        #expect(root["k"] == "v \"q\"")
        #expect(root.line == 4 && root.column == 1)
        #expect(root.children.map(\.tag) == ["b"])
    }

    @Test("attribute values as XML reads them: references replaced, a tab or line break a space, CR LF one space")
    func valueNormalisation() throws {
        let xml = "<a t=\"one\ntwo\tthree\r\nfour\" r=\"line&#10;break &amp; more\" n=\"\" f=\"true\" g=\"tru&#101;\" h=\"1\" i=\"false\"/>"
        let root = try PageSourceReader.read(Array(xml.utf8), file: "t.xml")
        #expect(root["t"] == "one two three four")
        #expect(root["r"] == "line\nbreak & more")
        #expect(root["n"] == "")
        #expect(root["missing"] == nil)
        #expect(root.flag("f") == true && root.flag("g") == true && root.flag("h") == true && root.flag("i") == false && root.flag("missing") == nil)
        #expect(root.attributes == ["t": "one two three four", "r": "line\nbreak & more", "n": "", "f": "true", "g": "true", "h": "1", "i": "false"])
    }

    @Test("elements nested deeper than the reader's first room for open ones read to XMLParser's tree; a file that ends in them names the innermost")
    func deepNesting() throws {
        // 200 levels (the room for open elements starts at 64 and doubles), a sibling before
        // each deeper one, so every level counts its children.
        var xml = "<root>"
        for level in 0..<200 { xml += "<n\(level % 7) depth=\"\(level)\"><leaf k=\"\(level)\"/>" }
        for level in (0..<200).reversed() { xml += "<after k=\"\(level)\"/></n\(level % 7)>" }
        xml += "</root>"
        let data = Data(xml.utf8)
        let ours = try PageSourceReader.read(Array(data), file: "deep.xml")
        #expect(FoundationTree(ours) == FoundationTree.read(data))
        let tree = try PageTree(Array(data), file: "deep.xml")
        #expect(tree.count == 1 + 200 * 3)
        #expect(tree.end[0] == Int32(tree.count))
        // The innermost open element named where the file ends.
        let cut = "<root>" + (0..<150).map { "<n\($0 % 7) depth=\"\($0)\">" }.joined()
        #expect(Self.refusal(cut).hasSuffix("the file ends inside <n2> (opened at line 1, column \(7 + (0..<149).reduce(0) { $0 + "<n\($1 % 7) depth=\"\($1)\">".count } )); is it truncated?"))
    }

    @Test("every fixture reads to the tree Foundation's XMLParser reads: the same tags, attributes and nesting")
    func sameTreeAsXMLParser() throws {
        let folder = PackageRoot.url("Tests/Fixtures/import")
        var files: [URL] = []
        for platform in ["ios", "android"] {
            files += try FileManager.default.contentsOfDirectory(at: folder.appendingPathComponent(platform), includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "xml" }
        }
        files += [folder.appendingPathComponent("bad/bounds.xml"), folder.appendingPathComponent("bad/nothing-reachable.xml")]
        #expect(files.count >= 8)
        for url in files.sorted(by: { $0.path < $1.path }) {
            let data = try Data(contentsOf: url)
            let ours = try PageSourceReader.read(Array(data), file: url.lastPathComponent)
            let theirs = try #require(FoundationTree.read(data), "\(url.lastPathComponent)")
            #expect(FoundationTree(ours) == theirs, "\(url.lastPathComponent)")
        }
    }
}

/// A tree as Foundation's `XMLParser` reads it: tags, attributes and children, no places.
struct FoundationTree: Equatable {
    var tag: String
    var attributes: [String: String]
    var children: [FoundationTree] = []

    init(tag: String, attributes: [String: String]) { self.tag = tag; self.attributes = attributes }

    init(_ node: SourceNode) {
        self.init(tag: node.tag, attributes: node.attributes)
        children = node.children.map(FoundationTree.init)
    }

    static func read(_ data: Data) -> FoundationTree? {
        let parser = XMLParser(data: data)
        let builder = Builder()
        parser.delegate = builder
        guard parser.parse() else { return nil }
        return builder.root
    }

    final class Builder: NSObject, XMLParserDelegate {
        var stack: [FoundationTree] = []
        var root: FoundationTree?

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            stack.append(FoundationTree(tag: elementName, attributes: attributes))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            let done = stack.removeLast()
            if stack.isEmpty { root = done } else { stack[stack.count - 1].children.append(done) }
        }
    }
}
