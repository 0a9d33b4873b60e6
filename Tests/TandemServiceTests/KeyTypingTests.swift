import Foundation
import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
import TandemTestSupport
@testable import TandemService
@testable import TandemSession

/// Typing into a text field with keys (Docs/keymaps.md#typing): in `tandem run` a text field
/// is activated with Enter, printable keys then type into it (even `q` and `?`), Backspace
/// deletes, Ctrl-U clears, Enter or Escape end it; a display's braille keyboard types into a
/// focused field. The session resolves each key in its own state (`SessionCore.press(for:)`),
/// so a recording keeps the commands the keys gave.
@Suite("typing with keys")
struct KeyTypingTests {
    /// `tandem run`'s session on the sign-in form, fed terminal keys through `SessionCore`.
    struct Typist {
        var core: SessionCore
        let records = RecordingSink()
        var now = 0
        var recorded: [RecordedInput] = []

        init(profile: Profile? = nil, catalog path: String = CLITests.fixture("form.catalog.json"), input: InputMethod = .keyboard) throws {
            let p = try profile ?? ProfileStore.shipped.load("default").0
            let catalog = try CatalogLoader.load(path: path).catalog
            var session = Session(catalog: catalog, profile: p, sink: records, timing: .virtual, makeTranslator: louisTranslator(for:))
            session.helpKeys = p.keyMap
            session.defaultInput = input
            core = SessionCore(session: session, keyMap: p.keyMap)
            core.apply(.open(), at: 0)
        }

        mutating func press(_ keys: TerminalKey...) {
            for k in keys { step(.terminalKey(k)) }
        }

        mutating func type(_ text: String) {
            for c in text { step(.terminalKey(c == " " ? .space : .character(c))) }
        }

        mutating func wait(_ ms: Int) {
            now += ms
            core.advance(to: now)
        }

        /// The hints spoken so far.
        var hints: [String] {
            records.records.compactMap { if case .speech(.speak(let s)) = $0.record, s.utterance.source == .hint { s.utterance.text } else { nil } }
        }

        mutating func step(_ input: SessionInput) {
            now += 1000
            core.apply(input, at: now)
            core.advance(to: now)
        }

        var spoken: [String] {
            records.records.compactMap { if case .speech(.speak(let s)) = $0.record { s.utterance.text } else { nil } }
        }

        /// The commands the transcript logged for the keys.
        var commands: [String] {
            records.records.compactMap {
                if case .event(let e) = $0.record, e.type == "key" { e.fields.first { $0.key == "command" }?.value } else { nil }
            }
        }

        var value: String? { core.session.navigator.element("email")?.value }
    }

