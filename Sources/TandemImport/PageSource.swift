
/// One XML element of a page source, as written: its tag, its attributes, where its start tag
/// begins (1-based line and column, the column counted in characters) and its children.
///
/// The attributes stay where they are in the file until a rule reads one (`node["label"]`,
/// `node.flag("enabled")`): a page source has 15 to 20 a node, and the rules read a few.
public struct SourceNode: Sendable, Hashable {
    public var tag: String
    public var line: Int
    public var column: Int
    public var children: [SourceNode] = []
    let document: SourceDocument
    let spans: Range<Int>

    /// A node made by hand (tests, tools): its attributes as given.
    public init(tag: String, attributes: [String: String], line: Int, column: Int, children: [SourceNode] = []) {
        var bytes: [UInt8] = []
        var spans: [AttributeSpan] = []
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
            let nameFrom = bytes.count
            bytes += name.utf8
            let valueFrom = bytes.count
            bytes += value.utf8
            spans.append(AttributeSpan(nameFrom: UInt32(nameFrom), nameTo: UInt32(valueFrom), valueFrom: UInt32(valueFrom), valueTo: UInt32(bytes.count), raw: false))
        }
        self.init(tag: tag, line: line, column: column, document: SourceDocument(bytes: bytes, spans: spans), spans: 0..<spans.count)
        self.children = children
    }

    init(tag: String, line: Int, column: Int, document: SourceDocument, spans: Range<Int>) {
        self.tag = tag; self.line = line; self.column = column; self.document = document; self.spans = spans
    }

    /// Every attribute, decoded.
    public var attributes: [String: String] {
        var out: [String: String] = [:]
        document.bytes.withUnsafeBufferPointer { d in
            for s in document.spans[spans] { out[XMLScanner.string(d, Int(s.nameFrom), Int(s.nameTo))] = document.value(s, d) }
        }
        return out
    }

    public subscript(_ name: String) -> String? {
        var name = name
        return name.withUTF8 { key in
            document.bytes.withUnsafeBufferPointer { d in
                guard let s = document.span(named: key, in: spans, d) else { return nil }
                return document.value(s, d)
            }
        }
    }

    /// The attribute's value as bytes, for the rules' hot paths (bounds, class names, numbers):
    /// `nil` when the element has no such attribute. A value with references or line breaks is
    /// decoded first.
    func withValueBytes<R>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        var name = name
        return name.withUTF8 { key in
            document.bytes.withUnsafeBufferPointer { d -> R? in
                guard let s = document.span(named: key, in: spans, d) else { return nil }
                if s.raw {
                    var v = document.value(s, d)
                    return v.withUTF8(body)
                }
                return body(UnsafeBufferPointer(rebasing: d[Int(s.valueFrom)..<Int(s.valueTo)]))
            }
        }
    }

    /// An attribute that is `"true"` (WebDriverAgent and UiAutomator2 write booleans so).
    public func flag(_ name: String) -> Bool? {
        var name = name
        return name.withUTF8 { key in
            document.bytes.withUnsafeBufferPointer { d -> Bool? in
                guard let s = document.span(named: key, in: spans, d) else { return nil }
                if s.raw { let v = document.value(s, d); return v == "true" || v == "1" }
                let from = Int(s.valueFrom), count = Int(s.valueTo) - from
                if count == 4 { return d[from] == UInt8(ascii: "t") && d[from + 1] == UInt8(ascii: "r") && d[from + 2] == UInt8(ascii: "u") && d[from + 3] == UInt8(ascii: "e") }
                return count == 1 && d[from] == UInt8(ascii: "1")
            }
        }
    }

    public static func == (a: SourceNode, b: SourceNode) -> Bool {
        a.tag == b.tag && a.line == b.line && a.column == b.column && a.attributes == b.attributes && a.children == b.children
    }

    public func hash(into h: inout Hasher) {
        h.combine(tag); h.combine(line); h.combine(column); h.combine(attributes); h.combine(children)
    }
}

/// A page source's bytes and where its attributes are in them, shared by all its nodes.
final class SourceDocument: Sendable {
    let bytes: [UInt8]
    let spans: [AttributeSpan]

