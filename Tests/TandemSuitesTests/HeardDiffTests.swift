import Foundation
import Testing
import TandemModel
import TandemService
import TandemSession
import TandemSuites

/// The bank fixture (Tests/Fixtures/ci/bank) copied to a temporary folder, with its catalog
/// edited by `edit`; the run of `scenario` in it.
enum BankRun {
    static let fixture = SuiteFixtures.packageRoot.appendingPathComponent("Tests/Fixtures/ci/bank").path

    static func catalog() throws -> Catalog {
        var decoder = CatalogDecoder(file: "bank.catalog.json")
        return try decoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: fixture + "/bank.catalog.json"))))
    }

    static func copy() throws -> String {
        let root = try SuiteFixtures.folder("ci")
        try FileManager.default.copyItem(atPath: fixture, toPath: root + "/bank")
        return root
    }

    static func run(scenario: String, edit: (String) -> String) throws -> (root: String, result: CaseResult) {
        let root = try copy()
        let catalog = root + "/bank/bank.catalog.json"
        try edit(try String(contentsOfFile: catalog, encoding: .utf8)).write(toFile: catalog, atomically: true, encoding: .utf8)
        let summary = SuiteFixtures.runner(keepTranscripts: true).run(try SuiteFixtures.plan([root + "/bank/" + scenario]))
        return (root, summary.results[0])
    }
}

@Suite("A failed case told as what the user hears (HeardDiff)")
struct HeardDiffTests {
    @Test("a relabelled button: the sentences name the step that caused each change, speech and braille each once")
    func relabelledButton() throws {
        let (root, r) = try BankRun.run(scenario: "bank.scenario") { $0.replacingOccurrences(of: "\"Save changes\"", with: "\"Save\"") }
        defer { SuiteFixtures.remove(root) }
        guard case .failed(let failures) = r.outcome, let differs = failures.first(where: { if case .differs = $0 { true } else { false } }),
              case .differs(_, let changes, let heard) = differs else {
            Issue.record("expected the golden to differ: \(r.outcome)"); return
        }
        // bank.scenario line 6 is the `next` that lands on the button, line 9 the `activate`
        // whose announcement's flash gives way to the button's braille line again.
        #expect(differs.details(.words) == """
            after `next` at line 6:
              new: expect at line 7 failed, heard «Save, button»
              heard «Save, button» — was «Save changes, button»
              braille shows «Save btn» — was «Save changes btn»
            after `activate` at line 9:
              braille shows «Save btn» — was «Save changes btn»
            """)
        // Seven JSON lines differ (three gone, four new); a person counts three replaced and one new.
        #expect(changes.count == 7)
        #expect(differs.summary(scenario: r.file) == "the transcript differs from \(root)/bank/bank.golden.jsonl: 3 lines replaced, 1 new")
        #expect(heard.replaced == 3 && heard.new == 1 && heard.gone == 0)
        #expect(differs.scenarioLine == 6)
        #expect(differs.details(.cells)?.contains("braille shows «Save btn» ⠠⠎⠁⠧⠑⠀⠃⠞⠝ — was «Save changes btn» ⠠⠎⠁⠧⠑⠀⠉⠓⠁⠝⠛⠑⠎⠀⠃⠞⠝") == true)
        #expect(differs.details(.json)?.contains(#"- expected line 12: {"t":2000,"ch":"speech","op":"speak""#) == true)
    }

    @Test("lines are paired by kind, not by position: a speech line never sits beside a braille line")
    func pairedByKind() throws {
        let catalog = try BankRun.catalog()
        let source = "next\nwait 500\n"
        let scenario = try Scenario.parse(source, file: "s.scenario", catalog: catalog)
        let expected = [
            #"{"t":0,"ch":"event","type":"key","command":"next"}"#,
            #"{"t":0,"ch":"speech","op":"speak","prio":"text","text":"Old","lang":"en","src":"focus"}"#,
            #"{"t":0,"ch":"braille","text":"Old","cells":"⠠⠕⠇⠙","cursor":0,"window":"1/1"}"#,
        ]
        // The new run shows braille before it speaks, and plays a sound as well.
        let got = [
            expected[0],
            #"{"t":0,"ch":"braille","text":"New","cells":"⠠⠝⠑⠺","cursor":0,"window":"1/1"}"#,
            #"{"t":0,"ch":"sound","icon":"boundary"}"#,
            #"{"t":0,"ch":"speech","op":"speak","prio":"text","text":"New","lang":"en","src":"focus"}"#,
        ]
        let changes = TranscriptDiff.changes(expected: expected, got: got)
        let heard = HeardDiff(changes: changes, expected: expected, got: got, scenario: scenario, source: source.split(separator: "\n", omittingEmptySubsequences: false))
        #expect(heard.render() == """
            after `next` at line 1:
              braille shows «New» — was «Old»
              new: sound «boundary»
              heard «New» — was «Old»
            """)
        #expect(heard.counts == "2 lines replaced, 1 new")
    }

    @Test("the same words at another time, or with another priority, say so")
    func timingAndFields() throws {
        let catalog = try BankRun.catalog()
        let source = "wait 100\npost announcement Hello\nwait 2000\n"
        let scenario = try Scenario.parse(source, file: "s.scenario", catalog: catalog)
        let expected = [#"{"t":100,"ch":"speech","op":"speak","prio":"message","text":"Hello","lang":"en","src":"announcement"}"#,
                        #"{"t":900,"ch":"sound","icon":"progress"}"#]
        let got = [#"{"t":100,"ch":"speech","op":"speak","prio":"important","text":"Hello","lang":"en","src":"announcement"}"#,
                   #"{"t":1200,"ch":"sound","icon":"progress"}"#]
        let heard = HeardDiff(changes: TranscriptDiff.changes(expected: expected, got: got), expected: expected, got: got,
                              scenario: scenario, source: source.split(separator: "\n", omittingEmptySubsequences: false))
        #expect(heard.render() == """
            after `post announcement Hello` at line 2:
              heard «Hello» with prio important — was prio message
              sound «progress» at 1.200 s — was at 0.900 s
            """)
    }
}
