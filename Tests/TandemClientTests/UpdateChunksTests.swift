import Testing
import TandemClient
import TandemModel
import TandemProtocol
import TandemTestSupport

/// `UpdateChunks`: a change of one children list (the AT-SPI bridge's, when a list gets new
/// children or is reordered) split into updates of at most `maxUpdateNodes` nodes and edited
/// ids, each valid alone, that leave the tree exactly as the one update would.
@Suite("an update split under maxUpdateNodes")
struct UpdateChunksTests {
    /// Makes unique ids and random subtrees.
    struct Trees {
        var random: SplitMix64
        var next = 0

        mutating func id(_ prefix: String) -> String {
            next += 1
            return "\(prefix)\(next)"
        }

        /// A subtree of about `size` elements, with random fan-out; leaves have no list, or an empty one.
        mutating func tree(_ size: Int, prefix: String) -> AppElement {
            let id = id(prefix)
            var e = AppElement(id, label: "L \(id)")
            var left = size - 1
            if left == 0 { e.children = random.int(in: 0...1) == 0 ? nil : []; return e }
            var kids: [AppElement] = []
            while left > 0 {
                let take = random.int(in: 1...max(1, min(left, left / 2 + 1)))
                kids.append(tree(take, prefix: prefix))
                left -= take
            }
            e.children = kids
            return e
        }

        /// A chain `depth` elements deep.
        mutating func chain(_ depth: Int, prefix: String) -> AppElement {
            var e = AppElement(id(prefix), label: "deepest")
            for _ in 1..<depth { e = AppElement(id(prefix), label: "link", children: [e]) }
            return e
        }
    }

    /// The `update` line `TandemApp.update(_:edits:)` sends for these nodes and edits.
    static func line(_ nodes: [AppElement], _ edits: [TreeUpdate.ChildrenEdit]) -> String {
        JSONValue.compact(["type": "update", "nodes": nodes.isEmpty ? nil : .array(nodes.flatMap(\.nodes)),
                           "edits": edits.isEmpty ? nil : .array(edits.map(\.json))]).json
    }

    static func decodeUpdate(_ line: String) throws -> TreeUpdate {
        guard case .success(let incoming) = MessageDecoder.decode(Array(line.utf8), line: 1), case .update(let u) = incoming.message else {
            throw TestSupportError("not an update: \(MessageDecoder.decode(Array(line.utf8), line: 1)) \(line.prefix(300))")
        }
        return u
    }

    static func screen(_ root: AppElement) throws -> Screen {
        let line = JSONValue.compact(["type": "screen", "screen": AppScreen(id: "s", root: root).json]).json
        guard case .success(let incoming) = MessageDecoder.decode(Array(line.utf8), line: 1), case .screen(let s) = incoming.message else {
            throw TestSupportError("not a screen: \(line.prefix(300))")
        }
        return s
    }

    /// The tree from the root: each element's id, label and children, nested.
    static func dump(_ screen: Screen) -> String {
        var out = ""
        var stack = [(0, 0)]
        while let (i, depth) = stack.popLast() {
            let e = screen.elements[i]
            out += String(repeating: " ", count: depth) + e.id + " " + (e.label.map { "\($0)" } ?? "-") + "\n"
            for c in e.children.reversed() { stack.append((c, depth + 1)) }
        }
        return out
    }

    /// Applies the one update and the chunks to copies of `screen`: every chunk within `limit`
    /// (as the service counts it, from its line) and taken alone, and the same tree at the end.
    static func check(_ screen: Screen, one: TreeUpdate, chunks: [UpdateChunks.Chunk], limit: Int,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        var whole = screen
        _ = try whole.apply(one)
        var split = screen
        for (k, chunk) in chunks.enumerated() {
            let update = try decodeUpdate(line(chunk.nodes, chunk.edits))
            #expect(update.size <= limit, "chunk \(k) carries \(update.size)", sourceLocation: sourceLocation)
            #expect(update.size == chunk.size, "chunk \(k) counted \(chunk.size), carries \(update.size)", sourceLocation: sourceLocation)
            do throws(TreeUpdateError) { _ = try split.apply(update) } catch {
                Issue.record("chunk \(k) of \(chunks.count) refused: \(error)", sourceLocation: sourceLocation)
                return
            }
        }
        #expect(dump(split) == dump(whole), sourceLocation: sourceLocation)
    }

