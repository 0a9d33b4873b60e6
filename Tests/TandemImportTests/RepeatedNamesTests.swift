import Foundation
import Testing
import TandemTestSupport
@testable import TandemImport

/// What the import reads faster when a start tag repeats the names of the previous tag with the
/// same name (Docs/import.md#speed): the reader's run of such attributes, `PageTree.sameNames`,
/// the facts found by place instead of by name, bounds read as whole numbers, and the byte
/// helpers they use. Each must give what the general steps give.
@Suite("Repeated attribute names: read by place, the same as by name")
struct RepeatedNamesTests {
    /// UiAutomator2's shape: the same names node after node, with, at random places, a name
    /// changed, dropped, added or moved, values the run must leave to the general steps
    /// (references, tabs, line breaks, text over ASCII, single quotes, spaces around `=`, two
    /// spaces), long values and names, more than 64 attributes and more than 64 tag names.
    /// `plain`: every attribute `name="value"` in printable ASCII after one space, at most 64
    /// a tag (what the reader's run takes whole).
    static func page(seed: UInt64, rows: Int, android: Bool, plain: Bool = false) -> String {
        var random = SplitMix64(seed: seed)
        let androidNames = ["index", "class", "text", "resource-id", "content-desc", "checkable", "checked", "clickable", "focusable",
                            "package", "enabled", "scrollable", "long-clickable", "password", "selected", "displayed", "visible-to-user", "hint", "bounds"]
        let iosNames = ["type", "value", "name", "label", "placeholderValue", "enabled", "visible", "accessible", "selected", "x", "y", "width", "height"]
        let values = plain ? ["", "true", "false", "1", "Item", "Detail of an item that is long", "0", "[0,0][10,10]"]
            : ["", "true", "false", "1", "Item", "Detail of an item that is long", "a &amp; b", "tab\there", "Zoë", "x\ny", "0", "[0,0][10,10]"]
        let tags = android ? ["node", "android.widget.TextView", "android.widget.Switch"] : ["XCUIElementTypeStaticText", "XCUIElementTypeButton", "XCUIElementTypeCell"]
        var out = android ? "<hierarchy rotation=\"0\">\n" : "<AppiumAUT>\n"
        for row in 0..<rows {
            var names = android ? androidNames : iosNames
            switch random.next() % 12 {
            case 0: names.remove(at: Int(random.next() % UInt64(names.count)))
            case 1: names.insert("extra-name-\(random.next() % 3)", at: Int(random.next() % UInt64(names.count)))
            case 2: names[Int(random.next() % UInt64(names.count))] += "x"
            case 3: names.swapAt(Int(random.next() % UInt64(names.count)), Int(random.next() % UInt64(names.count)))
            case 4 where !plain: names += (0..<70).map { "wide\($0)" }
            default: break
            }
            let tag = random.next() % 10 == 0 ? "Tag\(random.next() % 80)" : tags[Int(random.next() % UInt64(tags.count))]
            out += "  <\(tag)"
            for name in names {
                var value = values[Int(random.next() % UInt64(values.count))]
                if name == "bounds" { value = "[0,\(row * 10)][1080,\(row * 10 + 10)]" }
                let form = plain ? 40 : random.next() % 40
                switch form {
                case 0: out += " \(name)='\(value)'"
                case 1: out += " \(name) = \"\(value)\""
                case 2: out += "  \(name)=\"\(value)\""
                case 3: out += "\n    \(name)=\"\(value)\""
                default: out += " \(name)=\"\(value)\""
                }
            }
            out += "/>\n"
        }
        return out + (android ? "</hierarchy>\n" : "</AppiumAUT>\n")
    }

    static func names(_ tree: PageTree, _ i: Int) -> [String] {
        tree.bytes.withUnsafeBufferPointer { d in
            tree.attributes[i].map { k in XMLScanner.string(d, Int(tree.spans[Int(k)].nameFrom), Int(tree.spans[Int(k)].nameTo)) }
        }
    }

