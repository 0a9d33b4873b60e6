/// JUnit XML as GitHub (test-reporter actions), GitLab (`artifacts:reports:junit`) and Jenkins
/// (`junit`) read it: one `testsuite` a catalog, one `testcase` a scenario × profile ×
/// language, a `failure` with the readable diff when the transcript differs, an `error` when a
/// case could not run (bad input). Problems found while looking for suites are test cases in
/// error too, so that a report never looks complete while something was left out.
public enum JUnitReport {
    public static func xml(_ summary: RunSummary) -> String {
        var groups: [(name: String, results: [CaseResult])] = []
        for r in summary.results {
            let group = r.catalog ?? SuitePath.folder(of: r.file)
            if let i = groups.firstIndex(where: { $0.name == group }) { groups[i].results.append(r) } else { groups.append((group, [r])) }
        }
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += "<testsuites name=\"tandem\" tests=\"\(summary.results.count)\" failures=\"\(summary.failed)\" errors=\"\(summary.errors)\" time=\"\(seconds(summary.seconds * 1000))\">\n"
        for g in groups {
            let failures = g.results.filter { if case .failed = $0.outcome { true } else { false } }.count
            let errors = g.results.filter(\.isError).count
            let time = g.results.reduce(0) { $0 + $1.milliseconds }
            out += "  <testsuite name=\"\(Markup.escape(g.name))\" tests=\"\(g.results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\" time=\"\(seconds(time))\">\n"
            for r in g.results { out += testcase(r) }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    static func testcase(_ r: CaseResult) -> String {
        let file = SuitePath.file(of: r.file)
        let name = r.name.hasPrefix(r.file) ? file + r.name.dropFirst(r.file.count) : r.name
        var out = "    <testcase classname=\"\(Markup.escape(SuitePath.folder(of: r.file)))\" name=\"\(Markup.escape(name))\" file=\"\(Markup.escape(r.file))\" time=\"\(seconds(r.milliseconds))\""
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
            }
            let body = failures.map { f in [f.summary(scenario: r.file), f.details].compactMap { $0 }.joined(separator: "\n") }.joined(separator: "\n\n")
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
