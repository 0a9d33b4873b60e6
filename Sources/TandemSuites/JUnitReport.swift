import Foundation

/// JUnit XML as GitHub (test-reporter actions), GitLab (`artifacts:reports:junit`) and Jenkins
/// (`junit`, and the xUnit plugin's strict schema) read it: one `testsuite` a scenario file, one
/// `testcase` a case of it (profile × language), a `failure` with the diff in words when the
/// transcript differs, an `error` when a case could not run (bad input). Problems found while
/// looking for suites are test cases in error too, so that a report never looks complete while
/// something was left out.
///
/// Only the elements and attributes of the common schema (the Jenkins xUnit plugin's
/// `junit-10.xsd`) are written: `testcase` has `name`, `classname` and `time` only. The scenario
/// is the `testsuite`'s `file`, and a failure's text ends with `at FILE:LINE` (the failed
/// `expect`, or the step that caused the first change), which is where GitHub's JUnit actions
/// look for the line to annotate when a test case has no `line` attribute.
public enum JUnitReport {
    /// `timestamp` and `hostname` describe the run (`timestamp(_:)` formats a date).
    public static func xml(_ summary: RunSummary, timestamp: String, hostname: String) -> String {
        var groups: [(name: String, results: [CaseResult])] = []
        var index: [String: Int] = [:]
        for r in summary.results {
            if let i = index[r.file] { groups[i].results.append(r) } else { index[r.file] = groups.count; groups.append((r.file, [r])) }
        }
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += "<testsuites name=\"tandem\" tests=\"\(summary.results.count)\" failures=\"\(summary.failed)\" errors=\"\(summary.errors)\" time=\"\(seconds(summary.seconds * 1000))\">\n"
        for g in groups {
            let failures = g.results.filter { if case .failed = $0.outcome { true } else { false } }.count
            let errors = g.results.filter(\.isError).count
            let time = g.results.reduce(0) { $0 + $1.milliseconds }
            out += "  <testsuite name=\"\(Markup.escape(g.name))\" tests=\"\(g.results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\""
                + " time=\"\(seconds(time))\" timestamp=\"\(Markup.escape(timestamp))\" hostname=\"\(Markup.escape(hostname))\" file=\"\(Markup.escape(g.name))\">\n"
            for r in g.results { out += testcase(r) }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    /// A date as the common schema's `timestamp`: ISO 8601 in UTC, to the second, no zone.
    public static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String { let n = n ?? 0; return n < 10 ? "0\(n)" : "\(n)" }
        return "\(c.year ?? 1970)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))"
    }

    static func testcase(_ r: CaseResult) -> String {
        let file = SuitePath.file(of: r.file)
        let name = r.name.hasPrefix(r.file) ? file + r.name.dropFirst(r.file.count) : r.name
        var out = "    <testcase name=\"\(Markup.escape(name))\" classname=\"\(Markup.escape(SuitePath.folder(of: r.file)))\" time=\"\(seconds(r.milliseconds))\""
        switch r.outcome {
        case .passed:
            guard let w = r.written else { return out + "/>\n" }
            let note = switch w {
            case .recorded(let g): "recorded \(g)"
            case .updated(let g, let n): "updated \(g) (\(n) changed line\(n == 1 ? "" : "s"))"
            }
            out += ">\n      <system-out>\(Markup.escape(note))</system-out>\n"
        case .failed(let failures):
            let message = failures.map { $0.summary(scenario: r.file) }.joined(separator: "; ")
            let kind = switch failures[0] {
            case .differs: "golden"
            case .missingGolden: "missing-golden"
            case .expectFailed: "expect"
            case .cutShort: "cut-short"
            case .appFailed: "app"
            }
            var body = failures.map { f in [f.summary(scenario: r.file), f.details()].compactMap { $0 }.joined(separator: "\n") }.joined(separator: "\n\n")
            if let line = failures.lazy.compactMap(\.scenarioLine).first { body += "\n at \(r.file):\(line)" }
            out += ">\n      <failure message=\"\(Markup.escape(message))\" type=\"\(kind)\">\(Markup.escape(body))</failure>\n"
        case .error(let d):
            out += ">\n      <error message=\"\(Markup.escape(d.description))\" type=\"bad-input\">\(Markup.escape(d.description))</error>\n"
        }
        return out + "    </testcase>\n"
    }

    /// Milliseconds as seconds with three decimals.
    static func seconds(_ ms: Double) -> String {
        let whole = Int(ms.rounded())
        let frac = whole % 1000
        return "\(whole / 1000)." + String(repeating: "0", count: 3 - String(frac).count) + String(frac)
    }
}