    static func plainTrees() throws -> [PageTree] {
        try (1...6 as ClosedRange<UInt64>).flatMap { seed in
            try [true, false].map { try PageTree(Array(page(seed: seed, rows: 150, android: $0, plain: true).utf8), file: "plain.xml") }
        }
    }

    /// The generated pages and every fixture that reads.
    static func trees() throws -> [PageTree] {
        var trees = try plainTrees()
        for seed in 1...12 as ClosedRange<UInt64> {
            for android in [true, false] {
                trees.append(try PageTree(Array(page(seed: seed, rows: 150, android: android).utf8), file: "g.xml"))
            }
        }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
        for folder in try FileManager.default.contentsOfDirectory(atPath: fixtures.path) where folder.hasPrefix("import") {
            let files = FileManager.default.enumerator(atPath: fixtures.appendingPathComponent(folder).path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".xml") {
                let data = try Data(contentsOf: fixtures.appendingPathComponent(folder).appendingPathComponent(file))
                if let tree = try? PageTree(Array(data), file: file) { trees.append(tree) }
            }
        }
        return trees
    }

    @Test("an element has sameNames only when its names are those of the previous element of its slot, in order")
    func sameNamesIsTrue() throws {
        for tree in try Self.trees() {
            var last: [Int: [String]] = [:]
            for i in 0..<tree.count {
                let names = Self.names(tree, i)
                let slot = tree.slot(i)
                if tree.sameNames[i] {
                    #expect(last[slot] == names, "\(tree.file) element \(i): \(names) after \(last[slot] ?? [])")
                }
                last[slot] = names
            }
        }
        // Where every attribute is plain, it is said whenever it holds (the reader's run takes
        // the whole tag), and a page of rows has many.
        var said = 0
        for tree in try Self.plainTrees() {
            var last: [Int: [String]] = [:]
            for i in 0..<tree.count {
                let names = Self.names(tree, i)
                let slot = tree.slot(i)
                #expect(tree.sameNames[i] == (last[slot] == names), "\(tree.file) element \(i)")
                if tree.sameNames[i] { said += 1 }
                last[slot] = names
            }
        }
        #expect(said > 500)
    }

    @Test("the facts found by place are the facts found by name, on every element")
    func factsByPlace() throws {
        for tree in try Self.trees() {
            let android = AndroidFacts.all(tree)
            let ios = IOSFacts.all(tree)
            tree.bytes.withUnsafeBufferPointer { d in
                for i in 0..<tree.count {
                    #expect(android[i] == AndroidFacts(tree, i, d), "\(tree.file) element \(i)")
                    #expect(ios[i] == IOSFacts(tree, i, d), "\(tree.file) element \(i)")
                }
            }
        }
    }

