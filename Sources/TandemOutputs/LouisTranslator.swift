import CLouis
import Foundation
import Synchronization
import TandemPresentation
import TandemVocabulary

/// Braille translation with liblouis: Unicode braille cells straight from the tables
/// (`dotsIO|ucBrl`), uncontracted by default, contracted on request, the word being edited
/// uncontracted (computer braille) at the cursor.
///
/// Computer braille at the cursor is only asked of liblouis when it shows the word better than
/// the literary table does: in contracted braille (one cell per character, so the user sees what
/// they edit), and never for a word with a digit. liblouis' computer braille in these 6-dot
/// tables writes a digit as its letter (a–j) with neither the number sign nor dot 8, so "11"
/// would read "aa"; in uncontracted braille it also drops the Portuguese capital sign and gives
/// nothing in return.
///
/// liblouis keeps one table cache and one set of buffers for the whole process and is not
/// thread-safe, so every call from every translator is serialised on one process-wide lock.
public final class LouisTranslator: BrailleTranslator, Sendable {
    /// Table lists per language as liblouis writes them.
    public struct Tables: Sendable, Hashable {
        public var uncontracted: String
        public var contracted: String
        /// Rules added to both lists before their first use (`LouisAmendments`), in liblouis' syntax.
        public var amendments: [String]
        public init(uncontracted: String, contracted: String, amendments: [String] = []) {
            self.uncontracted = uncontracted; self.contracted = contracted; self.amendments = amendments
        }
    }

    /// Debian's liblouis has no Brazilian table; Portuguese braille is shared by Portugal and
    /// Brazil, so `pt-BR` uses `pt-pt`, with dot 5 between a number and a letter a–j after it
    /// (`LouisAmendments.portugueseLetterAfterDigits`; English and Russian tables have their
    /// own sign). Russian: `ru-litbrl` (literary, uncontracted; it writes no space after a
    /// comma, as that table's rules intend) and `ru-ru-g1` when contracted.
    public static let defaultTables: [String: Tables] = [
        "en": Tables(uncontracted: "unicode.dis,en-ueb-g1.ctb", contracted: "unicode.dis,en-ueb-g2.ctb"),
        "pt": Tables(uncontracted: "unicode.dis,pt-pt-g1.utb", contracted: "unicode.dis,pt-pt-g2.ctb",
                     amendments: LouisAmendments.portugueseLetterAfterDigits),
        "ru": Tables(uncontracted: "unicode.dis,ru-litbrl.ctb", contracted: "unicode.dis,ru-ru-g1.ctb"),
    ]

    public let contracted: Bool
    public let computerBrailleAtCursor: Bool
    let tables: [String: Tables]
    /// Process-wide: two translators (two sessions, a profile change) share liblouis' state.
    /// It holds the table lists amended so far and whether liblouis took every rule: liblouis
    /// keeps an amended list in its cache, so each list is amended once per process, whichever
    /// translator uses it first.
    static let lock = Mutex([String: Bool]())

    public init(contracted: Bool = false, computerBrailleAtCursor: Bool = true, tables: [String: Tables] = LouisTranslator.defaultTables) {
        self.contracted = contracted
        self.computerBrailleAtCursor = computerBrailleAtCursor
        self.tables = tables
    }

    /// The table list used for `language` (base language, else English).
    public func tableList(for language: String) -> String {
        let t = tables(for: language)
        return contracted ? t.contracted : t.uncontracted
    }

    func tables(for language: String) -> Tables {
        let l = language.lowercased()
        return tables[l] ?? tables[String(l.split(separator: "-").first ?? "")] ?? tables["en"]!
    }

    /// The table lists this translator uses that liblouis cannot compile, or whose amendments
    /// it refuses; empty when every one is ready.
    public func checkTables() -> [String] {
        let lists = tables.values.flatMap { t in [t.uncontracted, t.contracted].map { ($0, t.amendments) } }.sorted { $0.0 < $1.0 }
        return Self.lock.withLock { amended in lists.filter { !Self.prepare($0.0, amendments: $0.1, amended: &amended) }.map(\.0) }
    }

    /// Adds `list`'s amendments once per process, then compiles it (under the lock). False when
    /// the list does not compile or an amendment is refused. liblouis takes rules only before
    /// a table's first use (after it, `lou_compileString` says "Table is finalized"), so this
    /// runs before every translation and check, and the first one amends.
    private static func prepare(_ list: String, amendments: [String], amended: inout [String: Bool]) -> Bool {
        var accepted = true
        if !amendments.isEmpty {
            if let done = amended[list] {
                accepted = done
            } else {
                accepted = amendments.allSatisfy { lou_compileString(list, $0) != 0 }
                amended[list] = accepted
            }
        }
        return lou_getTable(list) != nil && accepted
    }

    /// What a person is told when some table list cannot be compiled (braille would come
    /// out blank for its language); `nil` when every one compiles.
    public func tableReport() -> String? {
        let missing = checkTables()
        guard !missing.isEmpty else { return nil }
        return "liblouis cannot load the braille tables \(missing.joined(separator: "; ")), so braille would be blank "
            + "(install liblouis-data, or check LOUIS_TABLEPATH)"
    }

