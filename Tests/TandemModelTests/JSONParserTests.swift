import Testing
import TandemModel

@Suite("JSONParser")
struct JSONParserTests {
    // MARK: valid documents

    @Test("scalars, arrays and objects parse to their values")
    func parsesValues() throws {
        let node = try JSONParser.parse(#"{"s": "a\"b\\c\/d\n\t", "n": -12.5e1, "t": true, "f": false, "z": null, "a": [1, [], {}]}"#)
        #expect(node["s"]?.kind == .string("a\"b\\c/d\n\t"))
        #expect(node["n"]?.kind == .number(-125))
        #expect(node["t"]?.kind == .bool(true))
        #expect(node["f"]?.kind == .bool(false))
        #expect(node["z"]?.kind == .null)
        guard case .array(let items)? = node["a"]?.kind else {
            Issue.record("\"a\" is not an array")
            return
        }
        #expect(items.map(\.kind) == [.number(1), .array([]), .object([])])
    }

    @Test("object members keep the order they were written in")
    func membersKeepOrder() throws {
        let node = try JSONParser.parse(#"{"zebra": 1, "apple": 2, "mango": 3}"#)
        #expect(node.members?.map(\.key) == ["zebra", "apple", "mango"])
    }

    @Test("a bare scalar with surrounding white space is a whole document")
    func bareScalar() throws {
        #expect(try JSONParser.parse(" \r\n\t 42 \n").kind == .number(42))
        #expect(try JSONParser.parse("\"only\"").kind == .string("only"))
    }

    @Test("a UTF-8 byte order mark is tolerated")
    func byteOrderMark() throws {
        let node = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8))
        #expect(node["a"]?.kind == .number(1))
    }

