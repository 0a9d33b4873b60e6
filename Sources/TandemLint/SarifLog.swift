import TandemModel
import TandemVocabulary

/// Findings as a SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format), which
/// GitHub code scanning and GitLab read: one run of the `tandem` tool whose driver lists every
/// rule (id, summary, its doc anchor, its level), one result a finding, located by file, line
/// and column (the element's `id`) and, logically, by the element's JSON path.
///
/// Only what the format defines is written (the sections cited are those of the SARIF 2.1.0
/// specification): sarifLog §3.13, run §3.14, tool §3.18, toolComponent §3.19,
/// reportingDescriptor §3.49, result §3.27, location §3.28, physicalLocation §3.29,
/// artifactLocation §3.4, region §3.30, logicalLocation §3.33.
public enum SarifLog {
    /// `columns[k]`: the 1-based column of finding k's `id` value, when known. `docsURL`: the
    /// absolute address of Docs/lint.md (§3.49.12 wants an absolute URI); without it each rule's
    /// help names the page and anchor in words.
    public static func json(_ findings: [Finding], columns: [Int?], rules: [LintRule] = LintRule.all,
                            version: String, docsURL: String? = nil) -> String {
        let index = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($0.element.id, $0.offset) })
        var out = "{\n"
        out += "  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
        out += "  \"version\": \"2.1.0\",\n"
        out += "  \"runs\": [\n    {\n"
        out += "      \"tool\": {\n        \"driver\": {\n"
        out += "          \"name\": \"tandem\",\n"
        out += "          \"version\": \(q(version)),\n"
        out += "          \"rules\": ["
        out += rules.map { r in
            var d = "\n            {\n"
            d += "              \"id\": \(q(r.id)),\n"
            d += "              \"shortDescription\": { \"text\": \(q(r.summary)) },\n"
            let anchor = "Docs/lint.md#\(r.id)"
            d += "              \"help\": { \"text\": \(q("\(r.summary). The rule's story, what it checks and how to fix it: \(anchor) in Tandem's repository.")) },\n"
            if let docsURL { d += "              \"helpUri\": \(q(docsURL + "#" + r.id)),\n" }
            d += "              \"defaultConfiguration\": { \"level\": \(q(level(r.severity))) }\n"
            return d + "            }"
        }.joined(separator: ",")
        out += "\n          ]\n        }\n      },\n"
        out += "      \"results\": ["
        out += findings.enumerated().map { k, f in
            var r = "\n        {\n"
            r += "          \"ruleId\": \(q(f.rule)),\n"
            if let i = index[f.rule] { r += "          \"ruleIndex\": \(i),\n" }
            r += "          \"level\": \(q(level(f.severity))),\n"
            var text = f.message
            if let c = f.context { text += " (\(c))" }
            if let s = f.source { text += " (from \(s))" }
            r += "          \"message\": { \"text\": \(q(text)) },\n"
            r += "          \"locations\": [\n            {\n"
            r += "              \"physicalLocation\": {\n"
            r += "                \"artifactLocation\": { \"uri\": \(q(uri(f.file))) }"
            if let line = f.line {
                var region = "\"startLine\": \(line)"
                if k < columns.count, let c = columns[k] { region += ", \"startColumn\": \(c)" }
                r += ",\n                \"region\": { \(region) }"
            }
            r += "\n              },\n"
            r += "              \"logicalLocations\": [ { \"fullyQualifiedName\": \(q(f.path)), \"kind\": \"element\" } ]\n"
            r += "            }\n          ]\n        }"
            return r
        }.joined(separator: ",")
        out += (findings.isEmpty ? "" : "\n      ") + "]\n    }\n  ]\n}"
        return out
    }

    /// §3.27.10: `error`, `warning`, `note` (Tandem's `info`).
    public static func level(_ s: Severity) -> String {
        switch s {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    /// A path as a relative URI reference (§3.4.3): `/` kept, anything outside RFC 3986's
    /// unreserved characters percent-encoded.
    public static func uri(_ path: String) -> String {
        var out = ""
        for b in path.utf8 {
            let c = Character(Unicode.Scalar(b))
            if c.isASCII && (c.isLetter || c.isNumber || "-._~/".contains(c)) { out.append(c) } else {
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(b >> 4)]) + String(hex[Int(b & 15)])
            }
        }
        return out
    }

    static func q(_ s: String) -> String { JSONText.quote(s) }
}
