import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TandemService
import TandemSession
import TandemSuites

/// A run with one case of each outcome: passed, failed (changed golden), failed (no golden),
/// error (a broken catalog), and a name that needs escaping.
enum MixedRun {
    static func make(keepTranscripts: Bool = false) throws -> (root: String, summary: RunSummary) {
        let root = try SuiteFixtures.folder("mixed")
        try FileManager.default.createDirectory(atPath: root + "/grocery", withIntermediateDirectories: true)
        for f in ["grocery.catalog.json", "grocery.scenario", "grocery.golden.jsonl"] { try SuiteFixtures.copySample("grocery", f, to: root + "/grocery") }
        try SuiteFixtures.copySample("grocery", "grocery.scenario", to: root + "/grocery", as: "grocery.r&d <new>.scenario")
        try FileManager.default.createDirectory(atPath: root + "/pizza", withIntermediateDirectories: true)
        for f in ["pizza.catalog.json", "pizza.scenario"] { try SuiteFixtures.copySample("pizza", f, to: root + "/pizza") }
        let golden = try String(contentsOfFile: SuiteFixtures.packageRoot.appendingPathComponent("Examples/pizza/pizza.golden.jsonl").path, encoding: .utf8)
        try golden.replacingOccurrences(of: "Пицца", with: "Pizza").write(toFile: root + "/pizza/pizza.golden.jsonl", atomically: true, encoding: .utf8)
        try SuiteFixtures.write("{ \"format\": \"tandem.catalog/1\" }", root + "/broken/broken.catalog.json")
        try SuiteFixtures.write("next\n", root + "/broken/broken.scenario")
        let summary = SuiteFixtures.runner(keepTranscripts: keepTranscripts).run(try SuiteFixtures.plan([root]))
        return (root, summary)
    }
}

@Suite("JUnit report: what GitHub, GitLab and Jenkins read")
struct JUnitReportTests {
    @Test("well-formed XML: one testsuite a scenario file, one testcase a case, failures with the diff in words, errors for bad input")
    func structure() throws {
        let (root, summary) = try MixedRun.make()
        defer { SuiteFixtures.remove(root) }
        #expect(SuiteFixtures.outcomes(summary) == ["broken.scenario: error", "grocery.r&d <new>.scenario: failed", "grocery.scenario: passed", "pizza.scenario: failed"])
        let xml = JUnitReport.xml(summary, timestamp: "2026-12-01T17:00:00", hostname: "ci-runner")
        #if canImport(FoundationXML)
        let doc = try XMLDocument(xmlString: xml)
        let top = try #require(doc.rootElement())
        #expect(top.name == "testsuites")
        #expect(top.attribute(forName: "tests")?.stringValue == "4")
        #expect(top.attribute(forName: "failures")?.stringValue == "2")
        #expect(top.attribute(forName: "errors")?.stringValue == "1")
        let suites = top.elements(forName: "testsuite")
        #expect(suites.compactMap { $0.attribute(forName: "name")?.stringValue.map(SuitePath.file(of:)) } == ["broken.scenario", "grocery.r&d <new>.scenario", "grocery.scenario", "pizza.scenario"])
        let cases = try doc.nodes(forXPath: "//testcase") as? [XMLElement] ?? []
        #expect(cases.compactMap { $0.attribute(forName: "name")?.stringValue } == ["broken.scenario", "grocery.r&d <new>.scenario", "grocery.scenario", "pizza.scenario"])
        #expect(cases[2].children?.isEmpty ?? true, "a passing case has no children")
        let error = try #require(cases[0].elements(forName: "error").first)
        #expect(error.attribute(forName: "type")?.stringValue == "bad-input")
        #expect(error.stringValue?.contains("broken.catalog.json:1: missing field \"screens\"") == true)
        let missing = try #require(cases[1].elements(forName: "failure").first)
        #expect(missing.attribute(forName: "type")?.stringValue == "missing-golden")
        #expect(missing.attribute(forName: "message")?.stringValue?.contains("record it with: tandem test --update") == true)
        let differs = try #require(cases[3].elements(forName: "failure").first)
        #expect(differs.attribute(forName: "type")?.stringValue == "golden")
        #expect(differs.stringValue?.contains("at the start:\n  heard «Пицца, заголовок» — was «Pizza, заголовок»") == true)
        #expect(differs.stringValue?.contains("\"ch\"") == false, "no raw JSON lines in the words")
        #else
        Issue.record("FoundationXML is not available to check the XML")
        #endif
    }