    @Test("UTF-8 text and \\u escapes, including a surrogate pair, decode to the same characters")
    func unicode() throws {
        let node = try JSONParser.parse(#"["Café torrado", "Caf\u00e9", "\ud83c\udf4c", "🍌", "\u0000"]"#)
        #expect(node.kind == .array([
            JSONNode(.string("Café torrado"), line: 1), JSONNode(.string("Café"), line: 1),
            JSONNode(.string("🍌"), line: 1), JSONNode(.string("🍌"), line: 1), JSONNode(.string("\u{0}"), line: 1),
        ]))
    }

    // MARK: line numbers

    @Test("every nested value and key remembers the line it starts on")
    func nestedLines() throws {
        let text = """
            {
              "screens": [
                {
                  "id": "main",
                  "root":
                    { "id": "main.root" },
                  "list": [1,
                    2]
                }
              ]
            }
            """
        let root = try JSONParser.parse(text)
        #expect(root.line == 1)
        let screens = try #require(root.members?.first)
        #expect(screens.keyLine == 2)
        #expect(screens.node.line == 2)
        guard case .array(let list) = screens.node.kind, let screen = list.first else {
            Issue.record("screens is not a non-empty array")
            return
        }
        #expect(screen.line == 3)
        let members = try #require(screen.members)
        #expect(members.map(\.keyLine) == [4, 5, 7])
        // A value on the line after its key starts on its own line.
        #expect(members[1].node.line == 6)
        #expect(members[1].node["id"]?.line == 6)
        guard case .array(let numbers) = members[2].node.kind else {
            Issue.record("list is not an array")
            return
        }
        #expect(numbers.map(\.line) == [7, 8])
    }

    @Test("CRLF line endings count one line each")
    func crlfLines() throws {
        let node = try JSONParser.parse("{\r\n\"a\":\r\n1,\r\n\"b\": 2}")
        #expect(node.members?.map(\.keyLine) == [2, 4])
        #expect(node["a"]?.line == 3)
    }

    // MARK: syntax errors, with the line they are on

    @Test("a trailing comma in an object or an array is an error on its line")
    func trailingComma() {
        #expect(parseError("{\n  \"a\": 1,\n}") == "3: unexpected '}', expected a string key")
        #expect(parseError("[\n  1,\n  2,\n]") == "4: unexpected ']', expected a value")
    }

    @Test("an unterminated string is an error, and a raw line break inside a string too")
    func unterminatedString() {
        #expect(parseError("\n\n\"abc") == "3: unterminated string")
        #expect(parseError("\"abc\\") == "1: unterminated string")
        #expect(parseError("{\"a\": \"abc\n\"}") == "1: line break inside a string")
    }

    @Test("an unknown escape or a malformed \\u escape is an error")
    func badEscape() {
        #expect(parseError("\n[\"a\\x\"]") == "2: invalid escape '\\x'")
        #expect(parseError(#""\u12G4""#) == "1: malformed \\u escape")
        #expect(parseError(#"["\u12"]"#) == "1: malformed \\u escape")
        #expect(parseError(#""\u1"#) == "1: truncated \\u escape")
    }

    @Test("a lone or reversed UTF-16 surrogate in a \\u escape is an error")
    func unpairedSurrogates() {
        #expect(parseError(#""\ud83c""#) == "1: unpaired surrogate in \\u escape")
        #expect(parseError(#""\ud83cx""#) == "1: unpaired surrogate in \\u escape")
        #expect(parseError(#""\ud83c\u0041""#) == "1: unpaired surrogate in \\u escape")
        #expect(parseError(#""\udf4c\ud83c""#) == "1: unpaired surrogate in \\u escape")
    }

    @Test("a duplicate key is reported on the line of the second one")
    func duplicateKey() {
        #expect(parseError("{\n  \"id\": 1,\n  \"label\": 2,\n  \"id\": 3\n}") == "4: duplicate key \"id\"")
        // The same key in different objects is fine.
        #expect(parseError(#"[{"id": 1}, {"id": 2}]"#) == nil)
    }

    @Test("nesting up to 512 levels parses; one more is refused instead of overflowing the stack")
    func deepNesting() {
        #expect(parseError(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)) == nil)
        #expect(parseError(String(repeating: "[", count: 513) + String(repeating: "]", count: 513))
            == "1: nesting deeper than 512 levels")
        let objects = String(repeating: "{\"a\":", count: 600) + "1" + String(repeating: "}", count: 600)
        #expect(parseError(objects) == "1: nesting deeper than 512 levels")
        // A hostile document far deeper than the limit fails just as fast.
        #expect(parseError(String(repeating: "[", count: 100_000)) == "1: nesting deeper than 512 levels")
    }

    @Test("a control character inside a string is an error; escaped it is fine")
    func controlCharacters() {
        #expect(parseError("\n\"a\tb\"") == "2: control character inside a string")
        #expect(parseError([0x22, 0x61, 0x00, 0x22]) == "1: control character inside a string")
        #expect(parseError([0x22, 0x1F, 0x22]) == "1: control character inside a string")
        #expect(parseError(#""a\tb\u001f""#) == nil)
    }

    @Test("invalid UTF-8 inside a string is an error, and a stray byte outside one")
    func invalidUTF8() {
        // A lead byte without its continuation.
        #expect(parseError([0x0A, 0x22, 0xC3, 0x28, 0x22]) == "2: string is not valid UTF-8")
        // An overlong encoding of '/'.
        #expect(parseError([0x22, 0xC0, 0xAF, 0x22]) == "1: string is not valid UTF-8")
        // A UTF-16 surrogate encoded in UTF-8.
        #expect(parseError([0x22, 0xED, 0xA0, 0x80, 0x22]) == "1: string is not valid UTF-8")
        // Truncated before the closing quote.
        #expect(parseError([0x22, 0xE2, 0x82, 0x22]) == "1: string is not valid UTF-8")
        #expect(parseError([0xFF]) == "1: unexpected byte 0xff, expected a value")
        #expect(parseError([0x5B, 0x31, 0x2C, 0x80, 0x5D]) == "1: unexpected byte 0x80, expected a value")
    }

    @Test("numbers: signs, fractions and exponents parse; leading zeros and bare signs do not")
    func numbers() throws {
        let valid: [(String, Double)] = [
            ("0", 0), ("-0", 0), ("7", 7), ("-12", -12), ("0.5", 0.5), ("10.25", 10.25),
            ("1e3", 1000), ("1E3", 1000), ("1e+2", 100), ("25e-1", 2.5), ("-1.5E-1", -0.15), ("0e0", 0),
        ]
        for (text, value) in valid {
            #expect(try JSONParser.parse(text).kind == .number(value), "\(text)")
        }
        #expect(parseError("01") == "1: malformed number: leading zero")
        #expect(parseError("-007") == "1: malformed number: leading zero")
        #expect(parseError("-") == "1: malformed number")
        #expect(parseError("-a") == "1: malformed number")
        #expect(parseError("1.") == "1: malformed number: no digits after '.'")
        #expect(parseError("1.e3") == "1: malformed number: no digits after '.'")
        #expect(parseError("1e") == "1: malformed number: no digits in exponent")
        #expect(parseError("1e+") == "1: malformed number: no digits in exponent")
        #expect(parseError(".5") == "1: unexpected '.', expected a value")
        #expect(parseError("+1") == "1: unexpected '+', expected a value")
        #expect(parseError("1e400") == "1: number 1e400 is out of range")
        #expect(parseError("[1x]") == "1: unexpected 'x', expected ',' or ']'")
        #expect(parseError("0x10") == "1: unexpected 'x' after the JSON value")
    }

    @Test("misspelt literals, missing colons and stray text are errors with their line")
    func otherSyntaxErrors() {
        #expect(parseError("") == "1: unexpected end of file, expected a value")
        #expect(parseError("\n\n  ") == "3: unexpected end of file, expected a value")
        #expect(parseError("[tru]") == "1: unexpected 't', expected a value")
        #expect(parseError("nul") == "1: unexpected 'n', expected a value")
        #expect(parseError("{\"a\" 1}") == "1: unexpected '1', expected ':' after key \"a\"")
        #expect(parseError("{a: 1}") == "1: unexpected 'a', expected a string key")
        #expect(parseError("{\"a\": 1 \"b\": 2}") == "1: unexpected '\"', expected ',' or '}'")
        #expect(parseError("{\"a\": 1") == "1: unexpected end of file, expected ',' or '}'")
        #expect(parseError("[1\n") == "2: unexpected end of file, expected ',' or ']'")
        #expect(parseError("{}\n\n{}") == "3: unexpected '{' after the JSON value")
        #expect(parseError("'single'") == "1: unexpected ''', expected a value")
    }
}
