import Foundation
import TandemModel

/// `tandem view TRANSCRIPT`: a transcript as a person reads it, one output a line.
enum ViewCommand {
    static func run(_ args: Arguments) throws(CLIError) -> Int32 {
        let p = try args.exactly(1, "TRANSCRIPT")
        let data = p[0] == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: p[0])
        guard let data, let text = String(validating: data, as: UTF8.self) else {
            throw .input(Diagnostic(file: p[0], line: nil, path: "", message: "no such file, or not UTF-8"))
        }
        // Every line is read before any is printed: a bad line leaves nothing half-shown.
        var rendered: [String] = []
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if line.isEmpty { continue }
            let node: JSONNode
            do { node = try JSONParser.parse(String(line)) } catch {
                throw .input(Diagnostic(file: p[0], line: number, path: "", message: error.message))
            }
            rendered.append(render(node))
        }
        for line in rendered { print(line) }
        return 0
    }

    static func render(_ n: JSONNode) -> String {
        func s(_ k: String) -> String {
            switch n[k]?.kind {
            case .string(let v): return v
            case .number(let d): return String(Int(d))
            case .bool(let b): return b ? "true" : "false"
            default: return ""
            }
        }
        let t = Double(s("t")).map { String(format: "%8.3fs", $0 / 1000) } ?? "        "
        switch s("ch") {
        case "speech":
            switch s("op") {
            case "speak": return "\(t)  says   [\(s("prio"))] \(s("spell") == "true" ? "(spelled) " : "")\(s("text"))"
            case "cancel": return "\(t)  cut    \(s("text"))"
            case "drop": return "\(t)  drops  [\(s("prio"))] \(s("text"))  (\(s("reason")))"
            case "postpone": return "\(t)  waits  [\(s("prio"))] \(s("text"))  (\(s("reason")))"
            default: return "\(t)  speech \(s("op"))"
            }
        case "braille":
            var cells = s("cells")
            if let c = Int(s("cursor")), c >= 0, c <= cells.count {
                let i = cells.index(cells.startIndex, offsetBy: c)
                cells.insert("▏", at: i)
            }
            return "\(t)  shows  \(cells)  \(s("flash") == "true" ? "(message) " : "")\(s("text"))  [\(s("window"))]"
        case "sound":
            return "\(t)  sound  \(s("icon"))"
        case "event":
            var extra: [String] = []
            for m in n.members ?? [] where !["t", "ch", "type"].contains(m.key) {
                if case .string(let v) = m.node.kind { extra.append("\(m.key)=\(v)") }
            }
            return "\(t)  \(s("type") == "key" ? "key   " : "event ") \(s("type") == "key" ? s("command") : ([s("type")] + extra).joined(separator: " "))"
        default:
            return "\(t)  ?      \(n)"
        }
    }
}
