import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One XML element of a page source, as written: its tag, its attributes, where its start tag
/// begins (1-based line and column, the column counted in characters) and its children.
public struct SourceNode: Sendable, Hashable {
    public var tag: String
    public var attributes: [String: String]
    public var line: Int
    public var column: Int
    public var children: [SourceNode] = []

    public init(tag: String, attributes: [String: String], line: Int, column: Int, children: [SourceNode] = []) {
        self.tag = tag; self.attributes = attributes; self.line = line; self.column = column; self.children = children
    }

    public subscript(_ name: String) -> String? { attributes[name] }

    /// An attribute that is `"true"` (WebDriverAgent and UiAutomator2 write booleans so).
    public func flag(_ name: String) -> Bool? {
        guard let v = attributes[name] else { return nil }
        return v == "true" || v == "1"
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

/// Reads a page source into a tree of `SourceNode`s with Foundation's `XMLParser` (libxml2 on
/// Linux). A document type declaration is refused before parsing: page sources never have one,
/// and its entities are the only way an XML file can make its reader fetch files or expand text
/// out of all proportion (Docs/import.md#bad-input). The five predefined entities and character
/// references are read as usual.
public enum PageSourceReader {
    public static func read(_ data: [UInt8], file: String) throws(ImportError) -> SourceNode {
        let lines = LineTable(data)
        if let at = firstDoctype(data) {
            let (line, column) = lines.position(of: at)
            throw ImportError(file: file, line: line, column: column,
                              message: "a document type declaration (<!DOCTYPE or <!ENTITY) is not read: page sources have none, and its entities could read other files or grow without bound")
        }
        // From a stream, libxml2 is fed in chunks: given as one block, a file over 10 MB stops
        // at libxml2's lookup limit ("huge input lookup").
        let parser = XMLParser(stream: InputStream(data: Data(data)))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        let builder = TreeBuilder(lines: lines)
        parser.delegate = builder
        let ok = parser.parse()
        // libxml2 recovers from some errors (parse() is then true): any error at all refuses the file.
        if let why = builder.errorMessage {
            throw ImportError(file: file, line: max(builder.errorLine ?? 1, 1), column: max(builder.errorColumn ?? 1, 1),
                              message: "malformed XML: \(why)")
        }
        if builder.stack.count > 1 {
            let open = builder.stack[builder.stack.count - 1]
            let (line, column) = lines.position(of: data.count)
            throw ImportError(file: file, line: line, column: column,
                              message: "malformed XML: the file ends inside <\(open.tag)> (opened at line \(open.line), column \(open.column)); is it truncated?")
        }
        guard ok, let root = builder.root else {
            throw ImportError(file: file, line: 1, column: 1, message: "malformed XML: no root element (an empty file?)")
        }
        return root
    }

    /// The offset of `<!DOCTYPE` or `<!ENTITY` in the file's prolog (XML allows a document
    /// type declaration only before the root element), if it has one.
    static func firstDoctype(_ data: [UInt8]) -> Int? {
        let marks: [[UInt8]] = [Array("<!DOCTYPE".utf8), Array("<!ENTITY".utf8)]
        var i = 0
        let n = data.count
        while i + 1 < n {
            if data[i] == UInt8(ascii: "<") {
                let next = data[i + 1]
                // The root element's start tag ends the prolog.
                if next != UInt8(ascii: "!"), next != UInt8(ascii: "?") { return nil }
            }
            if data[i] == UInt8(ascii: "<"), data[i + 1] == UInt8(ascii: "!") {
                for m in marks where i + m.count <= n {
                    var same = true
                    for k in 2..<m.count where data[i + k] & 0xDF != m[k] & 0xDF { same = false; break }
                    if same { return i }
                }
            }
            i += 1
        }
        return nil
    }
}

/// Byte offsets of line starts, to turn an offset into a line and a column (in characters).
struct LineTable {
    let data: [UInt8]
    var starts: [Int] = [0]

    init(_ data: [UInt8]) {
        self.data = data
        var from = 0
        while let i = data[from...].firstIndex(of: UInt8(ascii: "\n")) {
            starts.append(i + 1)
            from = i + 1
        }
    }

    /// 1-based line and column of byte `offset`; the column counts characters (UTF-8 lead bytes).
    func position(of offset: Int) -> (line: Int, column: Int) {
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        var column = 1
        var i = starts[lo]
        while i < offset {
            if data[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return (lo + 1, column)
    }
}

/// XMLParser's delegate: builds the tree, noting where each start tag begins.
final class TreeBuilder: NSObject, XMLParserDelegate {
    let lines: LineTable
    var stack: [SourceNode] = [SourceNode(tag: "", attributes: [:], line: 0, column: 0)]
    var root: SourceNode?
    var errorLine: Int?
    var errorColumn: Int?
    var errorMessage: String?
    /// A place in the file whose line and column are known: positions only move forward, so
    /// each is found from the last one (a `uiautomator dump` is one line of megabytes).
    var cursor = (offset: 0, line: 1, column: 1)

    init(lines: LineTable) { self.lines = lines }

    /// Moves the cursor forward to libxml2's `line` and `column` and returns the offset.
    func advance(line: Int, column: Int) -> Int {
        let data = lines.data
        if line > cursor.line, line <= lines.starts.count {
            cursor = (lines.starts[line - 1], line, 1)
        }
        while cursor.offset < data.count, cursor.column < column, data[cursor.offset] != UInt8(ascii: "\n") {
            cursor.offset += 1
            while cursor.offset < data.count, data[cursor.offset] & 0xC0 == 0x80 { cursor.offset += 1 }
            cursor.column += 1
        }
        return cursor.offset
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        // libxml2 reports the position just after the start tag: the tag begins at the last
        // "<" before it (an attribute value cannot hold a bare "<").
        let data = lines.data
        let end: Int
        let (reportedLine, reportedColumn) = (parser.lineNumber, parser.columnNumber)
        // libxml2 points at the tag's last character, ">" or the "/" of "/>": on an ASCII line
        // the column is the byte offset, so one look confirms it without counting characters.
        if reportedLine >= 1, reportedLine <= lines.starts.count, reportedLine >= cursor.line,
           case let guess = lines.starts[reportedLine - 1] + reportedColumn - 1, guess > cursor.offset, guess < data.count,
           data[guess] == UInt8(ascii: ">") || data[guess] == UInt8(ascii: "/") {
            cursor = (guess, reportedLine, reportedColumn)
            end = guess
        } else {
            end = advance(line: reportedLine, column: reportedColumn)
        }
        var at = min(end, data.count - 1)
        var crossedLine = false
        while at > 0, data[at] != UInt8(ascii: "<") {
            if data[at] == UInt8(ascii: "\n") { crossedLine = true }
            at -= 1
        }
        let line: Int, column: Int
        if crossedLine || at > end {
            (line, column) = lines.position(of: at)
        } else {
            // The characters from "<" up to the reported place, counted back.
            var n = 0
            var i = at
            while i < end { if data[i] & 0xC0 != 0x80 { n += 1 }; i += 1 }
            (line, column) = (cursor.line, cursor.column - n)
        }
        stack.append(SourceNode(tag: elementName, attributes: attributes, line: line, column: max(column, 1)))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard stack.count > 1 else { return }
        let node = stack.removeLast()
        if stack.count == 1 {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard errorMessage == nil else { return }
        errorLine = parser.lineNumber
        errorColumn = parser.columnNumber
        let code = (parseError as NSError).code
        errorMessage = (Self.messages[code] ?? "libxml2 could not read it") + " (libxml2 error \(code))"
    }

    /// libxml2's `xmlParserErrors` codes a page source runs into, in words (Foundation on Linux
    /// passes the code without its message).
    static let messages: [Int: String] = [
        4: "the document is empty",
        5: "the document ends too soon, or has content after its root element",
        9: "a character XML does not allow",
        26: "an entity that is not declared (only &amp; &lt; &gt; &quot; &apos; and character references are known)",
        39: "an attribute value without quotes",
        40: "an attribute value that is not closed",
        41: "an attribute without a value",
        42: "an attribute written twice",
        68: "a name was expected",
        73: "\">\" was expected",
        76: "an end tag that does not match its start tag",
        77: "an element that is not closed",
    ]
}
