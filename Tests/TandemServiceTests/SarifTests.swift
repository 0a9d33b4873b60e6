import Foundation
import Testing
import TandemTestSupport

/// The parts of SARIF 2.1.0 (OASIS, "Static Analysis Results Interchange Format Version
/// 2.1.0") that `tandem lint --format sarif` writes, checked structurally, section by section,
/// without the network: each object's properties must be ones the section defines, the
/// required ones present, with values of the type and range the section gives.
enum SarifRules {
    static let levels: Set<String> = ["none", "note", "warning", "error"]  // §3.27.10, §3.50.3

    /// Every way `log` breaks the sections; empty when it keeps them.
    static func violations(_ log: Any) -> [String] {
        var v: [String] = []
        func object(_ x: Any?, _ at: String, allowed: Set<String>, required: Set<String>) -> [String: Any]? {
            guard let o = x as? [String: Any] else { v.append("\(at): not an object"); return nil }
            for k in o.keys.sorted() where !allowed.contains(k) { v.append("\(at): property \(k) is not one the section defines") }
            for k in required.sorted() where o[k] == nil { v.append("\(at): lacks \(k)") }
            return o
        }
        func message(_ x: Any?, _ at: String) {  // §3.11 message, §3.12 multiformatMessageString: text
            guard let m = object(x, at, allowed: ["text", "markdown"], required: ["text"]) else { return }
            if !(m["text"] is String) { v.append("\(at).text: not a string") }
        }
        // §3.13 sarifLog: version "2.1.0" (§3.13.2), runs (§3.13.4), optional $schema (§3.13.3).
        guard let top = object(log, "sarifLog", allowed: ["$schema", "version", "runs"], required: ["version", "runs"]) else { return v }
        if top["version"] as? String != "2.1.0" { v.append("sarifLog.version: not 2.1.0") }
        guard let runs = top["runs"] as? [Any] else { v.append("sarifLog.runs: not an array"); return v }
        for (r, run) in runs.enumerated() {
            let at = "runs[\(r)]"
            // §3.14 run: tool (§3.14.6), results (§3.14.23).
            guard let run = object(run, at, allowed: ["tool", "results"], required: ["tool"]) else { continue }
            // §3.18 tool: driver (§3.18.2); §3.19 toolComponent: name (§3.19.8), version (§3.19.13), rules (§3.19.23).
            let tool = object(run["tool"], at + ".tool", allowed: ["driver"], required: ["driver"])
            let driver = object(tool?["driver"], at + ".tool.driver", allowed: ["name", "version", "rules"], required: ["name"])
            var ruleIDs: [String] = []
            for (k, rule) in ((driver?["rules"] as? [Any]) ?? []).enumerated() {
                let rat = "\(at).tool.driver.rules[\(k)]"
                // §3.49 reportingDescriptor: id (§3.49.3), shortDescription (§3.49.9), help (§3.49.13),
                // helpUri (§3.49.12, an absolute URI), defaultConfiguration (§3.49.14 → §3.50 level).
                guard let d = object(rule, rat, allowed: ["id", "shortDescription", "help", "helpUri", "defaultConfiguration"], required: ["id"]) else { continue }
                ruleIDs.append(d["id"] as? String ?? "")
                if d["shortDescription"] != nil { message(d["shortDescription"], rat + ".shortDescription") }
                if d["help"] != nil { message(d["help"], rat + ".help") }
                if let uri = d["helpUri"] {
                    if (uri as? String).flatMap(URL.init(string:))?.scheme == nil { v.append("\(rat).helpUri: not an absolute URI") }
                }
                if d["defaultConfiguration"] != nil, let c = object(d["defaultConfiguration"], rat + ".defaultConfiguration", allowed: ["level"], required: []),
                   let level = c["level"], !levels.contains(level as? String ?? "") {
                    v.append("\(rat).defaultConfiguration.level: \(level)")
                }
            }
            for (k, result) in ((run["results"] as? [Any]) ?? []).enumerated() {
                let rat = "\(at).results[\(k)]"
                // §3.27 result: message (§3.27.11), ruleId (§3.27.5), ruleIndex (§3.27.6), level (§3.27.10), locations (§3.27.12).
                guard let res = object(result, rat, allowed: ["ruleId", "ruleIndex", "level", "message", "locations"], required: ["message"]) else { continue }
                message(res["message"], rat + ".message")
                if let level = res["level"], !levels.contains(level as? String ?? "") { v.append("\(rat).level: \(level)") }
                if let i = res["ruleIndex"] as? Int {
                    // §3.27.6: ruleIndex points into the driver's rules, at the rule ruleId names.
                    if i < 0 || i >= ruleIDs.count || ruleIDs[i] != res["ruleId"] as? String { v.append("\(rat).ruleIndex: \(i) is not \(res["ruleId"] ?? "")") }
                }
                for (l, location) in ((res["locations"] as? [Any]) ?? []).enumerated() {
                    let lat = "\(rat).locations[\(l)]"
                    // §3.28 location: physicalLocation (§3.28.3), logicalLocations (§3.28.4).
                    guard let loc = object(location, lat, allowed: ["physicalLocation", "logicalLocations"], required: []) else { continue }
                    // §3.29 physicalLocation: artifactLocation (§3.29.3), region (§3.29.4).
                    if let p = object(loc["physicalLocation"], lat + ".physicalLocation", allowed: ["artifactLocation", "region"], required: ["artifactLocation"]) {
                        // §3.4 artifactLocation: uri (§3.4.3), a URI reference.
                        if let a = object(p["artifactLocation"], lat + ".artifactLocation", allowed: ["uri"], required: ["uri"]),
                           (a["uri"] as? String).flatMap(URL.init(string:)) == nil {
                            v.append("\(lat).artifactLocation.uri: not a URI reference")
                        }
                        // §3.30 region: startLine (§3.30.5) and startColumn (§3.30.6), each ≥ 1.
                        if p["region"] != nil, let g = object(p["region"], lat + ".region", allowed: ["startLine", "startColumn"], required: ["startLine"]) {
                            for key in ["startLine", "startColumn"] where g[key] != nil {
                                if ((g[key] as? Int) ?? 0) < 1 { v.append("\(lat).region.\(key): not a positive integer") }
                            }
                        }
                    }
                    // §3.33 logicalLocation: fullyQualifiedName (§3.33.5), kind (§3.33.7).
                    for (n, ll) in ((loc["logicalLocations"] as? [Any]) ?? []).enumerated() {
                        _ = object(ll, "\(lat).logicalLocations[\(n)]", allowed: ["fullyQualifiedName", "kind"], required: [])
                    }
                }
            }
        }
        return v
    }

