import Foundation
import Testing
import TandemTestSupport

/// `tandem view TRANSCRIPT`: each transcript line as a person reads it, and a bad line named
/// by its number with nothing printed.
@Suite("tandem view")
struct ViewCommandTests {
    static func write(_ lines: [String]) throws -> String {
        let path = CLITests.temporaryPath("view.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("each kind of line reads as what was said, shown, pressed or heard, with its time in seconds")
    func rendersEveryKindOfLine() throws {
        let path = try Self.write([
            #"{"t":0,"ch":"speech","op":"speak","prio":"text","text":"Groceries, heading","lang":"en","src":"focus"}"#,
            #"{"t":1500,"ch":"braille","text":"Groceries hdr","cells":"⠠⠛⠗","cursor":1,"window":"1/1"}"#,
            #"{"t":2000,"ch":"event","type":"key","command":"next"}"#,
            #"{"t":2100,"ch":"speech","op":"cancel","text":"Add"}"#,
            #"{"t":2200,"ch":"sound","icon":"boundary"}"#,
            #"{"t":3000,"ch":"event","type":"history","index":"-1","text":"Add"}"#,
            #"{"t":4000,"ch":"braille","text":"Added","cells":"⠁","cursor":-1,"window":"1/1","flash":true}"#,
            #"{"t":5000,"ch":"speech","op":"drop","prio":"hint","text":"Adds one","reason":"superseded"}"#,
            #"{"t":12345,"ch":"speech","op":"speak","prio":"message","spell":true,"text":"ok","lang":"en","src":"value"}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try CLITests.tandem(["view", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == [
            "   0.000s  says   [text] Groceries, heading",
            "   1.500s  shows  ⠠▏⠛⠗  Groceries hdr  [1/1]",
            "   2.000s  key    next",
            "   2.100s  cut    Add",
            "   2.200s  sound  boundary",
            "   3.000s  event  history index=-1 text=Add",
            "   4.000s  shows  ⠁  (message) Added  [1/1]",
            "   5.000s  drops  [hint] Adds one  (superseded)",
            "  12.345s  says   [message] (spelled) ok",
            "",
        ])
    }

    @Test("a line that is not JSON: exit 2, the file and line named, nothing printed")
    func badLineIsNamed() throws {
        let path = try Self.write([#"{"t":0,"ch":"sound","icon":"boundary"}"#, #"{"t":1, "ch": "#])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try CLITests.tandem(["view", path])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("tandem: error: \(path):2: "), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test("a missing transcript: exit 2, named")
    func missingFile() throws {
        let r = try CLITests.tandem(["view", "/nonexistent/t.jsonl"])
        #expect(r.status == 2)
        #expect(r.stderr == "tandem: error: /nonexistent/t.jsonl: no such file, or not UTF-8\n")
    }

    @Test("the sample's golden transcript reads line for line")
    func readsGolden() throws {
        let golden = try Example("grocery").golden()
        let r = try CLITests.tandem(["view", Example("grocery").goldenPath])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == golden.split(separator: "\n").count)
        #expect(!lines.contains { $0.contains("  ?  ") }, "every line is of a kind view knows")
    }
}
