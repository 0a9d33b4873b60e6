import TandemModel
import TandemNavigator
import TandemPresentation
import TandemVocabulary

extension Profile {
    /// Reads a profile file's JSON over the defaults; errors name the file, line and path.
    public static func decode(_ bytes: [UInt8], file: String, name: String) throws(Diagnostic) -> (Profile, [Diagnostic]) {
        let root: JSONNode
        do { root = try JSONParser.parse(bytes) } catch {
            throw Diagnostic(file: file, line: error.line, path: "", message: error.message)
        }
        var r = ProfileReader(file: file)
        var p = Profile()
        p.name = name
        try r.read(root, into: &p)
        return (p, r.warnings)
    }
}

private struct ProfileReader {
    let file: String
    var warnings: [Diagnostic] = []

    func fail(_ n: JSONNode, _ path: String, _ m: String) -> Diagnostic { Diagnostic(file: file, line: n.line, path: path, message: m) }

    mutating func members(_ n: JSONNode, _ path: String, known: Set<String>) throws(Diagnostic) -> [(String, JSONNode, String)] {
        guard let ms = n.members else { throw fail(n, path, "expected an object, found \(n.typeName)") }
        var out: [(String, JSONNode, String)] = []
        for m in ms {
            let p = path.isEmpty ? m.key : "\(path).\(m.key)"
            if known.contains(m.key) { out.append((m.key, m.node, p)) } else {
                warnings.append(Diagnostic(file: file, line: m.keyLine, path: p, message: "unknown field \"\(m.key)\" ignored"))
            }
        }
        return out
    }

    func bool(_ n: JSONNode, _ p: String) throws(Diagnostic) -> Bool {
        guard case .bool(let b) = n.kind else { throw fail(n, p, "expected true or false, found \(n.typeName)") }
        return b
    }

    func int(_ n: JSONNode, _ p: String, _ range: ClosedRange<Int>) throws(Diagnostic) -> Int {
        guard case .number(let d) = n.kind, d == d.rounded(), abs(d) < 1e9 else { throw fail(n, p, "expected a whole number, found \(n.typeName)") }
        guard range.contains(Int(d)) else { throw fail(n, p, "must be between \(range.lowerBound) and \(range.upperBound), found \(Int(d))") }
        return Int(d)
    }

    func string(_ n: JSONNode, _ p: String) throws(Diagnostic) -> String? {
        if case .null = n.kind { return nil }
        guard case .string(let s) = n.kind else { throw fail(n, p, "expected a string, found \(n.typeName)") }
        return s
    }

    func oneOf(_ n: JSONNode, _ p: String, _ allowed: [String]) throws(Diagnostic) -> String {
        guard let s = try string(n, p), allowed.contains(s) else {
            throw fail(n, p, "expected one of \(allowed.joined(separator: " "))")
        }
        return s
    }

    mutating func read(_ root: JSONNode, into p: inout Profile) throws(Diagnostic) {
        for (k, n, path) in try members(root, "", known: ["format", "name", "description", "language", "input", "speech", "verbosity", "braille", "progress", "keys"]) {
            switch k {
            case "format":
                guard try string(n, path) == Profile.format else { throw fail(n, path, "unsupported format (expected \"\(Profile.format)\")") }
            case "language": p.language = try string(n, path)
            case "input":
                if case .null = n.kind { p.input = nil } else {
                    p.input = InputMethod(rawValue: try oneOf(n, path, InputMethod.allCases.map(\.rawValue)))
                }
            case "speech":
                for (k, n, path) in try members(n, path, known: ["enabled", "rate", "pitch", "volume", "voice", "punctuation", "address", "hintDelay"]) {
                    switch k {
                    case "enabled": p.speech = try bool(n, path)
                    case "rate": p.rate = try int(n, path, -100...100)
                    case "pitch": p.pitch = try int(n, path, -100...100)
                    case "volume": p.volume = try int(n, path, -100...100)
                    case "voice": p.voice = try string(n, path)
                    case "punctuation": p.punctuation = try oneOf(n, path, ["none", "some", "most", "all"])
                    case "address": p.speechAddress = try string(n, path)
                    case "hintDelay": p.hintDelay = try int(n, path, 0...60_000)
                    default: break
                    }
                }
            case "verbosity":
                for (k, n, path) in try members(n, path, known: ["hints", "traitWords", "actionsAvailable"]) {
                    switch k {
                    case "hints": p.verbosity.hints = try bool(n, path)
                    case "traitWords": p.verbosity.traitWords = try bool(n, path)
                    case "actionsAvailable": p.verbosity.actionsAvailable = try bool(n, path)
                    default: break
                    }
                }
            case "braille":
                for (k, n, path) in try members(n, path, known: ["enabled", "contracted", "computerBrailleAtCursor", "width", "messageTime", "host"]) {
                    switch k {
                    case "enabled": p.braille = try bool(n, path)
                    case "contracted": p.contracted = try bool(n, path)
                    case "computerBrailleAtCursor": p.computerBrailleAtCursor = try bool(n, path)
                    case "width": p.brailleWidth = try int(n, path, 1...400)
                    case "messageTime": p.messageTime = try int(n, path, 0...600_000)
                    case "host": p.brailleHost = try string(n, path)
                    default: break
                    }
                }
            case "progress":
                for (k, n, path) in try members(n, path, known: ["interval", "feedback"]) {
                    switch k {
                    case "interval": p.progressInterval = try int(n, path, 0...600_000)
                    case "feedback": p.progressFeedback = Profile.ProgressFeedback(rawValue: try oneOf(n, path, Profile.ProgressFeedback.allCases.map(\.rawValue)))!
                    default: break
                    }
                }
            case "keys":
                for (k, n, path) in try members(n, path, known: ["terminal", "braille"]) {
                    var table = k == "terminal" ? p.keyMap.terminal : p.keyMap.braille
                    guard let entries = n.members else { throw fail(n, path, "expected an object, found \(n.typeName)") }
                    for e in entries {
                        let epath = "\(path).\(e.key)"
                        let key = k == "braille" ? e.key.uppercased() : e.key
                        guard let command = try string(e.node, epath) else { table[key] = nil; continue }
                        guard let binding = KeyBinding(name: command) else { throw fail(e.node, epath, "unknown command \"\(command)\"") }
                        // Only a display key carries an argument (a routing key's cell); only the terminal can quit.
                        let fits = k == "braille" ? binding != .quit : !binding.takesArgument
                        guard fits else { throw fail(e.node, epath, "\"\(command)\" cannot be bound to a \(k) key") }
                        table[key] = binding
                    }
                    if k == "terminal" { p.keyMap.terminal = table } else { p.keyMap.braille = table }
                }
            default: break  // name, description: for people
            }
        }
    }
}
