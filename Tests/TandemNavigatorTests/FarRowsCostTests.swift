import Testing
import TandemModel
@testable import TandemNavigator
import TandemTestSupport

/// Two rows changed far apart in one sorted scope must cost the rows they touch, not every row
/// between them (issue 27: one client's round holds 256 lines, and before, each line that moved
/// the first and the last of a long list re-formed the whole list, close to a whole build).
/// Counted in units looked at or placed and in whole builds, never in time; after every line the
/// order must equal one built from scratch.
@Suite("far rows cost")
struct FarRowsCostTests {
    static let rows = ModalRoundCostTests.rows
    static let last = rows - 1

    /// Row `id` at (`x`, `y`), as an update's node.
    static func row(_ id: String, x: Double = 0, y: Double) -> TreeUpdate.Node {
        var node = ModalRoundCostTests.rowNode(id, y: y)
        node.element.frame = Frame(x: x, y: y, width: 390, height: 44)
        return node
    }

    /// The first and the last row, each where phase `k` puts it: moved within its row (a few
    /// points down, or to the right), moved into the next row in (the row below the first
    /// joins, the row above the last), or back where it was.
    static func farPair(_ k: Int) -> TreeUpdate {
        let lastY = Double(last * 44)
        switch k % 4 {
        case 0: return TreeUpdate(nodes: [row("r0", y: 3), row("r\(last)", x: 20, y: lastY + 2)])
        case 1: return TreeUpdate(nodes: [row("r0", y: 46), row("r\(last)", y: lastY - 44 + 3)])
        case 2: return TreeUpdate(nodes: [row("r0", x: 30, y: 1), row("r\(last)", y: lastY - 2)])
        default: return TreeUpdate(nodes: [row("r0", y: 0), row("r\(last)", y: lastY)])
        }
    }

    @Test("256 updates each moving the first and the last of 3,000 rows (within their rows and into the next): each re-forms a few rows, not the 3,000 between")
    func farPairs() throws {
        var nav = try ModalRoundCostTests().screen()
        let lines: [(inout Navigator) throws -> Void] = (0..<256).map { k in { nav in _ = try nav.apply(Self.farPair(k)) } }
        let start = nav.readingOrder().rowRepairs
        let cost = ModalRoundCostTests().steps(&nav, lines)
        #expect(cost.whole == 0, "\(cost)")
        #expect(nav.readingOrder().rowRepairs - start >= 256, "the lines were not repaired by rows")
        // Each line looks at the two rows, re-forms the row or two each touches and splices
        // them: about ten units (2,432 for the round). Before, each line re-formed every row
        // from the first to the last (some 6,000 units a line, 1,537,920 for the round).
        #expect(cost.units <= 256 * 12, "\(cost.units) units looked at or placed for 256 lines")
    }

    @Test("the first and the last of 3,000 rows moved under a sheet, alternating with it: each closing repairs the two rows in the kept order, not the 3,000 between")
    func farPairsUnderModal() throws {
        var nav = try ModalRoundCostTests().screen()
        try nav.focus("r50")
        var lines: [(inout Navigator) throws -> Void] = []
        for k in 0..<64 {
            lines.append { nav in _ = nav.set("sheet") { $0.modal = true } }
            lines.append { nav in _ = try nav.apply(Self.farPair(2 * k)) }
            lines.append { nav in _ = nav.set("sheet") { $0.modal = false } }
            lines.append { nav in _ = try nav.apply(Self.farPair(2 * k + 1)) }
        }
        let cost = ModalRoundCostTests().steps(&nav, lines)
        // The sheet's order is built once (two elements); each closing takes back the order
        // kept before the sheet came and repairs the two rows in it; before, each closing
        // re-formed the rows from the first to the last (769,470 units for the round; 1,726
        // now).
        #expect(cost.whole <= 1, "\(cost)")
        #expect(cost.units <= 64 * 40, "\(cost.units) units looked at or placed for 256 lines")
        #expect(nav.focusedElement?.id == "sheet.title")
    }

    /// 600 rows, some of them groups of two (a unit of its own that keeps its elements
    /// together), some sharing a row with the row before.
    func mixedScreen() throws -> Navigator {
        var nav = try Navigator(json: DeepChainCostTests.catalog)
        var nodes: [TreeUpdate.Node] = []
        var ids: [String] = []
        for k in 0..<600 {
            let id = "r\(k)", y = Double(k * 30)
            ids.append(id)
            if k % 7 == 3 {
                var g = Element(id: id)
                g.group = true
                nodes.append(TreeUpdate.Node(element: g, childIDs: [id + ".a", id + ".b"]))
                nodes.append(Self.row(id + ".a", x: 100, y: y))
                nodes.append(Self.row(id + ".b", x: 0, y: y + 4))
            } else {
                nodes.append(Self.row(id, x: Double((k % 3) * 50), y: y))
            }
        }
        var top = Element(id: "top")
        top.label = .plain("Top")
        _ = try nav.apply(TreeUpdate(nodes: [TreeUpdate.Node(element: top, childIDs: ids)] + nodes))
        return nav
    }

    @Test("500 random updates each moving two to four rows or group members anywhere (near, far, into other rows), some adding or removing a row: every line's order is the one built afresh")
    func randomFarMoves() throws {
        var nav = try mixedScreen()
        // SplitMix64, seeded: the same lines every run.
        var random = SplitMix64(seed: 2_612)
        func next(_ n: Int) -> Int { random.below(n) }
        var added: [String] = []
        var lines: [(inout Navigator) throws -> Void] = []
        for k in 0..<500 {
            var nodes: [TreeUpdate.Node] = []
            var touched: Set<String> = []
            for _ in 0..<(2 + next(3)) {
                let r = next(600)
                var id = "r\(r)"
                if r % 7 == 3 { id += next(2) == 0 ? ".a" : ".b" }
                guard touched.insert(id).inserted else { continue }
                // Near where it was, a row or two away, or anywhere.
                let y: Double
                switch next(3) {
                case 0: y = Double(r * 30 + next(9))
                case 1: y = Double((r + next(5) - 2) * 30 + next(6))
                default: y = Double(next(18_000))
                }
                nodes.append(Self.row(id, x: Double(next(4) * 40), y: max(0, y)))
            }
            var edits: [TreeUpdate.ChildrenEdit] = []
            if next(6) == 0 {
                let id = "n\(k)"
                nodes.append(Self.row(id, x: Double(next(4) * 40), y: Double(next(18_000))))
                edits.append(TreeUpdate.ChildrenEdit(parent: "top", insert: [id], place: .after("r\(next(600))")))
                added.append(id)
            } else if next(6) == 0, !added.isEmpty {
                edits.append(TreeUpdate.ChildrenEdit(parent: "top", remove: [added.remove(at: next(added.count))]))
            }
            let update = TreeUpdate(nodes: nodes, edits: edits)
            lines.append { nav in _ = try nav.apply(update) }
        }
        let start = nav.readingOrder().rowRepairs
        let cost = ModalRoundCostTests().steps(&nav, lines)
        // Most lines are repaired by rows (not sorted whole): the stretches are what is tested.
        #expect(nav.readingOrder().rowRepairs - start >= 400, "\(cost)")
    }
}
