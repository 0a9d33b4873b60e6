import Foundation
import TandemATSPI
import TandemTestSupport
import Testing

/// The role table (RoleTable.rows) is the one in Docs/atspi.md, and it covers every role the
/// installed libatspi knows.
@Suite struct RoleTableTests {
    /// The `| role | Tandem |` rows of Docs/atspi.md's role table.
    static func documentedRows() throws -> [(String, String)] {
        let text = try String(contentsOfFile: PackageRoot.path("Docs/atspi.md"), encoding: .utf8)
        guard let start = text.range(of: "<!-- role table -->"), let end = text.range(of: "<!-- end of role table -->") else {
            throw TestSupportError("Docs/atspi.md has no <!-- role table --> … <!-- end of role table --> block")
        }
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, cells[1].hasPrefix("`") else { return nil }
            return (cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")), cells[2].trimmingCharacters(in: CharacterSet(charactersIn: "`")))
        }
    }

    @Test func theDocsTableIsTheCodesTable() throws {
        let documented = try Self.documentedRows()
        let code = RoleTable.rows.map { ($0.role, $0.handling.words) }
        #expect(documented.count == code.count)
        for (d, c) in zip(documented, code) {
            #expect(d.0 == c.0 && d.1 == c.1, "Docs/atspi.md says \(d.0): \(d.1), RoleTable says \(c.0): \(c.1)")
        }
    }

    @Test func everyRoleLibatspiKnowsHasARow() {
        let known = RoleTable.libatspiRoleNames()
        let rows = Set(RoleTable.rows.map(\.role))
        #expect(known.count > 100)
        #expect(Set(known).subtracting(rows).isEmpty, "roles without a row: \(Set(known).subtracting(rows).sorted())")
        #expect(rows.subtracting(known).isEmpty, "rows for roles libatspi does not know: \(rows.subtracting(known).sorted())")
        #expect(rows.count == RoleTable.rows.count, "a role has two rows")
    }
}
