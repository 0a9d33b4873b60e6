import Testing
@testable import TandemImport

/// Where each start tag begins: the line and column (in characters) of its "<".
@Suite("PageSourceReader: lines and columns")
struct PageSourceReaderTests {
    static func positions(_ xml: String) throws -> [String] {
        let root = try PageSourceReader.read(Array(xml.utf8), file: "t.xml")
        var out: [String] = []
        func walk(_ n: SourceNode) {
            out.append("\(n.tag) \(n.line):\(n.column)")
            n.children.forEach(walk)
        }
        walk(root)
        return out
    }

    @Test("a tag over several lines, and tags after characters of two and three bytes, are placed at their <")
    func multibyte() throws {
        let xml = "<a>\n  <b x=\"1\"\n     y=\"2\"/><é c=\"ü&amp;&#233;\"/><d/>\n  <e t=\"•••\"/><f/>\n</a>"
        #expect(try Self.positions(xml) == ["a 1:1", "b 2:3", "é 3:13", "d 3:34", "e 4:3", "f 4:15"])
    }

    @Test("an empty file, a file with no root and one that stops inside the root are malformed, at a place")
    func empty() throws {
        for xml in ["", "   ", "<?xml version=\"1.0\"?>", "<a"] {
            #expect(throws: ImportError.self) { try PageSourceReader.read(Array(xml.utf8), file: "t.xml") }
        }
        let e = try #require(throws: ImportError.self) { try PageSourceReader.read(Array("<a>\n<b>".utf8), file: "t.xml") }
        #expect(e.line == 2)
        #expect(e.message.contains("malformed XML"))
    }
}
