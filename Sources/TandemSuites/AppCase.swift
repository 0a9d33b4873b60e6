import TandemModel
import TandemService

/// An app case of `tandem test` (Docs/ci.md#apps): `NAME.app.json` names a command that starts
/// the app and the user's steps; the app runs against a private service on a virtual clock and
/// its transcript is compared with `NAME.app.golden.jsonl` beside it.
///
/// ```json
/// { "format": "tandem.app/1", "command": ["python3", "groceries.py"],
///   "steps": ["next", "next", "increment", "wait 1000", "expect 1 in cart"] }
/// ```
public struct AppCase: Sendable {
    public static let format = "tandem.app/1"
    /// What an app case's file name ends with, and its golden transcript's.
    public static let suffix = ".app.json"
    public static let goldenSuffix = ".app.golden.jsonl"
    /// Real seconds the app has, after each step, to go quiet (`timeout`).
    public static let defaultTimeout: Double = 10

    /// The app's command: the program (looked up in `PATH` when it has no slash) and its
    /// arguments, run in the case file's folder.
    public var command: [String]
    /// The user's steps, as scenario lines (commands, `wait`, `expect`, `expect-action`,
    /// `profile`), each numbered by its line in the case file.
    public var scenario: Scenario
    /// What each step's line says (for a diff's `after next at line 7`), by line.
    public var source: [Substring]
    public var profile: String = "default"
    public var timeout: Double = AppCase.defaultTimeout

    /// The golden transcript beside a case file: `NAME.app.golden.jsonl` for `NAME.app.json`.
    public static func goldenPath(forCase path: String) -> String {
        (path.hasSuffix(suffix) ? String(path.dropLast(suffix.count)) : path) + goldenSuffix
    }

    /// The command as a person would type it, for messages.
    public var commandLine: String {
        command.map { $0.contains(" ") || $0.isEmpty ? "'\($0)'" : $0 }.joined(separator: " ")
    }

    /// Reads a case file; errors name the file, line and JSON path. Unknown fields are warnings.
    public static func decode(_ bytes: [UInt8], file: String, profileExists: (String) -> Bool) throws(Diagnostic) -> (AppCase, [Diagnostic]) {
        let json = SuiteJSONFile(file: file)
        let fail = json.fail
        var command: [String]?
        var steps: JSONNode?
        var profile = "default"
        var timeout = defaultTimeout
        let (root, warnings) = try json.object(bytes, format: format) { (m: JSONNode.Member) throws(Diagnostic) -> Bool in
            switch m.key {
            case "command":
                guard case .array(let items) = m.node.kind, !items.isEmpty else {
                    throw fail(m.node, "command", "expected the app's command as an array of strings, program first ([\"python3\", \"app.py\"])")
                }
                command = try items.enumerated().map { (i, item) throws(Diagnostic) in
                    guard case .string(let s) = item.kind, !s.isEmpty || i > 0 else {
                        throw fail(item, "command[\(i)]", i == 0 ? "expected the program's name or path" : "expected a string, found \(item.typeName)")
                    }
                    return s
                }
            case "steps":
                guard case .array = m.node.kind else { throw fail(m.node, "steps", "expected an array of scenario lines, found \(m.node.typeName)") }
                steps = m.node
            case "profile":
                guard case .string(let p) = m.node.kind else { throw fail(m.node, "profile", "expected a profile's name, found \(m.node.typeName)") }
                guard profileExists(p) else { throw fail(m.node, "profile", "no profile \"\(p)\"") }
                profile = p
            case "timeout":
                guard case .number(let n) = m.node.kind, n > 0, n <= 3600 else {
                    throw fail(m.node, "timeout", "expected the seconds the app has to answer each step (more than 0, at most 3600)")
                }
                timeout = n
            default:
                return false
            }
            return true
        }
        guard let command else { throw fail(root, "", "missing field \"command\" (the app's command, [\"python3\", \"app.py\"])") }
        guard let steps else { throw fail(root, "", "missing field \"steps\" (the user's keys, as scenario lines)") }
        var lines: [Scenario.Line] = []
        var source: [Substring] = []
        for (i, item) in steps.items.enumerated() {
            guard case .string(let text) = item.kind else { throw fail(item, "steps[\(i)]", "expected a scenario line, found \(item.typeName)") }
            let word = text.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
            if word == "screen" || word == "post" {
                throw fail(item, "steps[\(i)]", "\(word) is not a step of an app case: the app shows its own screens and posts its own changes; steps are the user's")
            }
            let parsed: Scenario
            do { parsed = try Scenario.parse(text, file: file, catalog: Self.noCatalog, profileExists: profileExists) } catch {
                throw Diagnostic(file: file, line: item.line, path: "steps[\(i)]", message: error.message)
            }
            for l in parsed.lines { lines.append(Scenario.Line(number: item.line, step: l.step)) }
            while source.count < item.line { source.append("") }
            source[item.line - 1] = Substring(text)
        }
        let app = AppCase(command: command, scenario: Scenario(file: file, lines: lines), source: source, profile: profile, timeout: timeout)
        return (app, warnings)
    }

    /// Steps name no screen or element, so they are parsed against no catalog.
    static let noCatalog = Catalog(name: nil, language: "en", strings: [:], start: "", screens: [])
}
