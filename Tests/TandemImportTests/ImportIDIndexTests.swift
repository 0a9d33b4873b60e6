import Foundation
import Testing
import TandemModel
import TandemTestSupport
@testable import TandemImport

/// The import's shortcuts that must change nothing (Docs/import.md#speed): the screen's id index
/// made as the ids are made, ids made from a page's bytes, a taken base's next number kept
/// aside while it repeats, and plain digits read as one word.
@Suite("tandem import: the id index, ids from bytes and numbers from words, as the long way makes them")
struct ImportIDIndexTests {
    /// Every fixture, alone and all of a platform together: each screen is the one
    /// `Screen.init` makes from the same elements (its id index hashed again), and a
    /// screen's index holds its own elements' ids only.
    @Test("each imported screen equals the one Screen.init makes from its elements, alone and several at once")
    func screensAsInitMakesThem() throws {
        let folder = PackageRoot.url("Tests/Fixtures/import")
        for platform in [Platform.ios, .android] {
            var files: [PageSourceFile] = []
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(platform.rawValue).path).sorted()
            where name.hasSuffix(".xml") {
                let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(platform.rawValue).appendingPathComponent(name)))
                files.append(PageSourceFile(name: name, screenID: String(name.dropLast(4)), bytes: bytes))
            }
            #expect(files.count >= 4)
            // A file twice: the second screen's ids are all numbered (`row-2`…), its index its own.
            for set in files.map({ [$0] }) + [files, files + [files[0]]] {
                let imported = try PageSourceImporter(platform: platform).importCatalog(set)
                var seen = Set<String>()
                for screen in imported.catalog.screens {
                    let remade = Screen(id: screen.id, title: screen.title, focus: screen.focus, magicTap: screen.magicTap,
                                        escape: screen.escape, elements: screen.elements)
                    #expect(screen == remade, "\(platform) \(screen.id)")
                    #expect(screen.index.count == screen.elements.count)
                    for (i, e) in screen.elements.enumerated() {
                        #expect(screen.index[e.id] == i)
                        #expect(seen.insert(e.id).inserted, "\(e.id) is in two screens")
                    }
                }
            }
        }
    }

    @Test("a slug from bytes is the slug of the string; a taken base's numbers go on after other bases")
    func slugsAndNumbers() {
        let texts = ["Sign in", "ic_close_24", "", "---", "Row", "row 2", "A very long label that goes on past forty characters for sure",
                     String(repeating: "ab ", count: 30), "x1-Y2_z3", "Ação", "日本", "e\u{301}", "  padded  ", "ÀB"]
        for t in texts {
            var copy = t
            let fromBytes = copy.withUTF8 { IDMaker.slug(ascii: $0) }
            if t.utf8.allSatisfy({ $0 < 0x80 }) {
                #expect(fromBytes == IDMaker.slug(t), "\(t)")
            } else {
                #expect(fromBytes == nil, "\(t)")
            }
        }
        // Every ASCII byte alone and between letters: the table's answer is the rule's.
        for b in UInt8(0)..<0x80 {
            let s = "a" + String(UnicodeScalar(b)) + "b"
            let letterOrDigit = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
            let lower = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
            #expect(IDMaker.slug(s) == (letterOrDigit ? "a" + String(UnicodeScalar(lower)) + "b" : "a-b"), "byte \(b)")
        }
        var maker = IDMaker()
        let made = ["row", "row", "item", "row", "item", "Row", "row-2", "row", "item-2"].map { maker.make($0) }
        #expect(made == ["row", "row-2", "item", "row-3", "item-2", "row-4", "row-2-2", "row-5", "item-2-2"])
    }

    @Test("one to eight digits read as one word are the numbers Double(String) reads; anything else is no such number")
    func digitsAsAWord() {
        var rng = SplitMix64(seed: 23)
        let alphabet = Array("0123456789".utf8) + Array("0123456789-.e+ x/:".utf8) + [0x00, 0x7F, 0xC3, 0xFF]
        var cases: [[UInt8]] = ["0", "7", "00", "390", "844", "12345678", "99999999", "00000001", "10000000", "1.5", "-3", ""].map { Array($0.utf8) }
        for _ in 0..<20_000 {
            let count = Int(rng.next() % 8) + 1
            cases.append((0..<count).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
        }
        for bytes in cases where !bytes.isEmpty {
            // After the value, more page (the word is read 8 bytes at a time).
            let page = bytes + Array("\" y=\"12\"/>".utf8)
            let got = page.withUnsafeBufferPointer { IOSRules.digits($0.baseAddress!, count: bytes.count) }
            let allDigits = bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            let text = String(decoding: bytes, as: UTF8.self)
            if allDigits {
                #expect(got.map { Double($0) } == Double(text), "\(text)")
                #expect(got == UInt64(text), "\(text)")
            } else {
                #expect(got == nil, "\(bytes)")
            }
        }
    }
}
