import Foundation
import Testing
import TandemLint
import TandemModel
import TandemNavigator
import TandemPresentation

@Suite("Linter: states, exceptions, places and the samples")
struct LinterTests {
    static let sheetCatalog = """
        {
          "format": "tandem.catalog/1",
          "screens": [
            { "id": "home", "title": "Home", "focus": "home.title",
              "root": { "id": "home.root", "children": [
                { "id": "home.title", "label": "Home", "traits": ["header"] },
                { "id": "rename", "label": "Close", "traits": ["button"],
                  "actions": [ { "name": "Rename", "do": [ { "set": "rename", "label": "Close button" } ] } ] }
              ] } }
          ]
        }
        """

    @Test("a label an action sets is checked too, and the finding says after what")
    func labelSetByAnAction() throws {
        let findings = try LintFixtures.lintInline(Self.sheetCatalog).filter { $0.rule == "label-repeats-trait" }
        #expect(findings.count == 1)
        #expect(findings.first?.context == "after the action \"Rename\" of \"rename\"")
        #expect(findings.first?.description == "x.catalog.json:7: screens[0].root.children[1]: warning: the label \"Close button\" of \"rename\" says \"button\", which its button trait already says (after the action \"Rename\" of \"rename\") [label-repeats-trait]")
    }

    @Test("a \"lint\" exception on an element allows its rules for its whole subtree, and nothing else")
    func exceptionCoversSubtree() throws {
        let json = """
            {
              "format": "tandem.catalog/1",
              "screens": [
                { "id": "bar", "title": "Bar", "focus": "bar.title",
                  "root": { "id": "bar.root", "children": [
                    { "id": "bar.title", "label": "Bar", "traits": ["header"], "frame": [0, 0, 390, 44] },
                    { "id": "bar.icons", "lint": { "allow": ["small-target"], "why": "icons in a 44 pt bar" }, "children": [
                      { "id": "bar.icons.share", "label": "Share", "traits": ["button"], "frame": [0, 50, 30, 30] },
                      { "id": "bar.icons.close", "label": "Close button", "traits": ["button"], "frame": [40, 50, 30, 30] }
                    ] },
                    { "id": "bar.other", "label": "Other", "traits": ["button"], "frame": [80, 50, 30, 30] }
                  ] } }
              ]
            }
            """
        let findings = try LintFixtures.lintInline(json)
        #expect(findings.filter { $0.rule == "small-target" }.map { $0.element } == ["bar.other"])
        #expect(findings.contains { $0.rule == "label-repeats-trait" && $0.element == "bar.icons.close" })
    }

    @Test("a screen's exception allows a screen finding")
    func screenException() throws {
        let json = """
            { "format": "tandem.catalog/1", "screens": [
              { "id": "alert", "lint": { "allow": ["no-heading", "first-focus-not-title"], "why": "a system-style alert" },
                "root": { "id": "alert.root", "children": [ { "id": "alert.text", "label": "Sure?" }, { "id": "a", "label": "A" },
                  { "id": "b", "label": "B" }, { "id": "c", "label": "C" } ] } } ] }
            """
        #expect(try LintFixtures.lintInline(json).isEmpty)
    }

    @Test("an exception naming no rule is bad input, with the line of \"lint\"")
    func unknownRuleInException() throws {
        let json = """
            { "format": "tandem.catalog/1", "screens": [
              { "id": "s", "root": { "id": "r", "children": [
                { "id": "x", "label": "X",
                  "lint": { "allow": ["small-targets"], "why": "typo" } } ] } } ] }
            """
        #expect {
            _ = try LintFixtures.lintInline(json)
        } throws: { error in
            let d = error as? Diagnostic
            return d?.line == 4 && d?.path == "screens[0].root.children[0].lint.allow"
                && d?.message.hasPrefix("unknown lint rule \"small-targets\" (rules: missing-label, ") == true
        }
    }

    @Test("an exception must say why")
    func exceptionNeedsReason() throws {
        let json = """
            { "format": "tandem.catalog/1", "screens": [ { "id": "s", "root": { "id": "r",
              "lint": { "allow": ["small-target"] } } } ] }
            """
        #expect(throws: Diagnostic.self) { _ = try LintFixtures.lintInline(json) }
    }

    @Test("a disabled rule reports nothing")
    func disabledRule() throws {
        #expect(try !LintFixtures.lint("small-target").filter { $0.rule == "small-target" }.isEmpty)
        #expect(try LintFixtures.lint("small-target", disabled: ["small-target"]).filter { $0.rule == "small-target" }.isEmpty)
    }

    @Test("every rule has an id, a fixture and a section in Docs/lint.md")
    func everyRuleDocumented() throws {
        let doc = try String(contentsOf: LintFixtures.packageRoot.appendingPathComponent("Docs/lint.md"), encoding: .utf8)
        for rule in LintRule.all {
            #expect(doc.contains("\n## `\(rule.id)`"), "Docs/lint.md has no section for \(rule.id)")
            let fixture = LintFixtures.packageRoot.appendingPathComponent("Tests/Fixtures/lint/\(rule.id).catalog.json")
            #expect(FileManager.default.fileExists(atPath: fixture.path), "no fixture for \(rule.id)")
        }
        #expect(Set(LintRule.all.map(\.id)).count == LintRule.all.count)
    }

    @Test("the four samples lint with no error and no warning (exceptions say why)")
    func samplesLintClean() throws {
        for sample in ["grocery", "pizza", "albums", "jobs"] {
            let file = "\(sample).catalog.json"
            let (catalog, lines) = try LintFixtures.decode("Examples/\(sample)/\(file)", file: file)
            let findings = try Linter().lint(catalog, lines: lines, file: file)
            #expect(findings.filter { $0.severity != .info }.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
        }
    }

    @Test("lint's label for every reachable element of the samples is what the presenter speaks")
    func labelsAgreeWithPresenter() throws {
        for sample in ["grocery", "pizza", "albums", "jobs"] {
            let (catalog, _) = try LintFixtures.decode("Examples/\(sample)/\(sample).catalog.json", file: sample)
            for screen in catalog.screens {
                var nav = Navigator(catalog: catalog, screen: screen.id)
                let presenter = Presenter(language: catalog.language)
                let order = nav.readingOrder()
                for i in order.elements {
                    #expect(Linter.spokenLabel(of: i, on: screen, in: catalog) == presenter.label(for: i, in: nav), "\(sample) \(screen.elements[i].id)")
                }
            }
        }
    }
}
