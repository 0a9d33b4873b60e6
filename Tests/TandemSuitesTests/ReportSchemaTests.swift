import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TandemService
import TandemSession
import TandemSuites

/// The JUnit schema the Jenkins xUnit plugin validates against (its `junit-10.xsd`), written out
/// as the rules it states for what Tandem writes: per element, the attributes it allows (and
/// which of them are required) and the child elements it allows. A report is valid when every
/// element is known, has only allowed attributes, all required ones, only allowed children, and
/// every `time` matches the schema's SUREFIRE_TIME pattern.
enum JUnitCommonSchema {
    struct Rule { var attributes: Set<String>; var required: Set<String>; var children: Set<String> }
    static let textual: Set<String> = ["type", "message"]
    static let rules: [String: Rule] = [
        "testsuites": Rule(attributes: ["name", "time", "tests", "failures", "errors"], required: [], children: ["testsuite"]),
        "testsuite": Rule(attributes: ["name", "tests", "failures", "errors", "group", "time", "skipped", "timestamp", "hostname", "id", "package", "file", "log", "url"],
                          required: ["name", "tests", "failures", "errors"], children: ["testsuite", "properties", "testcase", "system-out", "system-err"]),
        "testcase": Rule(attributes: ["name", "time", "classname", "group"], required: ["name"],
                         children: ["skipped", "error", "failure", "rerunFailure", "rerunError", "flakyFailure", "flakyError", "system-out", "system-err"]),
        "failure": Rule(attributes: textual, required: [], children: []),
        "error": Rule(attributes: textual, required: [], children: []),
        "skipped": Rule(attributes: textual, required: [], children: []),
        "system-out": Rule(attributes: [], required: [], children: []),
        "system-err": Rule(attributes: [], required: [], children: []),
        "properties": Rule(attributes: [], required: [], children: ["property"]),
        "property": Rule(attributes: ["name", "value"], required: ["name", "value"], children: []),
    ]

    /// Every way `xml` breaks the rules; empty when it is valid.
    static func violations(_ xml: String) -> [String] {
        let checker = Checker()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = checker
        if !parser.parse() { return ["not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")"] }
        if checker.root != "testsuites" && checker.root != "testsuite" { checker.problems.append("root element \(checker.root ?? "none")") }
        return checker.problems
    }

    final class Checker: NSObject, XMLParserDelegate {
        var stack: [String] = []
        var root: String?
        var problems: [String] = []
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            if root == nil { root = name }
            if let parent = stack.last, let rule = JUnitCommonSchema.rules[parent], !rule.children.contains(name) {
                problems.append("<\(name)> inside <\(parent)>")
            }
            stack.append(name)
            guard let rule = JUnitCommonSchema.rules[name] else { problems.append("unknown element <\(name)>"); return }
            for a in attributes.keys.sorted() where !rule.attributes.contains(a) { problems.append("<\(name)> has attribute \(a)") }
            for a in rule.required.sorted() where attributes[a] == nil { problems.append("<\(name)> lacks attribute \(a)") }
            if let t = attributes["time"], (name == "testsuite" || name == "testsuites"),
               t.wholeMatch(of: /(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?/) == nil {
                problems.append("<\(name)> time \(t) is not SUREFIRE_TIME")
            }
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) { stack.removeLast() }
    }
}

@Suite("JUnit against the common schema, with where to look")
struct JUnitSchemaTests {
    @Test("the rules catch what strict validation rejects: a file or line attribute on a testcase")
    func rulesCanFail() {
        #expect(JUnitCommonSchema.violations(#"<testsuites><testsuite name="a" tests="1" failures="0" errors="0"><testcase name="x" file="a.scenario" line="3"/></testsuite></testsuites>"#)
                == ["<testcase> has attribute file", "<testcase> has attribute line"])
        #expect(JUnitCommonSchema.violations(#"<testsuites><testsuite name="a"><case/></testsuite></testsuites>"#).count == 5)
    }

    @Test("a report of every outcome is valid, with a timestamp and hostname on each suite")
    func mixedRunIsValid() throws {
        let (root, summary) = try MixedRun.make()
        defer { SuiteFixtures.remove(root) }
        let xml = JUnitReport.xml(summary, timestamp: "2026-12-01T17:00:00", hostname: "ci-runner")
        #expect(JUnitCommonSchema.violations(xml) == [])
        #expect(xml.components(separatedBy: #"timestamp="2026-12-01T17:00:00" hostname="ci-runner""#).count - 1 == 4)
        #expect(JUnitReport.timestamp(Date(timeIntervalSince1970: 1_780_000_000)) == "2026-05-28T20:26:40")
    }