    @Test("markup characters and control characters are escaped")
    func escaping() throws {
        let (root, summary) = try MixedRun.make()
        defer { SuiteFixtures.remove(root) }
        let xml = JUnitReport.xml(summary, timestamp: "2026-12-01T17:00:00", hostname: "ci-runner")
        #expect(xml.contains("grocery.r&amp;d &lt;new&gt;.scenario"))
        #expect(!xml.contains("r&d"))
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
    }
}

@Suite("HTML report: self-contained and readable by a screen reader")
struct HTMLReportTests {
    @Test("no script, no network, no external file; headings per case; captioned tables; speech text carries its language")
    func selfContainedAndAccessible() throws {
        let (root, summary) = try MixedRun.make(keepTranscripts: true)
        defer { SuiteFixtures.remove(root) }
        let html = HTMLReport.html(summary)
        for forbidden in ["<script", "<link", "src=", "http://", "https://", "url("] {
            #expect(!html.contains(forbidden), "the report contains \(forbidden)")
        }
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.components(separatedBy: "<h1>").count - 1 == 1)
        #expect(html.components(separatedBy: "<h3 id=\"case-").count - 1 == 4)
        #expect(html.components(separatedBy: "<table").count == html.components(separatedBy: "<caption>").count)
        #expect(html.contains("<th scope=\"col\">Speech expected</th>"))
        #expect(html.contains("<td lang=\"ru\">Пицца, заголовок</td>"))
        #expect(html.contains("<span lang=\"ru\">Пицца, заголовок</span>"), "the diff's speech carries its language too")
        // Results in words, not only in colour.
        #expect(html.contains("Failed</span> "))
        #expect(html.contains(">Cut</td>") || html.contains(">Dropped</td>") || html.contains(">Postponed</td>"))
    }

    @Test("in a real browser: Chromium loads the page, its DOM has the headings and tables, and a screenshot is a PNG")
    func inChromium() throws {
        guard let chromium = Chromium.path else {
            Issue.record("chromium is not installed: run scripts/install-deps.sh (CI installs it); the HTML report must be checked in a real browser")
            return
        }
        let (root, summary) = try MixedRun.make(keepTranscripts: true)
        defer { SuiteFixtures.remove(root) }
        let page = root + "/report/index.html"
        try SuiteFixtures.write(HTMLReport.html(summary), page)

        let dom = try Chromium.run(chromium, ["--dump-dom", "file://" + page], profile: root + "/chromium")
        #expect(dom.status == 0, "\(dom.stderr.suffix(2000))")
        #expect(dom.stdout.contains("<h1>Tandem test report</h1>"))
        #expect(dom.stdout.contains("<h2 id=\"summary-title\">Summary</h2>"))
        #expect(dom.stdout.components(separatedBy: "<h3 id=\"case-").count - 1 == summary.results.count)
        #expect(dom.stdout.contains("<table class=\"summary\">"))
        #expect(dom.stdout.contains("<table class=\"speech\">"))
        #expect(dom.stdout.contains("<table class=\"braille\">"))
        #expect(dom.stdout.contains("<caption>Every case, failures first, then in run order: 1 passed, 2 failed, 1 error in "))

        let shot = root + "/report/screenshot.png"
        let png = try Chromium.run(chromium, ["--screenshot=" + shot, "--window-size=1280,2400", "file://" + page], profile: root + "/chromium")
        #expect(png.status == 0, "\(png.stderr.suffix(2000))")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: shot))
        #expect(bytes.count > 10_000, "a 1280×2400 screenshot of a full page is more than a blank")
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }
}

/// Debian's Chromium, headless.
enum Chromium {
    static var path: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    struct Run { var status: Int32; var stdout: String; var stderr: String }

    /// Runs it headless with its own profile folder, and stops it after a minute at most.
    static func run(_ binary: String, _ args: [String], profile: String) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=" + profile] + args
        p.currentDirectoryURL = URL(fileURLWithPath: SuitePath.folder(of: profile))
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let watchdog = DispatchWorkItem { if p.isRunning { p.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        watchdog.cancel()
        return Run(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }
}