    init(bytes: [UInt8], spans: [AttributeSpan]) { self.bytes = bytes; self.spans = spans }

    func span(named key: UnsafeBufferPointer<UInt8>, in range: Range<Int>, _ d: UnsafeBufferPointer<UInt8>) -> AttributeSpan? {
        spans.withUnsafeBufferPointer { all in
            for i in range {
                let s = all[i]
                let from = Int(s.nameFrom)
                guard Int(s.nameTo) - from == key.count else { continue }
                var k = 0
                while k < key.count, d[from + k] == key[k] { k += 1 }
                if k == key.count { return s }
            }
            return nil
        }
    }

    /// The value as XML means it: references replaced, each tab and line break a space.
    func value(_ s: AttributeSpan, _ d: UnsafeBufferPointer<UInt8>) -> String { Self.decode(s, d) }

    static func decode(_ s: AttributeSpan, _ d: UnsafeBufferPointer<UInt8>) -> String {
        let from = Int(s.valueFrom), to = Int(s.valueTo)
        guard s.raw else { return XMLScanner.string(d, from, to) }
        var out: [UInt8] = []
        out.reserveCapacity(to - from)
        var i = from
        while i < to {
            let b = d[i]
            if b == UInt8(ascii: "&"), case .success(let (scalar, next)) = XMLScanner.decodeReference(d, at: i) {
                out += String(Character(scalar)).utf8
                i = next
            } else if b == 0x0D {
                out.append(0x20)
                i += (i + 1 < to && d[i + 1] == 0x0A) ? 2 : 1
            } else {
                out.append(b == 0x09 || b == 0x0A ? 0x20 : b)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A place in an input file: `FILE:LINE:COLUMN`, the form editors and compilers use.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) { self.file = file; self.line = line; self.column = column }

    public var description: String { "\(file):\(line):\(column)" }
}

/// What goes wrong reading a page source: where and what. Rendered `FILE:LINE:COLUMN: message`
/// (`FILE: message` when the problem is the whole file).
public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file; self.line = line; self.column = column; self.message = message
    }

    init(_ at: SourceLocation, _ message: String) {
        self.init(file: at.file, line: at.line, column: at.column, message: message)
    }

    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if line != nil, let column { s += ":\(column)" }
        return s + ": " + message
    }
}

/// Reads a page source into a tree of `SourceNode`s with `XMLScanner`, the project's own reader
/// of the XML page sources are written in. A document type declaration is refused: page sources
/// never have one, and its entities are the only way an XML file can make its reader fetch
/// files or expand text out of all proportion (Docs/import.md#bad-input). The five predefined
/// entities and character references are read as usual.
public enum PageSourceReader {
    /// Reads a page source into the flat table the import's rules walk (`PageTree`), as
    /// `tandem import` does; returns how many elements it has (for `tandem-bench import`).
    public static func readTable(_ data: [UInt8], file: String) throws(ImportError) -> Int {
        try PageTree(data, file: file).count
    }

    public static func read(_ data: [UInt8], file: String) throws(ImportError) -> SourceNode {
        var scanner = XMLScanner(file: file)
        do {
            try data.withUnsafeBufferPointer { (d) throws(ImportError) in try scanner.scan(d) }
        }
        let document = SourceDocument(bytes: data, spans: Array(scanner.spans))
        let rows = scanner.rows
        // The table is in document order, so an element's children come after it: built from
        // the end, each node is whole when it joins its parent (its children, reversed, in place).
        let names = scanner.tagNames
        var nodes = (0..<scanner.count).map { i in
            SourceNode(tag: names[Int(rows.tag[i])], line: Int(rows.line[i]), column: Int(rows.column[i]), document: document,
                       spans: Int(rows.attributes[i].lowerBound)..<Int(rows.attributes[i].upperBound))
        }
        for i in stride(from: nodes.count - 1, through: 1, by: -1) {
            nodes[i].children.reverse()
            nodes[Int(rows.parent[i])].children.append(nodes[i])
            nodes[i].children = []
        }
        nodes[0].children.reverse()
        // The rows are in the scanner's table's memory: read above while the scanner holds it.
        withExtendedLifetime(scanner) {}
        return nodes[0]
    }
}
