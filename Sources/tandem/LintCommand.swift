import Foundation
import TandemLint
import TandemModel
import TandemVocabulary

/// `tandem lint CATALOG…`: the accessibility audit. One line a finding (`FILE:LINE: PATH:
/// SEVERITY: message [rule]`) and a closing count, or one JSON document with `--format json`.
/// Exit 1 when an error is found (or a warning, with `--strict`), 2 when a catalog does not
/// load (the others are still linted).
enum LintCommand {
    static func run(_ args: Arguments) throws(CLIError) -> Int32 {
        if args.flags.contains("--list-rules") {
            for r in LintRule.all {
                print("\(r.id.padding(toLength: 28, withPad: " ", startingAt: 0)) \(r.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(r.summary)")
            }
            return 0
        }
        guard !args.positional.isEmpty else { throw .usage("expected at least one CATALOG") }
        try args.oneStandardInput()
        let disabled = try disabledRules(args.values["--disable"] ?? [])
        let format = args.options["--format"] ?? "text"
        guard ["text", "json", "sarif"].contains(format) else { throw .invalid("--format is text, json or sarif, not \"\(format)\"") }

        let linter = Linter(disabled: disabled)
        var findings: [Finding] = []
        var failed: [Diagnostic] = []
        for path in args.positional {
            do throws(CLIError) {
                let (catalog, lines) = try InputFile.catalog(path)
                do { findings += try linter.lint(catalog, lines: lines, file: InputFile.name(path)) } catch { throw .input(error) }
            } catch {
                guard case .input(let d) = error else { throw error }
                printErr("tandem: error: \(d)")
                failed.append(d)
            }
        }
        let strict = args.flags.contains("--strict")
        if format == "json" {
            print(json(findings, failed: failed, catalogs: args.positional.count))
        } else if format == "sarif" {
            let rules = LintRule.all.filter { !disabled.contains($0.id) }
            print(SarifLog.json(findings, columns: columns(findings), rules: rules, version: CLI.version, docsURL: args.options["--docs-url"]))
        } else {
            for f in findings { print(f) }
            print(summary(findings, catalogs: args.positional.count - failed.count))
        }
        if !failed.isEmpty { return 2 }
        let failing = findings.contains { $0.severity == .error || (strict && $0.severity == .warning) }
        return failing ? 1 : 0
    }

    /// Each finding's column: where its element's (or screen's) id is written on its line; nil
    /// for standard input or when the line does not hold it.
    static func columns(_ findings: [Finding]) -> [Int?] {
        var texts: [String: [Substring]] = [:]
        return findings.map { f in
            guard let line = f.line, f.file != "<stdin>" else { return nil }
            if texts[f.file] == nil {
                let text = FileManager.default.contents(atPath: f.file).map { String(decoding: $0, as: UTF8.self) } ?? ""
                texts[f.file] = text.split(separator: "\n", omittingEmptySubsequences: false)
            }
            guard let lines = texts[f.file], line - 1 < lines.count else { return nil }
            let text = lines[line - 1]
            let id = JSONText.quote(f.element ?? f.screen)
            guard let key = text.range(of: "\"id\""), let value = text.range(of: id, range: key.upperBound..<text.endIndex) else { return nil }
            return text.distance(from: text.startIndex, to: value.lowerBound) + 1
        }
    }

    /// `--disable a,b --disable c`: every name must be a rule.
    static func disabledRules(_ values: [String]) throws(CLIError) -> Set<String> {
        var out: Set<String> = []
        for v in values {
            for name in v.split(separator: ",").map({ String($0).trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
                guard LintRule.named(name) != nil else {
                    throw .invalid("--disable: unknown rule \"\(name)\" (rules: \(LintRule.all.map(\.id).joined(separator: ", ")))")
                }
                out.insert(name)
            }
        }
        return out
    }

    static func summary(_ findings: [Finding], catalogs: Int) -> String {
        let where_ = "in \(catalogs) catalog\(catalogs == 1 ? "" : "s")"
        if findings.isEmpty { return "no findings \(where_)" }
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.filter { $0.severity == .warning }.count
        let info = findings.filter { $0.severity == .info }.count
        return "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"), \(info) info \(where_)"
    }

    struct Report: Encodable {
        struct Item: Encodable {
            let rule, severity, file, path, screen, message: String
            let line: Int?
            let element, context, source: String?
        }
        struct Failure: Encodable {
            let file: String
            let line: Int?
            let path, message: String
        }
        let catalogs, errors, warnings, info: Int
        let findings: [Item]
        let failed: [Failure]
    }

    static func json(_ findings: [Finding], failed: [Diagnostic], catalogs: Int) -> String {
        let report = Report(
            catalogs: catalogs,
            errors: findings.filter { $0.severity == .error }.count,
            warnings: findings.filter { $0.severity == .warning }.count,
            info: findings.filter { $0.severity == .info }.count,
            findings: findings.map {
                Report.Item(rule: $0.rule, severity: $0.severity.rawValue, file: $0.file, path: $0.path, screen: $0.screen,
                            message: $0.message, line: $0.line, element: $0.element, context: $0.context,
                            source: $0.source)
            },
            failed: failed.map { Report.Failure(file: $0.file, line: $0.line, path: $0.path, message: $0.message) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data = (try? encoder.encode(report)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