    static func parse(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }
}

@Suite("tandem lint --format sarif: SARIF 2.1.0 for code scanning")
struct SarifTests {
    @Test("the checks can fail: an unknown property, a bad level, a line 0 and a ruleIndex that names another rule")
    func rulesCanFail() throws {
        let bad = try SarifRules.parse("""
            {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "t", "rules": [{"id": "a"}], "extra": 1}},
             "results": [{"ruleId": "b", "ruleIndex": 0, "level": "fatal", "message": {"text": "m"},
                          "locations": [{"physicalLocation": {"artifactLocation": {"uri": "x"}, "region": {"startLine": 0}}}]}]}]}
            """)
        #expect(SarifRules.violations(bad) == [
            "runs[0].tool.driver: property extra is not one the section defines",
            "runs[0].results[0].level: fatal",
            "runs[0].results[0].ruleIndex: 0 is not b",
            "runs[0].results[0].locations[0].region.startLine: not a positive integer",
        ])
    }

    @Test("the forms fixture as SARIF: valid, every rule described, each result at its element's line and column")
    func formsFixture() throws {
        let r = try CLITests.tandem(["lint", "Tests/Fixtures/lint/forms.catalog.json", "--format", "sarif",
                                     "--docs-url", "https://example.org/tandem/blob/v0.1.0/Docs/lint.md"])
        #expect(r.status == 1, "errors still fail the run: \(r.stderr)")
        let log = try SarifRules.parse(r.stdout)
        #expect(SarifRules.violations(log) == [])
        let run = try #require(((log as? [String: Any])?["runs"] as? [[String: Any]])?.first)
        let rules = try #require(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(rules.count == 17)
        #expect(rules.first?["helpUri"] as? String == "https://example.org/tandem/blob/v0.1.0/Docs/lint.md#missing-label")
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 7)
        let first = try #require(results.first)
        #expect(first["ruleId"] as? String == "label-repeats-trait")
        #expect(first["level"] as? String == "warning")
        let location = try #require((first["locations"] as? [[String: Any]])?.first)
        let physical = try #require(location["physicalLocation"] as? [String: Any])
        #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "Tests/Fixtures/lint/forms.catalog.json")
        // Line 13 is `          { "id": "email.label.says.text.field", …`: the id's value opens at column 19.
        let region = try #require(physical["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 13 && region["startColumn"] as? Int == 19)
        let line13 = try String(contentsOfFile: PackageRoot.path("Tests/Fixtures/lint/forms.catalog.json"), encoding: .utf8).split(separator: "\n")[12]
        #expect(line13.dropFirst(18).hasPrefix("\"email.label.says.text.field\""))
    }

    @Test("no findings is a valid log with an empty results array; without --docs-url a rule's help names its anchor")
    func cleanCatalog() throws {
        let r = try CLITests.tandem(["lint", "Examples/jobs/jobs.catalog.json", "--format", "sarif"])
        #expect(r.status == 0)
        let log = try SarifRules.parse(r.stdout)
        #expect(SarifRules.violations(log) == [])
        #expect(r.stdout.contains("\"results\": []"))
        #expect(r.stdout.contains("Docs/lint.md#small-target in Tandem's repository"))
        #expect(!r.stdout.contains("helpUri"))
    }

    @Test("Docs/lint.md#sarif: the line runs as written over a folder of suites and writes a valid log")
    func docLine() throws {
        let line = try DocBlock.first("Docs/lint.md", language: "sh", after: "<a id=\"sarif\"></a>")
        let root = CLITests.temporaryPath("sarif-doc")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/accessibility/forms", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: PackageRoot.path("Tests/Fixtures/lint/forms.catalog.json"), toPath: root + "/accessibility/forms/forms.catalog.json")
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = TandemBinary.buildDirectory.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        let r = try ProcessRunner.run(["/bin/sh", "-c", line], environment: env, directory: root)
        #expect(r.status == 1, "the errors fail the step: \(r.stderr)")
        let log = try SarifRules.parse(try String(contentsOfFile: root + "/tandem-lint.sarif", encoding: .utf8))
        #expect(SarifRules.violations(log) == [])
        #expect(try String(contentsOfFile: root + "/tandem-lint.sarif", encoding: .utf8).contains("\"uri\": \"accessibility/forms/forms.catalog.json\""))
    }

    @Test("a path with a space is a percent-encoded URI reference")
    func pathsAreURIs() throws {
        let dir = CLITests.temporaryPath("sarif dir")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: PackageRoot.path("Tests/Fixtures/lint/off-screen.catalog.json"), toPath: dir + "/off screen.catalog.json")
        let r = try CLITests.tandem(["lint", dir + "/off screen.catalog.json", "--format", "sarif"])
        #expect(SarifRules.violations(try SarifRules.parse(r.stdout)) == [])
        #expect(r.stdout.contains("sarif%20dir/off%20screen.catalog.json"))
    }
}
