extension JSONTape {
    /// The document as a tree of `JSONNode`s (for readers that want one: profiles, tests).
    func tree() -> JSONNode {
        withView { $0.node(0) }
    }
}

extension JSONTape.View {
    func node(_ i: Int) -> JSONNode {
        let line = line(i)
        switch tag(i) {
        case .null: return JSONNode(.null, line: line)
        case .false: return JSONNode(.bool(false), line: line)
        case .true: return JSONNode(.bool(true), line: line)
        case .number: return JSONNode(.number(number(i)), line: line)
        case .bytes, .decoded: return JSONNode(.string(string(i)), line: line)
        case .array:
            var items: [JSONNode] = []
            items.reserveCapacity(count(i))
            var j = i + 1
            for _ in 0..<count(i) {
                items.append(node(j))
                j = end(j)
            }
            return JSONNode(.array(items), line: line)
        case .object:
            var members: [JSONNode.Member] = []
            members.reserveCapacity(count(i))
            var j = i + 1
            for _ in 0..<count(i) {
                members.append(JSONNode.Member(key: string(j), keyLine: self.line(j), node: node(j + 1)))
                j = end(j + 1)
            }
            return JSONNode(.object(members), line: line)
        }
    }

    /// The JSON path (`screens[0].root.children[2].order[1]`) of each value in `targets` (tape
    /// indices of values, not keys), in the same order, found in one walk from the root that
    /// skips every subtree holding no target. `root` names the document itself (`post` for a
    /// scenario's effect), or is `nil`.
    ///
    /// Paths are worked out only for messages: nothing about them is kept while reading.
    func paths(_ targets: [Int], root: String?) -> [String] {
        guard !targets.isEmpty else { return [] }
        var walk = PathWalk(tape: self,
                            sorted: targets.indices.sorted { targets[$0] < targets[$1] }.map { (targets[$0], $0) },
                            results: Array(repeating: "", count: targets.count))
        if let root { walk.steps.append(.key(root)) }
        walk.visit(0)
        return walk.results
    }

    /// The path of one value.
    func path(_ target: Int, root: String?) -> String {
        paths([target], root: root)[0]
    }
}

private struct PathWalk {
    enum Step {
        case key(String)
        case index(Int)
    }

    let tape: JSONTape.View
    /// (tape index, position in the caller's list), by tape index.
    let sorted: [(target: Int, position: Int)]
    var results: [String]
    var next = 0
    var steps: [Step] = []

    mutating func visit(_ i: Int) {
        while next < sorted.count && sorted[next].target == i {
            results[sorted[next].position] = rendered()
            next += 1
        }
        guard next < sorted.count, sorted[next].target < tape.end(i) else { return }
        let container = tape.tag(i)
        guard container == .array || container == .object else { return }
        var j = i + 1
        for k in 0..<tape.count(i) {
            let value = container == .object ? j + 1 : j
            let end = tape.end(value)
            if sorted[next].target < end {
                steps.append(container == .object ? .key(tape.string(j)) : .index(k))
                visit(value)
                steps.removeLast()
                if next == sorted.count { return }
            }
            j = end
        }
    }

    /// Keys joined by dots, indices in brackets (`screens[0].root.children[2]`).
    func rendered() -> String {
        var out = ""
        for s in steps {
            switch s {
            case .key(let k): out += out.isEmpty ? k : "." + k
            case .index(let i): out += "[\(i)]"
            }
        }
        return out
    }
}
