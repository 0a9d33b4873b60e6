import Testing
import TandemModel
import TandemNavigator
@testable import TandemService
@testable import TandemSession

/// Keys: raw terminal bytes decoded into keys, and key maps from profiles.
@Suite("terminal keys and key maps")
struct KeyMapTests {
    static func keys(_ bytes: [UInt8]) -> [String] {
        var d = TerminalKeyDecoder()
        var out = d.feed(bytes)
        out += d.flush()
        return out.map(\.description)
    }

    @Test("arrows, Home/End and page keys in both CSI and SS3 forms")
    func escapeSequences() {
        #expect(Self.keys(Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D".utf8)) == ["up", "down", "right", "left"])
        #expect(Self.keys(Array("\u{1B}OH\u{1B}OF\u{1B}[1~\u{1B}[4~".utf8)) == ["home", "end", "home", "end"])
        #expect(Self.keys(Array("\u{1B}[5~\u{1B}[6~\u{1B}[Z\u{1B}OP".utf8)) == ["page-up", "page-down", "shift-tab", "f1"])
    }

    @Test("a sequence split across reads is put back together")
    func splitSequence() {
        var d = TerminalKeyDecoder()
        #expect(d.feed([0x1B]).isEmpty)
        #expect(d.hasPending)
        #expect(d.feed(Array("[".utf8)).isEmpty)
        #expect(d.feed(Array("C".utf8)) == [.right])
        #expect(!d.hasPending)
    }

    @Test("a lone ESC is the Escape key once nothing follows it")
    func loneEscape() {
        var d = TerminalKeyDecoder()
        #expect(d.feed([0x1B]).isEmpty)
        #expect(d.flush() == [.escape])
    }

    @Test("Enter, Tab, Backspace, Space, control keys and UTF-8 characters")
    func plainKeys() {
        #expect(Self.keys([0x0D, 0x09, 0x7F, 0x20, 0x04]) == ["enter", "tab", "backspace", "space", "ctrl-d"])
        #expect(Self.keys(Array("q?ç".utf8)) == ["q", "?", "ç"])
    }

    @Test("the default terminal map: arrows move and adjust, q quits, ? is help")
    func defaultTerminalMap() {
        let m = KeyMap.default
        #expect(m.terminalAction(.right) == .command(.next))
        #expect(m.terminalAction(.left) == .command(.previous))
        #expect(m.terminalAction(.up) == .command(.increment))
        #expect(m.terminalAction(.home) == .command(.first))
        #expect(m.terminalAction(.enter) == .command(.activate))
        #expect(m.terminalAction(.character("q")) == .quit)
        #expect(m.terminalAction(.character("?")) == .command(.help))
        #expect(m.terminalAction(.character("z")) == nil)
        #expect(m.terminalHelp(.english).contains("right: move to the next element"))
        #expect(m.terminalHelp(.portuguese).contains("right: ir para o próximo elemento"))
    }

    @Test("the default braille map binds BRLTTY commands; routing keeps its cell")
    func defaultBrailleMap() {
        let m = KeyMap.default
        #expect(m.command(forBrailleCommand: "LNDN", argument: nil) == .next)
        #expect(m.command(forBrailleCommand: "fwinrt", argument: nil) == .panRight)
        #expect(m.command(forBrailleCommand: "ROUTE", argument: 7) == .route(7))
        #expect(m.command(forBrailleCommand: "ROUTE", argument: nil) == nil)
        #expect(m.command(forBrailleCommand: "PASTE", argument: nil) == nil, "unbound keys stay BRLTTY's")
    }

    @Test("a profile's keys add to, replace and remove default bindings")
    func profileKeys() throws {
        let json = #"{"format": "tandem.profile/1", "keys": {"terminal": {"j": "next", "k": "previous", "q": null, "x": "quit"}, "braille": {"lndn": "next-heading"}}}"#
        let (p, _) = try Profile.decode(Array(json.utf8), file: "vim.json", name: "vim")
        #expect(p.keyMap.terminalAction(.character("j")) == .command(.next))
        #expect(p.keyMap.terminalAction(.character("q")) == nil)
        #expect(p.keyMap.terminalAction(.character("x")) == .quit)
        #expect(p.keyMap.terminalAction(.right) == .command(.next), "the rest of the defaults stay")
        #expect(p.keyMap.command(forBrailleCommand: "LNDN", argument: nil) == .nextHeading)
    }

    @Test("an unknown command in a profile's keys is an error naming the file, line and path")
    func profileKeysError() {
        let json = "{\n  \"keys\": {\"terminal\": {\"j\": \"jump\"}}\n}"
        #expect(throws: Diagnostic(file: "bad.json", line: 2, path: "keys.terminal.j", message: "unknown command \"jump\"")) {
            _ = try Profile.decode(Array(json.utf8), file: "bad.json", name: "bad")
        }
    }
}