    @Test("an attribute the reader copied is, name and value, the one its template had at its place")
    func copiedTextsAreTheTemplates() throws {
        var copied = 0
        for tree in try Self.trees() {
            tree.bytes.withUnsafeBufferPointer { d in
                func text(_ s: AttributeSpan) -> [String] {
                    [XMLScanner.string(d, Int(s.nameFrom), Int(s.nameTo)), XMLScanner.string(d, Int(s.valueFrom), Int(s.valueTo)), "\(s.raw)"]
                }
                for i in 0..<tree.count {
                    guard tree.copied[i] != 0 else { #expect(tree.template[i] == -1, "\(tree.file) element \(i)"); continue }
                    // -1: copied from more than one element (the rules take nothing from those).
                    let t = Int(tree.template[i])
                    guard t >= 0 else { continue }
                    guard t < i else { Issue.record("\(tree.file) element \(i): copied from \(t)"); continue }
                    let mine = Array(tree.attributes[i]), theirs = Array(tree.attributes[t])
                    for k in 0..<64 where tree.copied[i] >> UInt64(k) & 1 != 0 {
                        guard k < mine.count, k < theirs.count else { Issue.record("\(tree.file) element \(i): place \(k) copied"); continue }
                        #expect(text(tree.spans[Int(mine[k])]) == text(tree.spans[Int(theirs[k])]), "\(tree.file) element \(i) place \(k)")
                        copied += 1
                    }
                }
            }
        }
        #expect(copied > 2_000)
    }

    @Test("a row repeating an older row's texts after one that differs is copied from the older row")
    func copiedFromAnOlderRow() throws {
        // Row 1 differs in its class and checked, each after a text that stays (so each is
        // found differing inside a run, and row 2's run goes on over it).
        func row(_ n: Int, _ className: String, _ checked: Bool) -> String {
            "<node package=\"p\" class=\"\(className)\" text=\"Row \(n)\" checkable=\"true\" checked=\"\(checked)\" clickable=\"true\" bounds=\"[0,\(n)][9,\(n + 9)]\"/>"
        }
        let xml = "<hierarchy>" + row(0, "android.widget.Switch", false) + row(1, "android.widget.RadioButton", true) + row(2, "android.widget.Switch", false) + "</hierarchy>"
        let tree = try PageTree(Array(xml.utf8), file: "rows.xml")
        #expect(tree.template[3] == 1)
        // package, class; checkable, checked, clickable (text and bounds differ).
        #expect(tree.copied[3] == 0b11_1011)
        #expect(tree.template[2] == 1 && tree.copied[2] & 0b10010 == 0)
    }

    @Test("Android places kept in the struct: a flag past the 255th attribute sends the nodes after it to reading by name")
    func androidPlacesPastAByte() throws {
        // Flags before and after the 256th attribute, with values that differ between the nodes.
        func node(_ on: Bool) -> String {
            "<node checkable=\"\(on)\"" + (0..<300).map { " a\($0)=\"x\"" }.joined() + " clickable=\"\(!on)\" bounds=\"[0,0][1,1]\"/>"
        }
        let tree = try PageTree(Array(("<hierarchy>" + node(true) + node(false) + "</hierarchy>").utf8), file: "w.xml")
        tree.bytes.withUnsafeBufferPointer { d in
            var places = AndroidFacts.unplaced
            let first = AndroidFacts(tree, 1, d, places: &places)
            #expect(places.byName)
            #expect(first == AndroidFacts(tree, 1, d))
            let second = AndroidFacts(tree, 2, d, places: places)
            #expect(second == AndroidFacts(tree, 2, d))
            #expect(second.isOn(.clickable) && !second.isOn(.checkable))
        }
        // Under 256, the places are kept and give the flags by name.
        let small = try PageTree(Array("<hierarchy><node checkable=\"true\" clickable=\"false\"/><node checkable=\"false\" clickable=\"true\"/></hierarchy>".utf8), file: "s.xml")
        small.bytes.withUnsafeBufferPointer { d in
            var places = AndroidFacts.unplaced
            _ = AndroidFacts(small, 1, d, places: &places)
            #expect(!places.byName)
            #expect(AndroidFacts(small, 2, d, places: places) == AndroidFacts(small, 2, d))
        }
    }

    @Test("Android facts whose flags the reader copied are the facts read by name, on every element")
    func androidFactsFromTemplates() throws {
        // Rows as UiAutomator writes a list's, each with one of two classes and one of three
        // sets of flags, at random: many repeat the first row's flags, with others between.
        var random = SplitMix64(seed: 7)
        var rows = "<hierarchy>"
        for n in 0..<300 {
            let on = [[false, true, true], [true, true, false], [false, false, true]][Int(random.next() % 3)]
            rows += "<node index=\"\(n)\" class=\"android.widget.\(random.next() % 2 == 0 ? "Switch" : "TextView")\" text=\"Row \(n)\" checkable=\"false\""
                + " checked=\"\(on[0])\" clickable=\"\(on[1])\" focusable=\"true\" enabled=\"\(on[2])\" bounds=\"[0,\(n)][9,\(n + 9)]\"/>"
        }
        let trees = try Self.trees() + [PageTree(Array((rows + "</hierarchy>").utf8), file: "rows.xml")]
        var taken = 0
        for tree in trees {
            let n = tree.count
            let facts = UnsafeMutableBufferPointer<AndroidFacts>.allocate(capacity: max(n, 1))
            defer { facts.deallocate() }
            var places = [AndroidFacts.Places](repeating: AndroidFacts.unplaced, count: SpanTable.slots)
            tree.bytes.withUnsafeBufferPointer { d in
                places.withUnsafeMutableBufferPointer { places in
                    for i in 0..<n {
                        let p = places[tree.slot(i)]
                        if tree.sameNames[i], tree.template[i] >= 0, !p.byName, !p.flagsPast64, p.present != 0, p.flagPlaces & ~tree.copied[i] == 0 { taken += 1 }
                        let f = AndroidFacts.at(i, tree, d, places.baseAddress!, copiedFrom: facts)
                        facts.initializeElement(at: i, to: f)
                        #expect(f == AndroidFacts(tree, i, d), "\(tree.file) element \(i)")
                    }
                }
            }
        }
        #expect(taken > 150)
    }

    @Test("generated pages of repeated names read to XMLParser's tree, and refusals in the run name their place")
    func sameTreeAsXMLParser() throws {
        for seed in 1...6 as ClosedRange<UInt64> {
            for android in [true, false] {
                let data = Array(Self.page(seed: seed, rows: 60, android: android).utf8)
                let root = try PageSourceReader.read(data, file: "g.xml")
                let theirs = try #require(FoundationTree.read(Data(data)))
                #expect(FoundationTree(root) == theirs, "seed \(seed)")
                // The table the rules read has the same values.
                let tree = try PageTree(data, file: "g.xml")
                for i in 1..<tree.count {
                    let names = Self.names(tree, i)
                    for (k, span) in tree.attributes[i].enumerated() {
                        #expect(tree.string(Int(span)) == root.children[i - 1][names[k]], "seed \(seed) element \(i) \(names[k])")
                    }
                }
            }
        }
        let row = "<n a=\"1\" bb=\"22\" ccc=\"long value over sixteen bytes\"/>\n"
        let cases: [(String, String)] = [
            ("<r>\n" + row + "<n a=\"1\" bb=\"2<\" ccc=\"3\"/>\n</r>\n", "t.xml:3:15: malformed XML: \"<\" in the value of attribute bb (write &lt;)"),
            ("<r>\n" + row + "<n a=\"1\" bb=\"2\" a=\"3\"/>\n</r>\n", "t.xml:3:17: malformed XML: attribute a is written twice in <n>"),
            ("<r>\n" + row + "<n a=\"1\" bb=\"2\" ccc=\"é\" bb=\"3\"/>\n</r>\n", "t.xml:3:25: malformed XML: attribute bb is written twice in <n>"),
            ("<r>\n" + row + "<n a=\"1\" bb=\"\u{01}\"/>\n</r>\n", "t.xml:3:14: malformed XML: a character XML does not allow (U+0001)"),
            ("<r>\n" + row + "<n a=\"1\" bb=\"22\" ccc=\"long value over sixteen", "t.xml:3:46: malformed XML: the file ends inside the value of attribute ccc of <n> (opened at line 3, column 22); is it truncated?"),
        ]
        for (xml, expected) in cases {
            #expect(XMLScannerTests.refusal(xml) == expected, "\(xml)")
        }
    }

    @Test("runs of repeated attribute texts: every value, and every element's line and column, as counted from its `<`")
    func runsKeepValuesAndPlaces() throws {
        // The remembered tag's texts one space apart, then the same texts with a line break, a
        // tab or two spaces between two of them, a value changed in the middle, an attribute
        // dropped: each run must stop where the bytes or the spacing stop being the same.
        let first = "<n a=\"1\" bb=\"22\" ccc=\"long value over sixteen bytes\" d=\"x\" e=\"false\"/>\n"
        let rows = [first, first,
                    "<n a=\"1\" bb=\"22\"\n ccc=\"long value over sixteen bytes\" d=\"x\" e=\"false\"/>\n",
                    "<n a=\"1\" bb=\"22\"\tccc=\"long value over sixteen bytes\" d=\"x\" e=\"false\"/>\n",
                    "<n a=\"1\" bb=\"22\"  ccc=\"long value over sixteen bytes\" d=\"x\" e=\"false\"/>\n",
                    "<n a=\"1\" bb=\"23\" ccc=\"long value over sixteen bytes\" d=\"x\" e=\"false\"/>\n",
                    "<n a=\"1\" bb=\"22\" ccc=\"long value over sixteen bytes\" d=\"x\" e=\"false\"/>\n",
                    "<n a=\"1\" bb=\"22\" d=\"x\" e=\"false\"/>\n", first, "<n a=\"1\" bb=\"22\" ccc=\"long value over sixteen bytes\" d=\"x\" e=\"false\">", "</n>\n", first,
                    // A tag whose remembered texts have a line break or a tab as the one byte between two.
                    "<m a=\"1\" bb=\"22\"\nccc=\"3\" d=\"x\"/>\n", "<m a=\"1\" bb=\"22\"\nccc=\"3\" d=\"x\"/><m a=\"1\" bb=\"22\"\nccc=\"3\" d=\"x\"/>\n",
                    "<o a=\"1\"\tbb=\"22\" ccc=\"3\"/>\n", "<o a=\"1\"\tbb=\"22\" ccc=\"3\"/>\n", "<o a=\"1\" bb=\"22\" ccc=\"3\"/>\n"]
        var pages = ["<r>\n" + rows.joined() + "</r>\n"]
        for seed in 1...40 as ClosedRange<UInt64> {
            pages.append(Self.page(seed: seed, rows: 40, android: seed % 2 == 0))
            pages.append(Self.page(seed: seed, rows: 40, android: seed % 2 == 1, plain: true))
        }
        for page in pages {
            let data = Array(page.utf8)
            let root = try PageSourceReader.read(data, file: "g.xml")
            let theirs = try #require(FoundationTree.read(Data(data)))
            #expect(FoundationTree(root) == theirs, "\(page.prefix(80))")
            let tree = try PageTree(data, file: "g.xml")
            var all: [SourceNode] = []
            func flatten(_ n: SourceNode) { all.append(n); n.children.forEach(flatten) }
            flatten(root)
            #expect(all.count == tree.count)
            for i in 0..<min(all.count, tree.count) {
                let names = Self.names(tree, i)
                for (k, span) in tree.attributes[i].enumerated() {
                    #expect(tree.string(Int(span)) == all[i][names[k]], "element \(i) \(names[k])")
                }
            }
            // Each start tag's place counted here from the text: its line, and its column in
            // characters from the line's start (these pages have no comment or CDATA).
            var places: [(Int, Int)] = []
            var line = 1, column = 1
            let scalars = Array(page.unicodeScalars)
            for (k, c) in scalars.enumerated() {
                if c == "<", k + 1 < scalars.count, scalars[k + 1] != "/", scalars[k + 1] != "?" { places.append((line, column)) }
                if c == "\n" { line += 1; column = 1 } else { column += 1 }
            }
            #expect(places.count == tree.count)
            for i in 0..<min(places.count, tree.count) {
                #expect(tree.location(i).line == places[i].0 && tree.location(i).column == places[i].1, "element \(i)")
            }
        }
    }

    @Test("rows written byte for byte alike: each run's compare stops within its window, not at the page's end")
    func identicalRowsCompareWithinTheWindow() throws {
        // Every row the same bytes: past a tag's last attribute the page goes on alike to its
        // end, which a compare without a bound would read for every tag.
        let row = "  <node index=\"0\" class=\"android.widget.TextView\" text=\"Item\" checkable=\"false\" checked=\"false\" bounds=\"[0,0][10,10]\"/>\n"
        for rows in [10, 1_000, 4_000] {
            let data = Array(("<hierarchy>\n" + String(repeating: row, count: rows) + "</hierarchy>\n").utf8)
            var scanner = XMLScanner(file: "same.xml")
            try data.withUnsafeBufferPointer { (d) throws(ImportError) in try scanner.scan(d) }
            #expect(scanner.count == rows + 1)
            // One run a row after the first (its whole tag), each compare at most the window.
            #expect(scanner.runBytesCompared <= (rows - 1) * XMLScanner.runWindow, "\(rows) rows")
            #expect(scanner.runBytesCompared >= (rows - 1) * (row.utf8.count - 12), "\(rows) rows: the runs were taken")
        }
    }

    @Test("bounds written as whole numbers read as the general reader reads them")
    func wholeBounds() {
        let cases = ["[0,0][1080,2400]", "[-3,5][40,-9]", "[-0,0][4,4]", "[007,8][9,10]", "[123456789012345,1][2,3]",
                     "[1234567890123456,1][2,3]", "[1,2][3]", "[1,2][3,4", "[1,2][3,4]x", "[--1,2][3,4]", "[1.5,2][3,4]",
                     "[ 1,2][3,4]", "[1,2] [3,4]", "[,2][3,4]", "[1,2][3,-]", "[1,2][3,4][5,6]", "[a,2][3,4]", ""]
        for text in cases {
            var s = text
            let whole = s.withUTF8 { AndroidRules.wholePixels($0) }
            let any = s.withUTF8 { AndroidRules.anyPixels($0) }
            if let whole {
                #expect(any.map { [$0.0, $0.1, $0.2, $0.3] } == [whole.0, whole.1, whole.2, whole.3], "\(text)")
                #expect(any.map { [$0.0.sign, $0.1.sign, $0.2.sign, $0.3.sign] } == [whole.0.sign, whole.1.sign, whole.2.sign, whole.3.sign], "\(text)")
            }
            let all = s.withUTF8 { AndroidRules.pixels(bytes: $0) }
            #expect(all.map { [$0.0, $0.1, $0.2, $0.3] } == any.map { [$0.0, $0.1, $0.2, $0.3] }, "\(text)")
        }
        // Whole numbers are read by the fast path (not left to the general one).
        var s = "[0,180][1080,360]"
        #expect(s.withUTF8 { AndroidRules.wholePixels($0) } != nil)
        // In a page, with bytes after the value that the words read: each number read as one
        // word (`wordPixels`, seven digits at most) gives what the general reader gives, and
        // what follows the value changes nothing.
        var random = SplitMix64(seed: 11)
        var texts = cases + ["[1,2][3,4]", "[1234567,7654321][1,12345678]", "[12345678,1][2,3]", "[1,2],3,4]", "[1,2][3,4]]", "[1,2][[3,4]",
                             "[1]2][3,4]", "[1,2,[3,4]", "[1,2][3]4]", "[1,2]]3,4]", "[1,2][3,,4]"]
        for _ in 0..<2_000 {
            let digits = (0..<4).map { _ in String(random.next() % [10, 1_000, 10_000_000, 100_000_000][Int(random.next() % 4)]) }
            texts.append("[\(digits[0]),\(digits[1])][\(digits[2]),\(digits[3])]")
        }
        // And bytes of the form's alphabet at random, the separators anywhere.
        let alphabet = Array("[],0123456789-")
        for _ in 0..<20_000 {
            let middle = (0..<(8 + Int(random.next() % 12))).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            texts.append("[" + String(middle) + "]")
        }
        var read = 0
        for text in texts {
            for after in ["\"", "]]]]]]]]", "12345678", ",,,,,,,,", "[[[[[[[[", "\" bounds=\"[1,2][3,4]\""] {
                let page = Array((text + after).utf8)
                page.withUnsafeBufferPointer { d in
                    let b = UnsafeBufferPointer(rebasing: d[0..<text.utf8.count])
                    let any = AndroidRules.anyPixels(b).map { [$0.0, $0.1, $0.2, $0.3] }
                    let whole = AndroidRules.wholePixels(b, readable: d.count).map { [$0.0, $0.1, $0.2, $0.3] }
                    if whole != nil { #expect(whole == any, "\(text) then \(after)") }
                    if b.count >= 10, b.first == UInt8(ascii: "["), b.last == UInt8(ascii: "]"), d.count >= b.count + 7,
                       let words = AndroidRules.wordPixels(b.baseAddress!, b.count) {
                        #expect([words.0, words.1, words.2, words.3] == any, "\(text) then \(after)")
                        read += 1
                    }
                }
            }
        }
        #expect(read > 3_000)
    }

    @Test("pixels to points through the table of values met: what rounding each again gives, bit for bit")
    func pointsOfPixels() {
        var random = SplitMix64(seed: 5)
        var values: [Double] = [0, -0.0, 1, 48, 700, 1080, 2400, .nan, .infinity, -.infinity, 1e300, 0.5, 1.005, -3, 4_503_599_627_370_496]
        for _ in 0..<20_000 {
            switch random.next() % 4 {
            case 0: values.append(Double(random.next() % 300))                      // met again and again
            case 1: values.append(Double(random.next() % 1_000_000))                // mostly once
            case 2: values.append(Double(Int64(random.next() % 20_000) - 10_000) / 8)
            default: values.append(values[Int(random.next() % UInt64(values.count))])
            }
        }
        for density in [1, 2.625, 3, 0.75, 3.5] {
            let points = AndroidRules.Points(density: density)
            defer { points.free() }
            for v in values {
                #expect(points.of(v).bitPattern == AndroidRules.round(v / density).bitPattern, "\(v) at \(density)")
            }
        }
    }

    @Test("a resource id's name and whether it is ASCII, eight bytes a step: what the byte-by-byte steps find")
    func resourceNames() {
        var random = SplitMix64(seed: 9)
        // Pieces that make ":id/" whole, in halves and near misses, and bytes over ASCII.
        let pieces: [[UInt8]] = [":id/", ":i", "d/", ":", "id", "/", "com.example", "x", ":ID/", "é"].map { Array($0.utf8) } + [[0x80]]
        var cases: [[UInt8]] = ["com.example:id/save", ":id/", ":id", "x:id/", "a:i:id/b", ":id/:id/x", "android:id/title", "", "é:id/x", "::::id/"].map { Array($0.utf8) }
        for _ in 0..<20_000 {
            cases.append((0..<Int(random.next() % 9)).flatMap { _ in pieces[Int(random.next() % UInt64(pieces.count))] })
        }
        var found = 0
        for value in cases {
            for after in [[], Array(":id/xx".utf8), [UInt8](repeating: 0x80, count: 9)] {
                let page = value + after
                page.withUnsafeBufferPointer { d in
                    let u = UnsafeBufferPointer(rebasing: d[0..<value.count])
                    let fast = AndroidRules.resourceName(u, readable: d.count)
                    let slow = (AndroidRules.nameStart(u), !u.contains(where: { $0 >= 0x80 }))
                    #expect(fast.start == slow.0 && fast.ascii == slow.1, "\(value) then \(after)")
                    if slow.0 > 0 { found += 1 }
                }
            }
        }
        #expect(found > 1_000)
    }

    @Test("the byte helpers: every byte at every place, against their definitions")
    func byteHelpers() {
        var block = [UInt8](repeating: UInt8(ascii: "a"), count: 16)
        for place in 0..<16 {
            for b in 0...255 {
                block[place] = UInt8(b)
                let r = block.withUnsafeBufferPointer { XMLScanner.valueStopsAndQuotes($0.baseAddress!) }
                let stop = b < 0x20 || b >= 0x80 || b == 0x22 || b == 0x3C || b == 0x26
                #expect(r & 0xFFFF == (stop ? 1 << place : 0), "byte \(b) at \(place)")
                #expect(r >> 16 == (b == 0x22 ? 1 << place : 0), "byte \(b) at \(place)")
            }
            block[place] = UInt8(ascii: "a")
        }
        let a = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) }
        for count in 1...16 {
            a.withUnsafeBufferPointer { p in #expect(XMLScanner.same16(p.baseAddress!, p.baseAddress!, count)) }
            for place in 0..<16 {
                var b = a
                b[place] ^= 0x40
                let same = a.withUnsafeBufferPointer { p in b.withUnsafeBufferPointer { q in XMLScanner.same16(p.baseAddress!, q.baseAddress!, count) } }
                #expect(same == (place >= count), "a difference at \(place) of \(count)")
            }
        }
    }
}
