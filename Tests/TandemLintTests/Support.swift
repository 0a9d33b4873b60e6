import Foundation
import TandemLint
import TandemModel

/// Lints the catalogs under `Tests/Fixtures/lint/` (one per rule, ids that say what each
/// element is there to show) and the samples under `Examples/`.
enum LintFixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func decode(_ path: String, file: String) throws -> (Catalog, CatalogLines) {
        var decoder = CatalogDecoder(file: file)
        let catalog = try decoder.decode(Array(try Data(contentsOf: packageRoot.appendingPathComponent(path))))
        return (catalog, decoder.lines)
    }

    /// Every finding of the fixture `name`.catalog.json (named so in findings).
    static func lint(_ name: String, disabled: Set<String> = []) throws -> [Finding] {
        let file = "\(name).catalog.json"
        let (catalog, lines) = try decode("Tests/Fixtures/lint/\(file)", file: file)
        return try Linter(disabled: disabled).lint(catalog, lines: lines, file: file)
    }

    /// The findings of one rule, as `element: severity` (or `screen: severity` for a screen).
    static func found(_ rule: LintRule, in name: String) throws -> [String] {
        try lint(name).filter { $0.rule == rule.id }.map { "\($0.element ?? $0.screen): \($0.severity.rawValue)" }
    }

    static func lintInline(_ json: String, file: String = "x.catalog.json") throws -> [Finding] {
        var decoder = CatalogDecoder(file: file)
        let catalog = try decoder.decode(Array(json.utf8))
        return try Linter().lint(catalog, lines: decoder.lines, file: file)
    }
}
