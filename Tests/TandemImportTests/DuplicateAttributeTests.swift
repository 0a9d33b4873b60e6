import Testing
@testable import TandemImport

/// The scanner finds an attribute written twice by hashing names (`XMLScanner.nameHash`): a name
/// must hash the same wherever it is (in the middle of the file or in its last bytes, short or
/// longer than a word), and many names in one tag, some sharing bits, must all be told apart.
@Suite("XMLScanner: an attribute written twice, by hash")
struct DuplicateAttributeTests {
    static let names = (0..<150).map { "a\($0)" } + ["x", "content-desc", "resource-id", "long-clickable", "visible-to-user",
                                                     "placeholderValue", "a-very-long-attribute-name-indeed"]

    static func refusal(_ xml: String) -> String? {
        do {
            _ = try PageTree(Array(xml.utf8), file: "t.xml")
            return nil
        } catch {
            return error.message
        }
    }

    @Test("a tag of many distinct names is read; the same tag with any one name again is refused, naming it")
    func manyNames() {
        let distinct = Self.names.map { "\($0)=\"1\"" }.joined(separator: " ")
        #expect(Self.refusal("<r \(distinct)/>") == nil)
        for name in Self.names {
            // At the very end of the file (the last name's bytes are the file's last) and inside it.
            let atEnd = "<r \(distinct) \(name)=\"2\"/>"
            #expect(Self.refusal(atEnd) == "malformed XML: attribute \(name) is written twice in <r>", "\(name)")
            let inside = "<r \(name)=\"0\" \(distinct)/>\n<!-- \(String(repeating: "padding ", count: 4)) -->"
            #expect(Self.refusal(inside) == "malformed XML: attribute \(name) is written twice in <r>", "\(name)")
        }
    }

    @Test("a name at the file's end hashes as it does elsewhere: short and long names")
    func hashIsPlaceFree() {
        for name in Self.names {
            let middle = Array("<r \(name)=\"1\"/>         ".utf8)
            let end = Array("<r \(name)".utf8)
            let h1 = middle.withUnsafeBufferPointer { XMLScanner.nameHash($0, 3, 3 + name.utf8.count) }
            let h2 = end.withUnsafeBufferPointer { XMLScanner.nameHash($0, 3, 3 + name.utf8.count) }
            #expect(h1 == h2, "\(name)")
        }
    }
}