    public func translate(_ text: String, language: String, cursor: Int?, editing: Bool) -> (cells: [Cell], cursor: Int?) {
        let input = text.unicodeScalars.map { widechar($0.value) }
        guard !input.isEmpty else { return ([], cursor.map { _ in 0 }) }
        let table = tableList(for: language)
        let amendments = tables(for: language).amendments
        return Self.lock.withLock { amended in
            _ = Self.prepare(table, amendments: amendments, amended: &amended)
            return translateLocked(input, table: table, text: text, cursor: cursor, editing: editing)
        }
    }

    /// `translate` under the process-wide lock.
    private func translateLocked(_ input: [widechar], table: String, text: String, cursor: Int?,
                                 editing: Bool) -> (cells: [Cell], cursor: Int?) {
        // Contraction can lengthen text (numbers, capitals, indicators); 4× plus slack is ample.
        var capacity = input.count * 4 + 16
        for _ in 0..<3 {
            var inLen = Int32(input.count)
            var outLen = Int32(capacity)
            var out = [widechar](repeating: 0, count: capacity)
            var inputPos = [Int32](repeating: 0, count: capacity)
            var cursorPos = Int32(cursor.map { min($0, input.count - 1) } ?? -1)
            var mode = Int32(dotsIO.rawValue | ucBrl.rawValue)
            if let c = cursor, editing, usesComputerBraille(atWordOf: c, in: text) { mode |= Int32(compbrlAtCursor.rawValue) }
            let hasCursor = cursor != nil
            let ok = input.withUnsafeBufferPointer { inBuf in
                out.withUnsafeMutableBufferPointer { outBuf in
                    inputPos.withUnsafeMutableBufferPointer { posBuf in
                        withUnsafeMutablePointer(to: &cursorPos) { cursorPointer in
                            lou_translate(table, inBuf.baseAddress, &inLen, outBuf.baseAddress, &outLen, nil, nil, nil, posBuf.baseAddress,
                                          hasCursor ? cursorPointer : nil, mode)
                        }
                    }
                }
            }
            guard ok != 0 else { break }
            if Int(inLen) < input.count && Int(outLen) >= capacity { capacity *= 2; continue }
            let count = Int(outLen)
            let cells = out[0..<count].map { Cell(truncatingIfNeeded: $0 & 0xFF) }
            // liblouis' own cursorPos drifts after capital signs (3.24); the per-cell input
            // positions do not: the cursor is the first cell made from the cursor's character on.
            let cell = cursor.map { c in inputPos[0..<count].firstIndex { Int($0) >= c } ?? count }
            return (cells, cell)
        }
        // liblouis failed (no table): fall back to blanks of the right length rather than nothing.
        return ([Cell](repeating: 0, count: input.count), cursor)
    }

    /// The computer braille tables a braille keyboard's chords are read in, per language (what
    /// BRLTTY's own text table does for the console; Docs/keymaps.md#typing).
    public static let keyboardTables: [String: String] = [
        "en": "unicode.dis,en-us-comp8-ext.utb", "pt": "unicode.dis,pt-pt-comp8.ctb", "ru": "unicode.dis,ru-compbrl.ctb",
    ]

    /// The character a chord types: the cell back-translated with the language's computer
    /// braille table (`keyboardTables`: base language, else English).
    public func character(forDots dots: Int, language: String) -> Character? {
        guard (0...0xFF).contains(dots) else { return nil }
        let l = language.lowercased()
        let table = Self.keyboardTables[l] ?? Self.keyboardTables[String(l.split(separator: "-").first ?? "")] ?? Self.keyboardTables["en"]!
        let input: [widechar] = [widechar(0x2800 + dots)]
        return Self.lock.withLock { _ -> Character? in
            var inLen: Int32 = 1
            var outLen: Int32 = 8
            var out = [widechar](repeating: 0, count: 8)
            let ok = input.withUnsafeBufferPointer { i in
                out.withUnsafeMutableBufferPointer { o in
                    lou_backTranslateString(table, i.baseAddress, &inLen, o.baseAddress, &outLen, nil, nil, 0)
                }
            }
            guard ok != 0, outLen == 1, let scalar = Unicode.Scalar(UInt32(out[0])) else { return nil }
            return Character(scalar)
        }
    }

    /// Whether the word around character offset `cursor` is shown in computer braille (see the
    /// type's doc comment): contracted, asked for, and no digit in the word.
    func usesComputerBraille(atWordOf cursor: Int, in text: String) -> Bool {
        guard contracted, computerBrailleAtCursor else { return false }
        let chars = Array(text)
        guard !chars.isEmpty else { return false }
        let c = min(max(0, cursor), chars.count - 1)
        var start = c, end = c
        while start > 0, !chars[start - 1].isWhitespace { start -= 1 }
        while end < chars.count, !chars[end].isWhitespace { end += 1 }
        return !chars[start..<end].contains { $0.isNumber }
    }
}