    @Test("new children and removals split under the limit give the tree the one update gives", arguments: [2, 3, 7, 20, 64, 1_000])
    func editsOnRandomTrees(limit: Int) throws {
        for seed in 1...25 as ClosedRange<UInt64> {
            var t = Trees(random: SplitMix64(seed: seed &* 7_919 &+ UInt64(limit)))
            let old = (0..<t.random.int(in: 0...12)).map { _ in t.tree(t.random.int(in: 1...6), prefix: "o") }
            let screen = try Self.screen(AppElement("root", children: [AppElement("title", label: "T"), AppElement("p", label: "P", children: old)]))
            let removed = old.map(\.id).filter { _ in t.random.int(in: 0...2) == 0 }
            var list = old.map(\.id).filter { !removed.contains($0) }
            var fresh: [AppElement] = []
            for k in 0..<t.random.int(in: 0...6) {
                // a few small, one over the limit, and a deep chain
                let e = k == 1 ? t.tree(limit + t.random.int(in: 1...40), prefix: "big") : k == 2 ? t.chain(min(limit + 5, 60), prefix: "c")
                    : t.tree(t.random.int(in: 1...8), prefix: "n")
                fresh.append(e)
                list.insert(e.id, at: t.random.int(in: 0...list.count))
            }
            guard !removed.isEmpty || !fresh.isEmpty else { continue }
            // as the bridge places them: after the child before, or before the first kept one
            let kept = list.filter { id in old.contains { $0.id == id } }
            var insert: [(element: AppElement, place: TreeUpdate.ChildrenEdit.Place)] = []
            for (i, id) in list.enumerated() {
                guard let e = fresh.first(where: { $0.id == id }) else { continue }
                insert.append((e, i > 0 ? .after(list[i - 1]) : (kept.first.map { .before($0) } ?? .end)))
            }
            var edits: [TreeUpdate.ChildrenEdit] = removed.isEmpty ? [] : [.init(parent: "p", remove: removed)]
            edits += insert.map { .init(parent: "p", insert: [$0.element.id], place: $0.place) }
            let one = try Self.decodeUpdate(Self.line(insert.map(\.element), edits))
            let chunks = UpdateChunks.edits(parent: "p", remove: removed, insert: insert, limit: limit)
            try Self.check(screen, one: one, chunks: chunks, limit: limit)
            if one.size <= limit { #expect(chunks.count == 1, "seed \(seed): what fits is one update") }
        }
    }

    @Test("a list sent whole in a new order, new subtrees cut and filled or every child moved, gives the tree the one update gives",
          arguments: [2, 3, 7, 20, 64, 1_000])
    func wholeListOnRandomTrees(limit: Int) throws {
        for seed in 1...25 as ClosedRange<UInt64> {
            var t = Trees(random: SplitMix64(seed: seed &* 104_729 &+ UInt64(limit)))
            let old = (0..<t.random.int(in: 1...14)).map { _ in t.tree(t.random.int(in: 1...5), prefix: "o") }
            let screen = try Self.screen(AppElement("root", children: [AppElement("p", label: "P", children: old)]))
            var kids = old.filter { _ in t.random.int(in: 0...3) > 0 }.map { e in
                // a kept child: its own fields, no children list (its subtree stays)
                var own = e
                own.children = nil
                return own
            }
            kids.shuffle(using: &t.random)
            for k in 0..<t.random.int(in: 0...4) {
                let e = k == 0 ? t.tree(limit + t.random.int(in: 1...30), prefix: "big") : k == 1 ? t.chain(min(limit + 3, 50), prefix: "c")
                    : t.tree(t.random.int(in: 1...6), prefix: "n")
                kids.insert(e, at: t.random.int(in: 0...kids.count))
            }
            let whole = AppElement("p", label: "P again", children: kids)
            let one = try Self.decodeUpdate(Self.line([whole], []))
            let chunks = UpdateChunks.wholeList(whole, old: old.map(\.id), limit: limit)
            try Self.check(screen, one: one, chunks: chunks, limit: limit)
        }
    }

    @Test("a child whose subtree alone is over the limit goes first with an empty list, then its children by the same rule, top-down")
    func oneBigChild() throws {
        // row: 3 cells of 4 elements each (13 in all), limit 6
        let cells = (0..<3).map { c in AppElement("cell\(c)", label: "C\(c)", children: (0..<3).map { AppElement("cell\(c).\($0)", label: "x") }) }
        let row = AppElement("row", label: "Row", children: cells)
        let chunks = UpdateChunks.edits(parent: "p", remove: ["gone"], insert: [(row, .end)], limit: 6)
        let lines = chunks.map { Self.line($0.nodes, $0.edits) }
        #expect(lines == [
            #"{"type":"update","nodes":[{"id":"row","label":"Row","children":[]}],"edits":[{"parent":"p","remove":["gone"]},{"parent":"p","insert":["row"]}]}"#,
            #"{"type":"update","nodes":[{"id":"cell0","label":"C0","children":["cell0.0","cell0.1","cell0.2"]},{"id":"cell0.0","label":"x"},{"id":"cell0.1","label":"x"},{"id":"cell0.2","label":"x"}],"edits":[{"parent":"row","insert":["cell0"]}]}"#,
            #"{"type":"update","nodes":[{"id":"cell1","label":"C1","children":["cell1.0","cell1.1","cell1.2"]},{"id":"cell1.0","label":"x"},{"id":"cell1.1","label":"x"},{"id":"cell1.2","label":"x"}],"edits":[{"parent":"row","insert":["cell1"]}]}"#,
            #"{"type":"update","nodes":[{"id":"cell2","label":"C2","children":["cell2.0","cell2.1","cell2.2"]},{"id":"cell2.0","label":"x"},{"id":"cell2.1","label":"x"},{"id":"cell2.2","label":"x"}],"edits":[{"parent":"row","insert":["cell2"]}]}"#,
        ], "\(lines)")
        #expect(chunks.map(\.size) == [3, 5, 5, 5])
    }

    @Test("what fits the limit stays one update, as it was")
    func fitsIsOne() {
        let row = AppElement("row", label: "Row", children: [AppElement("cell", label: "C")])
        let chunks = UpdateChunks.edits(parent: "p", remove: ["a", "b"], insert: [(row, .after("first"))], limit: 8_192)
        #expect(chunks == [UpdateChunks.Chunk(nodes: [row], edits: [.init(parent: "p", remove: ["a", "b"]), .init(parent: "p", insert: ["row"], place: .after("first"))], size: 5)])
        let whole = AppElement("p", children: [row, AppElement("kept")])
        #expect(UpdateChunks.wholeList(whole, old: ["kept"], limit: 8_192) == [UpdateChunks.Chunk(nodes: [whole], edits: [], size: 4)])
    }

    @Test("10,000 rows removed and 10,000 added at the service's limit: each update within it")
    func atTheServiceLimit() throws {
        let rows = (0..<10_000).map { AppElement("new\($0)", label: "Row \($0)", children: [AppElement("new\($0).cell")]) }
        let removed = (0..<10_000).map { "old\($0)" }
        let chunks = UpdateChunks.edits(parent: "list", remove: removed, insert: rows.enumerated().map { ($1, $0 == 0 ? .end : .after("new\($0 - 1)")) },
                                        limit: Screen.maxUpdateNodes)
        #expect(chunks.allSatisfy { $0.size <= Screen.maxUpdateNodes })
        #expect(chunks.reduce(0) { $0 + $1.size } == 10_000 + 10_000 * 3)
        #expect(chunks.count == 5, "40,000 in chunks of at most 8,192: \(chunks.map(\.size))")
        for chunk in chunks { #expect(try Self.decodeUpdate(Self.line(chunk.nodes, chunk.edits)).size == chunk.size) }
    }
}