    @Test("a failure ends with ` at FILE:LINE` (the step behind the change, or the failed expect) and its suite names the file")
    func failurePointsAtTheLine() throws {
        let (root, r) = try BankRun.run(scenario: "bank.scenario") { $0.replacingOccurrences(of: "\"Save changes\"", with: "\"Save\"") }
        defer { SuiteFixtures.remove(root) }
        let xml = JUnitReport.xml(RunSummary(results: [r], seconds: 0.01), timestamp: "2026-12-01T17:00:00", hostname: "h")
        #expect(JUnitCommonSchema.violations(xml) == [])
        // The expect on line 7 failed: that is the line to annotate.
        #expect(xml.contains("\n at \(root)/bank/bank.scenario:7</failure>"))
        #expect(xml.contains(#"file="\#(root)/bank/bank.scenario">"#))
    }
}

@Suite("HTML report: failures first, speech beside speech, bounded")
struct HTMLReportShapeTests {
    @Test("failures and errors come before passes, in the summary table and the sections")
    func failuresFirst() throws {
        let (root, summary) = try MixedRun.make(keepTranscripts: true)
        defer { SuiteFixtures.remove(root) }
        let html = HTMLReport.html(summary)
        let badges = html.matches(of: /<h3 id="case-\d+-title"><span class="badge (\w+)">/).map { String($0.output.1) }
        #expect(badges == ["error", "fail", "fail", "pass"])
        let rows = html.matches(of: /<td class="(pass|fail|error)"><span aria-hidden/).map { String($0.output.1) }
        #expect(rows == ["error", "fail", "fail", "pass"])
    }

    @Test("the diff table pairs speech with speech and braille with braille, a row a step")
    func speechBesideSpeech() throws {
        let (root, r) = try BankRun.run(scenario: "bank.scenario") { $0.replacingOccurrences(of: "\"Save changes\"", with: "\"Save\"") }
        defer { SuiteFixtures.remove(root) }
        let html = HTMLReport.html(RunSummary(results: [r], seconds: 0.01))
        let table = try #require(html.firstRange(of: "<table class=\"diff\">").map { html[$0.lowerBound...] }.flatMap { t in t.firstRange(of: "</table>").map { t[..<$0.upperBound] } })
        let rows = table.matches(of: /<tr><th scope="row">([^<]*)<\/th>(.*?)<\/tr>/).map { ($0.output.1, $0.output.2) }
        #expect(rows.map { String($0.0) } == ["next (line 6)", "activate (line 9)"])
        // Columns: speech expected, speech now, braille expected, braille now.
        let cells = rows.map { row in row.1.matches(of: /<td class="(\w+)">(?:<span class="who">([^<]*)<\/span>)?/).map { "\($0.output.1) \($0.output.2 ?? "")" } }
        #expect(cells == [
            ["removed heard", "added heard", "removed braille shows", "added braille shows"],
            ["none ", "none ", "removed braille shows", "added braille shows"],
        ])
        #expect(html.contains("<li>after next (line 6): new: expect at line 7 failed, heard «Save, button»</li>"))
    }

    @Test("--html-failures-only keeps a 10,000-case report under 5 MB; listing every pass would not")
    func boundedForThousandsOfPasses() throws {
        let transcript = try String(contentsOfFile: BankRun.fixture + "/bank.golden.jsonl", encoding: .utf8).split(separator: "\n").map(String.init)
        var results: [CaseResult] = []
        for i in 0..<10_000 {
            var r = CaseResult(name: "accessibility/screen\(i)/screen\(i).scenario", file: "accessibility/screen\(i)/screen\(i).scenario",
                               catalog: "accessibility/screen\(i)/screen\(i).catalog.json", profile: "default", outcome: .passed)
            r.transcript = transcript
            results.append(r)
        }
        let (root, failed) = try BankRun.run(scenario: "bank.scenario") { $0.replacingOccurrences(of: "\"Save changes\"", with: "\"Save\"") }
        defer { SuiteFixtures.remove(root) }
        results.append(failed)
        let summary = RunSummary(results: results, seconds: 12)
        let small = HTMLReport.html(summary, failuresOnly: true)
        #expect(small.utf8.count < 5_000_000, "\(small.utf8.count) bytes")
        #expect(small.contains("10000 passing cases are counted but not listed"))
        #expect(small.components(separatedBy: "<h3 id=\"case-").count - 1 == 1)
        let whole = HTMLReport.html(summary)
        #expect(whole.utf8.count > 5_000_000, "the bound is the option's doing: \(whole.utf8.count) bytes")
    }
}
