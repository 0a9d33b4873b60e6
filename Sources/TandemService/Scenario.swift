import TandemModel
import TandemNavigator
import TandemSession
import TandemVocabulary

/// A scripted run (Docs/formats.md#scenario): one command a line, `#` starts a comment.
public struct Scenario: Sendable {
    public enum Step: Sendable, Hashable {
        case command(Command)
        /// Let this many milliseconds of virtual time pass.
        case wait(Int)
        /// The last focus speech must contain this text.
        case expect(String)
        /// The actions rotor must have this custom action selected on the focused element
        /// (`nil`: none, the element's own activation).
        case expectAction(String?)
        case screen(String)
        case profile(String)
        case post(Effect)
    }

    public struct Line: Sendable, Hashable {
        public var number: Int
        public var step: Step

        public init(number: Int, step: Step) { self.number = number; self.step = step }
    }

    public var file: String
    public var lines: [Line]

    public init(file: String, lines: [Line]) { self.file = file; self.lines = lines }
}

extension Scenario {
    /// Leading `screen` and `profile` lines set a run up before anything is said: the profile
    /// and start screen they choose, and the lines left to play.
    public func setUp(profile: Profile, profiles: ProfileStore) throws(Diagnostic) -> (Profile, String?, ArraySlice<Line>) {
        var lines = self.lines[...]
        var profile = profile
        var startScreen: String?
        setup: while let first = lines.first {
            switch first.step {
            case .screen(let id): startScreen = id
            case .profile(let name): profile = try profiles.load(name).0
            default: break setup
            }
            lines = lines.dropFirst()
        }
        return (profile, startScreen, lines)
    }

    /// Parses a scenario, checking ids against `catalog` and profile names with `profileExists`.
    /// Errors name the file and line.
    public static func parse(_ text: String, file: String, catalog: Catalog,
                             profileExists: (String) -> Bool = { _ in true }) throws(Diagnostic) -> Scenario {
        var lines: [Line] = []
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var line = Substring(raw)
            if line.hasSuffix("\r") { line = line.dropLast() }
            let trimmed = line.trimmingCharacters()
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            func fail(_ m: String) -> Diagnostic { Diagnostic(file: file, line: number, path: "", message: m) }
            let (word, rest) = trimmed.splitFirstWord()
            switch word {
            case "wait":
                guard let ms = Int(rest), ms >= 0, ms <= 86_400_000 else { throw fail("wait takes milliseconds (0…86400000), found \"\(rest)\"") }
                lines.append(Line(number: number, step: .wait(ms)))
            case "expect":
                guard !rest.isEmpty else { throw fail("expect needs the text to look for") }
                lines.append(Line(number: number, step: .expect(rest.unquoted())))
            case "expect-action":
                guard !rest.isEmpty else { throw fail("expect-action needs the custom action's name, or none for the element's own activation") }
                lines.append(Line(number: number, step: .expectAction(rest == "none" ? nil : rest.unquoted())))
            case "screen":
                guard catalog.screenIndex[rest] != nil else { throw fail("no screen \"\(rest)\" in the catalog") }
                lines.append(Line(number: number, step: .screen(rest)))
            case "profile":
                guard profileExists(rest) else { throw fail("no profile \"\(rest)\"") }
                lines.append(Line(number: number, step: .profile(rest)))
            case "post":
                lines.append(Line(number: number, step: .post(try postEffect(rest, file: file, line: number, catalog: catalog))))
            default:
                guard let c = Command(name: trimmed) else {
                    if let info = Command.info(named: word), info.takesText {
                        throw fail("\(word) takes the text to type (\(word) \(info.argument ?? "TEXT"))")
                    }
                    if let info = Command.info(named: word), let argument = info.argument {
                        throw fail("\(word) takes a number \(argument) (0…\(CommandInfo.argumentLimit)), found \"\(rest)\"")
                    }
                    throw fail("unknown command \"\(word)\" (commands: \(Command.table.map { $0.name }.joined(separator: ", ")), wait, expect, expect-action, screen, profile, post)")
                }
                lines.append(Line(number: number, step: .command(c)))
            }
        }
        return Scenario(file: file, lines: lines)
    }

    /// `post announcement [priority=high] [delay=MS] TEXT`, `post layoutChanged [ID]`,
    /// `post screenChanged [ID]`, `post pageScrolled TEXT`, or any effect as JSON: `post {…}`.
    static func postEffect(_ text: String, file: String, line: Int, catalog: Catalog) throws(Diagnostic) -> Effect {
        func fail(_ m: String) -> Diagnostic { Diagnostic(file: file, line: line, path: "", message: m) }
        if text.hasPrefix("{") { return try CatalogDecoder.effect(json: text, file: file, line: line, catalog: catalog) }
        var (kind, rest) = text.splitFirstWord()
        switch kind {
        case "announcement":
            var priority = AnnouncementPriority.default
            var delay = 0
            while true {
                let (w, r) = rest.splitFirstWord()
                if w.hasPrefix("priority=") {
                    guard let p = AnnouncementPriority(rawValue: String(w.dropFirst(9))) else { throw fail("priority is high or default") }
                    priority = p
                } else if w.hasPrefix("delay=") {
                    guard let d = Int(w.dropFirst(6)), d >= 0 else { throw fail("delay takes milliseconds") }
                    delay = d
                } else { break }
                rest = r
            }
            guard !rest.isEmpty else { throw fail("post announcement needs a text") }
            return .announcement(text: rest.unquoted(), priority: priority, delay: delay)
        case "layoutChanged", "screenChanged":
            let focus: String? = rest.isEmpty ? nil : rest
            if let f = focus, catalog.locate(f) == nil { throw fail("no element \"\(f)\"") }
            return kind == "layoutChanged" ? .layoutChanged(focus: focus) : .screenChanged(focus: focus)
        case "pageScrolled":
            guard !rest.isEmpty else { throw fail("post pageScrolled needs a text") }
            return .pageScrolled(text: rest.unquoted())
        default:
            throw fail("unknown notification \"\(kind)\" (announcement, layoutChanged, screenChanged, pageScrolled, or an effect as JSON)")
        }
    }
}

extension StringProtocol {
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }

    /// The first word and the trimmed rest.
    func splitFirstWord() -> (String, String) {
        let s = trimmingCharacters()
        guard let space = s.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (s, "") }
        return (String(s[..<space]), String(s[space...]).trimmingCharacters())
    }

    /// Text in double quotes loses them (so it can keep leading or trailing spaces).
    func unquoted() -> String {
        let s = String(self)
        if s.count >= 2, s.hasPrefix("\""), s.hasSuffix("\"") { return String(s.dropFirst().dropLast()) }
        return s
    }
}
