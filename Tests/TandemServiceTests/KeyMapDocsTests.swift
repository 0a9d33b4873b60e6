import Foundation
import TandemVocabulary
import Testing
import TandemNavigator
@testable import TandemService
@testable import TandemSession
import TandemTestSupport

/// Docs/keymaps.md is checked against the code's one command table and default key maps, so
/// the page a tester reads can never drift from what the keys do.
@Suite("Docs/keymaps.md matches the command table and the default maps")
struct KeyMapDocsTests {
    let page: String

    init() throws {
        page = try String(contentsOfFile: PackageRoot.path("Docs/keymaps.md"), encoding: .utf8)
    }

    /// Table rows (cells without the outer pipes) of the section headed `heading`.
    func rows(under heading: String) -> [[String]] {
        guard let start = page.range(of: "\n## " + heading) else { return [] }
        let rest = page[start.upperBound...]
        let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        return section.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("|---") }.dropFirst().map { line in
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test("the Commands table lists every command, in the table's order, with its handler and summary")
    func commandsTable() {
        let documented = rows(under: "Commands").map { $0.joined(separator: " | ") }
        let expected = Command.table.map { "`\($0.usage)` | \($0.handler.rawValue) | \($0.summary)" }
        #expect(documented == expected)
    }

    @Test("every default braille binding is documented with its command")
    func brailleMap() {
        let documented = rows(under: "Default braille map").map { $0[0] + " → " + $0[2] }.joined(separator: "\n")
        for (key, binding) in KeyMap.default.braille {
            let command = binding.name == "route" ? "`route n`" : "`\(binding.name)`"
            let found = documented.split(separator: "\n").contains { $0.contains("`\(key)") && $0.contains(command) }
            #expect(found, "\(key) → \(binding.name) is not in Docs/keymaps.md")
        }
    }

    @Test("Docs/braille.md's key table lists every default braille binding too (it had left out SAY_ABOVE)")
    func braillePageMap() throws {
        let braillePage = try String(contentsOfFile: PackageRoot.path("Docs/braille.md"), encoding: .utf8)
        let start = try #require(braillePage.range(of: "\n## Default key map"))
        let rest = braillePage[start.upperBound...]
        let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| `") }
        for (key, binding) in KeyMap.default.braille {
            let found = rows.contains { $0.hasPrefix("| `\(key)`") && $0.contains("| \(binding.name) |") }
            #expect(found, "\(key) → \(binding.name) is not in Docs/braille.md's key table")
        }
    }

    @Test("every default terminal binding's command is in the terminal table")
    func terminalMap() {
        let commands = rows(under: "Default terminal map").map { $0[1] }.joined(separator: " ")
        for name in Set(KeyMap.defaultTerminal.values.map(\.name)) where name != "quit" {
            #expect(commands.contains("`\(name)`"), "\(name) has a terminal key but is not in Docs/keymaps.md")
        }
    }
}