    @Test("Enter on a text field starts editing; letters bound to commands type instead; Backspace deletes; Escape ends it, and q quits again")
    func terminalEditing() throws {
        var t = try Typist()
        t.press(.right)
        #expect(t.core.session.navigator.focusedElement?.id == "email")
        t.press(.enter)
        #expect(t.core.session.editing == "email")
        #expect(t.spoken.last == "Editing Email", "\(t.spoken)")
        t.type("q? a")
        #expect(t.value == "q? a")
        #expect(!t.core.quitRequested, "q typed, not quit")
        t.press(.backspace)
        #expect(t.value == "q? ")
        t.press(.control("u"))
        #expect(t.value == nil, "Ctrl-U clears the field")
        t.type("ana")
        #expect(t.spoken.last == "ana", "the new value is heard: \(t.spoken)")
        t.press(.escape)
        #expect(t.core.session.editing == nil)
        #expect(t.spoken.last == "Done editing Email")
        #expect(t.core.session.navigator.screen.id == "signin", "Escape ended editing and did not go back")
        #expect(t.commands == ["next", "activate", "type q", "type ?", "type  ", "type a", "delete", "clear", "type a", "type n", "type a", "escape"],
                "\(t.commands)")
        t.press(.character("h"))
        #expect(t.value == "ana", "after editing, h is next-heading again")
        t.press(.character("q"))
        #expect(t.core.quitRequested)
    }

    @Test("focus leaving the field ends editing; a secure field's typing is one bullet a character in speech and transcript")
    func secureAndLeaving() throws {
        var t = try Typist()
        t.press(.right, .enter)
        t.press(.right)
        #expect(t.core.session.navigator.focusedElement?.id == "password")
        #expect(t.core.session.editingField() == nil, "moving on ended editing")
        t.press(.enter)
        t.type("pw")
        #expect(t.spoken.suffix(2) == ["•", "••"], "\(t.spoken)")
        #expect(!t.commands.contains { $0.contains("pw") || $0 == "type p" }, "\(t.commands)")
        #expect(t.commands.suffix(2) == ["type •", "type •"])
    }

    @Test("the keys resolve where the session is, and a recording keeps the commands they gave")
    func recordedAsCommands() throws {
        var t = try Typist()
        var kept: [RecordedInput] = []
        let box = Box()
        t.core.record = { input, _ in box.inputs.append(input) }
        t.press(.right, .enter)
        t.type("q")
        t.press(.enter)
        kept = box.inputs
        #expect(kept == [.key(.next, display: false), .key(.activate, display: false), .key(.type("q"), display: false),
                         .key(.activate, display: false)])
        // Played back as commands (no terminal), the same session state follows.
        var replay = try Typist()
        for case .key(let c, _) in kept { replay.step(.command(c)) }
        #expect(replay.value == "q")
    }

    @Test("a display's typed character and chord type into the focused field; its Backspace deletes while editing")
    func displayTyping() throws {
        var t = try Typist()
        t.press(.right)
        t.step(.output(.brailleCommand(name: "PASSCHAR", argument: 0x41)))
        t.step(.output(.brailleCommand(name: "PASSDOTS", argument: 0b0000_0011)))   // dots 1 2: b
        #expect(t.value == "Ab")
        #expect(t.core.session.editing == "email", "typing on the display started editing")
        t.step(.output(.brailleCommand(name: "KEY_BACKSPACE", argument: nil)))
        #expect(t.value == "A", "Backspace deletes while editing (action-previous otherwise)")
        t.step(.output(.brailleCommand(name: "PASSCHAR", argument: 0x07)))
        #expect(t.value == "A", "a control character types nothing")
    }

    final class Box: @unchecked Sendable {  // touched only on the test's thread
        var inputs: [RecordedInput] = []
    }
}

/// Hints name the keys of how the user drives the session (Docs/keymaps.md#hints): VoiceOver's
/// gestures headless (the catalogs' goldens), the bound terminal keys in `tandem run`, the
/// display's keys for a braille user, in every shipped language.
@Suite("hints name keys")
struct KeyHintTests {
    typealias Typist = KeyTypingTests.Typist

    /// The hint heard after moving to the element `moves` steps on.
    static func hint(_ t: inout Typist, moves: Int = 1, fromDisplay: Bool = false) -> String? {
        for _ in 0..<moves { t.step(fromDisplay ? .output(.brailleCommand(name: "LNDN", argument: nil)) : .command(.next)) }
        let before = t.hints.count
        t.wait(5000)
        return t.hints.dropFirst(before).last
    }

    @Test("touch (headless, the iOS-like default) keeps VoiceOver's gestures")
    func touch() throws {
        var t = try Typist(input: .touch)
        #expect(Self.hint(&t) == "Double tap to edit")
    }

    @Test("a keyboard hears the bound key: Enter to edit, the arrows to adjust")
    func keyboard() throws {
        var t = try Typist()
        #expect(Self.hint(&t) == "Press Enter to edit")
        var g = try Typist(catalog: Example("grocery").catalogPath)
        var stepper: String?
        for _ in 1...12 where stepper == nil {
            let h = Self.hint(&g)
            if g.core.session.navigator.focusedElement?.id == "banana.stepper" { stepper = h }
        }
        #expect(stepper == "Pressione Seta para cima ou Seta para baixo para ajustar o valor")
    }

    @Test("the key named is the one the profile binds; an action with no key bound has no hint")
    func rebound() throws {
        var p = try ProfileStore.shipped.load("default").0
        p.keyMap.terminal["enter"] = nil
        p.keyMap.terminal["space"] = nil
        p.keyMap.terminal["x"] = .command(.activate)
        var t = try Typist(profile: p)
        #expect(Self.hint(&t) == "Press x to edit")
        p.keyMap.terminal["x"] = nil
        var none = try Typist(profile: p)
        #expect(Self.hint(&none) == nil)
    }

