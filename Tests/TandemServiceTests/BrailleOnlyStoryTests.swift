import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
import TandemOutputs
import TandemService
import TandemSession
import TandemTestSupport

/// The `braille-only` profile (a deaf-blind tester: nothing spoken) on the grocery sample, by
/// display keys alone: every element of the opening screen is reached, and acting on each one
/// shows something on the display — a new value, a message, a new screen, or "Nenhuma ação".
@Suite("braille-only story")
struct BrailleOnlyStoryTests {
    /// The display key `KeyMap.default` has for `command` (the walk uses no other key).
    static func displayKey(_ command: Command) -> String? {
        KeyMap.default.braille.first { $0.value == .command(command) }?.key
    }

    /// A braille-only session focused on the `n`-th element after the opening one, reached by `next`.
    static func session(at n: Int, sink: RecordingSink) throws -> Session {
        var s = Session(catalog: try Example("grocery").catalog(), profile: try ReplayHarness.profile("braille-only"),
                        sink: sink, timing: .virtual, makeTranslator: louisTranslator(for:))
        s.start(at: 0)
        s.settle()
        for i in 0..<n { s.perform(.next, at: 1000 * (i + 1)) ; s.settle() }
        return s
    }

    @Test("grocery by display keys alone: every element is shown, and acting on it shows its result")
    func everyElementActsVisibly() throws {
        for c in [Command.next, .activate, .increment, .escape] { #expect(Self.displayKey(c) != nil, "\(c.name) has a display key") }
        var lines: [String] = []
        var n = 0
        while n < 40 {
            let sink = RecordingSink()
            var s = try Self.session(at: n, sink: sink)
            #expect(!sink.records.contains { if case .speech(.speak) = $0.record { true } else { false } }, "braille-only says nothing")
            let focus = try #require(sink.lastBrailleFrame)
            if focus.flash { break }  // "Fim": past the last element
            lines.append(focus.text)
            let t = s.now + 1000
            let element = s.navigator.focusedElement
            s.perform(element?.adjust != nil ? .increment : .activate, at: t)
            s.advance(to: t + 100)
            let after = try #require(sink.lastBrailleFrame)
            #expect(after != focus, "acting on \"\(focus.text)\" shows something: still \(after.text)")
            n += 1
        }
        #expect(n < 40, "the walk reached the end (\"Fim\")")
        #expect(lines.count >= 6, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Quantidade de banana, 0") })
    }

    @Test("with nothing spoken, the history keys review what the display showed, newest first")
    func historyWithoutSpeech() throws {
        let sink = RecordingSink()
        var s = try Self.session(at: 2, sink: sink)
        let shown = sink.records.compactMap { r -> String? in
            if case .braille(let frame) = r.record, !frame.flash { frame.text } else { nil }
        }
        let last = try #require(shown.last)
        var t = s.now + 1000
        s.perform(.historyPrevious, at: t)
        s.settle()
        let newest = try #require(sink.lastBrailleFrame)
        #expect(newest.flash)
        // "4 de 4: …": the last thing the session told, with its place; not "Início".
        #expect(newest.text.hasPrefix("4 de 4: "), "\(newest.text)")
        t += 1000
        s.perform(.historyPrevious, at: t)
        s.settle()
        let before = try #require(sink.lastBrailleFrame)
        // Before it, the lists button's hint: shown after its line on a pan, kept as its own entry.
        #expect(before.text == "3 de 4: Abre suas listas de compras", "\(before.text)")
        #expect(before.text != newest.text)
        // The newest entry is the element the display shows now, said as speech would say it.
        let label = try #require(s.navigator.focusedElement?.label)
        let focused = s.navigator.catalog.resolve(label, language: "pt-BR")
        #expect(last.hasPrefix(focused) && newest.text.contains(focused), "\(last) / \(newest.text)")
    }
}
