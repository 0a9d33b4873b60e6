import Testing
@testable import TandemPresentation

/// The `.strings` reader: the iOS localizer's format, escapes, comments, and problems named by line.
@Suite("strings files")
struct StringsFileTests {
    static func parse(_ text: String) -> StringsFile { StringsFile(bytes: Array(text.utf8)) }

    @Test("entries with their comments, in file order")
    func entries() {
        let f = Self.parse("""
            /* Header of the file */

            /* The button trait. */
            "trait.button" = "button";
            // a line comment
            "trait.header"="heading" ;
            """)
        #expect(f.problems.isEmpty)
        #expect(f.entries.map(\.key) == ["trait.button", "trait.header"])
        #expect(f.entries[0].comment == "The button trait.")
        #expect(f.entries[0].line == 4)
        #expect(f.table == ["trait.button": "button", "trait.header": "heading"])
    }

    @Test("a multi-line comment is one line of text")
    func multiLineComment() {
        let f = Self.parse("/* one\n   two */\n\"k\" = \"v\";")
        #expect(f.entries.first?.comment == "one two")
    }

    @Test("escapes: quote, backslash, newline, tab and \\U with four hex digits")
    func escapes() {
        let f = Self.parse(#""k" = "say \"hi\"\\\n\t\U2022\u00e9";"#)
        #expect(f.problems.isEmpty)
        #expect(f.table["k"] == "say \"hi\"\\\n\t•é")
    }

    @Test("UTF-8 text and a byte order mark")
    func utf8() {
        let f = StringsFile(bytes: [0xEF, 0xBB, 0xBF] + Array(#""ru" = "Выбрано";"#.utf8))
        #expect(f.table["ru"] == "Выбрано")
    }

    @Test("a problem names its line and the entries around it are kept")
    func problems() {
        let f = Self.parse("""
            "a" = "1";
            "b" "2";
            "c" = "3";
            "a" = "4";
            "d" = "\\q";
            "e" = "5"
            """)
        #expect(f.table == ["a": "1", "c": "3"])
        #expect(f.problems.map(\.description) == [
            #"line 2: expected "=", found a quote"#,
            #"line 4: duplicate key "a" (first at line 1)"#,
            #"line 5: unknown escape \q"#,
            #"line 6: expected ";", found the end of the file"#,
        ])
    }

    @Test("a string that is never closed is a problem at its line")
    func unclosed() {
        let f = Self.parse("\"a\" = \"1\";\n\"b\" = \"open;\n")
        #expect(f.problems.map(\.line) == [2])
        #expect(f.table == ["a": "1"])
    }
}
