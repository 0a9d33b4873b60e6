import TandemModel
import TandemService
import TandemSession

/// A transcript read back for the report: the speech timeline (with the keys that explain
/// its cuts) and the braille windows.
struct Timeline {
    struct Speech {
        let time: Int
        /// "Started", "Cut", "Dropped", "Postponed", "Key pressed".
        let what: String
        let css: String
        let priority: String?
        let source: String?
        let text: String
        let language: String?
        let reason: String?
    }

    struct Braille {
        let time: Int
        let cells: String
        let text: String
        let window: String
        /// 0-based cell in the window.
        let cursor: Int?
        let flash: Bool
    }

    struct PriorityCount {
        let priority: String
        var started = 0, cut = 0, dropped = 0, postponed = 0
    }

    var speech: [Speech] = []
    var braille: [Braille] = []
    /// Per priority, in SSIP's order from the most urgent.
    var byPriority: [PriorityCount] = []

    static let priorities = ["important", "message", "text", "notification", "progress"]

    init(lines: [String]) {
        // A cancel names only the text; its priority is the one it started with.
        var started: [String: String] = [:]
        var counts: [String: PriorityCount] = [:]
        for line in lines {
            guard let node = try? JSONParser.parse(line) else { continue }
            func s(_ k: String) -> String? { if case .string(let v)? = node[k]?.kind { v } else { nil } }
            func n(_ k: String) -> Int? { if case .number(let d)? = node[k]?.kind { Int(d) } else { nil } }
            let t = n("t") ?? 0
            switch s("ch") {
            case "speech":
                let op = s("op") ?? ""
                let text = s("text") ?? ""
                var prio = s("prio")
                let what: (String, String)
                switch op {
                case "speak": what = ("Started", "speak"); if let p = prio { started[text] = p }
                case "cancel": what = ("Cut", "cut"); prio = prio ?? started[text]
                case "drop": what = ("Dropped", "dropped")
                case "postpone": what = ("Postponed", "postponed")
                default: what = (op, op)
                }
                speech.append(Speech(time: t, what: what.0, css: what.1, priority: prio, source: s("src"), text: text,
                                     language: s("lang"), reason: s("reason")))
                if let p = prio {
                    var c = counts[p] ?? PriorityCount(priority: p)
                    switch op {
                    case "speak": c.started += 1
                    case "cancel": c.cut += 1
                    case "drop": c.dropped += 1
                    case "postpone": c.postponed += 1
                    default: break
                    }
                    counts[p] = c
                }
            case "braille":
                braille.append(Braille(time: t, cells: s("cells") ?? "", text: s("text") ?? "", window: s("window") ?? "",
                                       cursor: n("cursor"), flash: node["flash"] != nil))
            case "event" where s("type") == "key":
                speech.append(Speech(time: t, what: "Key pressed", css: "key", priority: nil, source: nil,
                                     text: s("command") ?? "", language: nil, reason: nil))
            default:
                continue
            }
        }
        byPriority = Self.priorities.compactMap { counts[$0] } + counts.keys.filter { !Self.priorities.contains($0) }.sorted().map { counts[$0]! }
    }
}
