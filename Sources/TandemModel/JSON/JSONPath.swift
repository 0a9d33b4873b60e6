/// Where a value sits in a JSON document (`screens[0].root.children[2].order[1]`), kept as a
/// link to its parent plus one step and turned into text only when a message needs it:
/// building the text for every value read cost more than reading the catalog itself.
public struct JSONPath: Sendable, CustomStringConvertible {
    final class Node: Sendable {
        let parent: Node?
        let step: Step
        init(parent: Node?, step: Step) { self.parent = parent; self.step = step }
    }

    enum Step: Sendable {
        case root
        case key(String)
        case index(Int)
    }

    let parent: Node?
    let step: Step

    /// The whole document (renders as the empty string).
    public static let root = JSONPath(parent: nil, step: .root)

    /// This path as a parent that children can point at (one allocation, made once per
    /// object or array read, not per value).
    func node() -> Node { Node(parent: parent, step: step) }

    public func key(_ key: String) -> JSONPath { JSONPath(parent: node(), step: .key(key)) }

    public func index(_ index: Int) -> JSONPath { JSONPath(parent: node(), step: .index(index)) }

    /// The path as text: keys joined by dots, indices in brackets.
    public var description: String {
        var steps: [Step] = [step]
        var p = parent
        while let n = p {
            steps.append(n.step)
            p = n.parent
        }
        var out = ""
        for s in steps.reversed() {
            switch s {
            case .root: break
            case .key(let k): out += out.isEmpty ? k : "." + k
            case .index(let i): out += "[\(i)]"
            }
        }
        return out
    }
}