    @Test("a display key's hint names the display's keys; a braille profile names them for every command")
    func braille() throws {
        var p = try ProfileStore.shipped.load("default").0
        p.keyMap.braille["KEY_ENTER"] = nil  // HOME is left to activate
        var t = try Typist(profile: p)
        #expect(Self.hint(&t, fromDisplay: true) == "Press HOME to edit")
        p.input = .braille
        var b = try Typist(profile: p, input: .touch)
        #expect(Self.hint(&b) == "Press HOME to edit")
        #expect(try ProfileStore.shipped.load("braille-only").0.input == .braille)
        #expect(try ProfileStore.shipped.load("speech-only").0.input == .keyboard)
        #expect(try ProfileStore.shipped.load("default").0.input == nil)
    }

    @Test("each shipped language says the key in its own words")
    func languages() throws {
        var p = try ProfileStore.shipped.load("default").0
        p.language = "ru"
        var ru = try Typist(profile: p)
        #expect(Self.hint(&ru) == "Нажмите Ввод, чтобы редактировать")
        p.language = "pt-BR"
        var pt = try Typist(profile: p)
        #expect(Self.hint(&pt) == "Pressione Enter para editar")
    }

    @Test("a profile's input is one of touch, keyboard, braille")
    func profileField() throws {
        let (p, _) = try Profile.decode(Array(#"{"format":"tandem.profile/1","input":"keyboard"}"#.utf8), file: "k.json", name: "k")
        #expect(p.input == .keyboard)
        #expect(throws: Diagnostic.self) {
            _ = try Profile.decode(Array(#"{"format":"tandem.profile/1","input":"mouse"}"#.utf8), file: "k.json", name: "k")
        }
    }
}

/// Docs/keymaps.md#typing and #hints say what the code does.
@Suite("Docs/keymaps.md on typing and hints")
struct KeyTypingDocsTests {
    static let page = (try? String(contentsOfFile: PackageRoot.path("Docs/keymaps.md"), encoding: .utf8)) ?? ""

    /// The section from `heading` to the next `## `.
    static func section(_ heading: String) -> Substring {
        guard let start = page.range(of: "\n## " + heading) else { return "" }
        let rest = page[start.upperBound...]
        return rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
    }

    @Test("the typing table's keys type, delete and clear as KeyMap.typingCommand does")
    func typingTable() {
        let rows = Self.section("Typing into a text field").split(separator: "\n").filter { $0.hasPrefix("| ") }
        #expect(rows.contains { $0.contains("| Backspace | `delete` |") })
        #expect(KeyMap.typingCommand(forTerminalKey: .backspace) == .deleteBackward)
        #expect(rows.contains { $0.contains("| Ctrl-U | `clear` |") })
        #expect(KeyMap.typingCommand(forTerminalKey: .control("u")) == .clearText)
        #expect(rows.contains { $0.contains("| Space | `type  ` |") })
        #expect(KeyMap.typingCommand(forTerminalKey: .space) == .type(" "))
        #expect(rows.contains { $0.hasPrefix("| a printable character") && $0.contains("`type C`") })
        #expect(KeyMap.typingCommand(forTerminalKey: .character("é")) == .type("é"))
        #expect(KeyMap.typingCommand(forTerminalKey: .enter) == nil && KeyMap.typingCommand(forTerminalKey: .escape) == nil)
        #expect(Self.section("Typing into a text field").contains("`PASSCHAR`") && KeyMap.typingCommands.contains("PASSCHAR"))
    }

    @Test("the hints section's profile snippet decodes, and its input table lists every input method")
    func hintsSnippet() throws {
        let section = Self.section("Hints name keys")
        let json = try #require(section.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "\n```").first)
        let (p, warnings) = try Profile.decode(Array(json.utf8), file: "keymaps.md", name: "snippet")
        #expect(p.input == .keyboard && warnings.isEmpty)
        for m in InputMethod.allCases { #expect(section.contains("| `\(m.rawValue)` |"), "\(m)") }
    }
}
