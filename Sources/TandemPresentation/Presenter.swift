import TandemModel
import TandemNavigator
import TandemVocabulary

/// How much is said: the verbosity part of a profile.
public struct Verbosity: Sendable, Hashable {
    /// Speak hints (and the adjustable hint) after the hint delay.
    public var hints: Bool
    /// Speak trait words ("button", "heading") and show their abbreviations.
    public var traitWords: Bool
    /// Say "actions available" for elements with custom actions.
    public var actionsAvailable: Bool

    public init(hints: Bool = true, traitWords: Bool = true, actionsAvailable: Bool = true) {
        self.hints = hints; self.traitWords = traitWords; self.actionsAvailable = actionsAvailable
    }
}

/// Text for the braille display before translation, with the cursor as a character offset.
public struct BrailleText: Sendable, Hashable {
    public var text: String
    public var cursor: Int?
    /// The cursor sits in a value the user edits or adjusts: the word there is shown in
    /// computer braille (one cell per character), as screen readers do at a caret.
    public var editing: Bool
    /// The element's hint, shown after the line when the user pans past its end (as
    /// VoiceOver's braille does; Docs/braille.md#rules); nil for messages.
    public var hint: String?
    public init(text: String, cursor: Int?, editing: Bool = false, hint: String? = nil) {
        self.text = text; self.cursor = cursor; self.editing = editing; self.hint = hint
    }
}

/// What a navigator event turns into.
public enum Output: Sendable, Hashable {
    case speak(Utterance)
    /// The braille line that follows focus.
    case focusLine(BrailleText)
    /// A message that flashes on the display, then gives way to the focus line.
    case flash(BrailleText)
    case sound(SoundIcon)
}

/// Phrases events as VoiceOver would say and show them: label, value, trait words, position,
/// then the hint as a separate utterance after a pause; braille with short role abbreviations
/// (how an element is composed: `Presenter+Element.swift`).
public struct Presenter: Sendable {
    public var verbosity: Verbosity
    public var phrases: Phrases
    /// The keys hints name (a keyboard or a braille display drives the session); nil: VoiceOver's
    /// gestures (Docs/keymaps.md#hints).
    public var hintKeys: HintKeys?

    public init(language: String, verbosity: Verbosity = Verbosity()) {
        self.verbosity = verbosity
        self.phrases = Phrases.forLanguage(language)
    }

    /// `line` as the first focus line of a new screen shows it: the language's screen word
    /// (`scr:`, `tela:`, `экр:`) before it, the cursor kept on the same character — the
    /// display's part of the screen-change sound, which costs the reader no key
    /// (Docs/braille.md#rules).
    public func newScreen(_ line: BrailleText) -> BrailleText {
        let marker = phrases.text("braille.newScreen") + " "
        var marked = line
        marked.text = marker + line.text
        marked.cursor = line.cursor.map { $0 + marker.unicodeScalars.count }
        return marked
    }

    /// The outputs for one event, given the navigator's state after it.
    public func present(_ event: NavigatorEvent, in nav: Navigator) -> [Output] {
        let lang = nav.language
        switch event {
        case .focused(_, let id, let reason):
            guard let i = nav.screen.index[id] else { return [] }
            let d = describe(i, in: nav)
            var u = Utterance(text: speech(d), language: lang, source: .focus)
            if reason != .readAll { u.hint = hint(d, for: nav.screen.elements[i]) }
            return [.speak(u), .focusLine(braille(d))]
        case .valueChanged(let id):
            guard let i = nav.screen.index[id] else { return [] }
            let text = spokenValue(of: nav.screen.elements[i], language: lang, appOwned: nav.forwardsActions) ?? label(for: i, in: nav)
            return [.speak(Utterance(text: text, language: lang, source: .value)), .focusLine(braille(for: i, in: nav))]
        case .elementChanged(let id):
            guard let i = nav.screen.index[id] else { return [] }
            return [.speak(Utterance(text: speech(for: i, in: nav), language: lang, source: .value)), .focusLine(braille(for: i, in: nav))]
        case .announcement(let text, let high):
            return [.speak(Utterance(text: text, language: lang, source: .announcement, important: high)),
                    .flash(BrailleText(text: text, cursor: nil))]
        case .pageScrolled(let text):
            return [.speak(Utterance(text: text, language: lang, source: .value)), .flash(BrailleText(text: text, cursor: nil))]
        case .boundary(let edge):
            // The sound is all speech users get; the display says where navigation stopped.
            return [.sound(.boundary), .flash(BrailleText(text: phrases.boundary(edge.rawValue), cursor: nil))]
        case .unhandled(.escape), .unhandled(.magicTap), .unhandled(.scrollUp), .unhandled(.scrollDown):
            // Nothing to go back to, no magic tap, nothing to scroll: VoiceOver's bonk, and on
            // the display the boundary's "Not available", so a braille user is not left guessing.
            return [.sound(.boundary), .flash(BrailleText(text: phrases.boundary(Edge.none.rawValue), cursor: nil))]
        case .unhandled(.activate):
            let text = phrases.noAction
            return [.sound(.boundary), .speak(Utterance(text: text, language: lang, source: .value)),
                    .flash(BrailleText(text: text, cursor: nil))]
        case .actionSelected(let id, let name):
            let text = name ?? phrases.activate
            var out: [Output] = [.speak(Utterance(text: text, language: lang, source: .value))]
            // The rotor's entry is named on the display as speech names it, the element's own
            // activation ("Activate") too: the element's line would not say the rotor moved.
            if nav.screen.index[id] != nil { out.append(.focusLine(BrailleText(text: text, cursor: 0))) }
            return out
        case .actionPerformed, .activated, .schedule, .unhandled, .appAction:
            return []
        case .screenChanged:
            return [.sound(.screen)]
        case .progress(let id, let step, let steps, let focused):
            guard let (s, i) = nav.catalog.locate(id) else { return [] }
            let e = nav.catalog.screens[s].elements[i]
            // The percentage of this step, not of the indicator now: the step's effects (a
            // load's `then`) have run by the time it is presented.
            let value = e.progress.map { _ in progressValue(step: step, of: steps) }
            let name = e.label.map { nav.catalog.resolve($0, language: lang) } ?? e.progress?.label ?? ""
            let named = name.isEmpty ? value ?? "" : name + ", " + (value ?? "")
            let series = ProgressStep(step: step, steps: steps, element: id)
            guard focused else {
                // As VoiceOver and NVDA: an indicator without focus is not followed step by
                // step; its end is said and shown with its name, so the user knows what finished.
                guard step >= steps, value != nil else { return [] }
                return [.sound(.progress),
                        .speak(Utterance(text: named, language: lang, source: .progress, progress: series)),
                        .flash(BrailleText(text: named, cursor: nil))]
            }
            var out: [Output] = [.sound(.progress)]
            out.append(.speak(Utterance(text: value ?? "", language: lang, source: .progress, progress: series)))
            // Its focus line only while it still has focus (the next screen may already be up).
            if s == nav.screenIndex, nav.focusIndex == i { out.append(.focusLine(braille(for: i, in: nav))) }
            if step >= steps, value != nil {
                // The end of loading is a status message on the display, as speech says it: it
                // stays for the message time even when a new screen replaces the indicator now.
                out.append(.flash(BrailleText(text: named, cursor: nil)))
            }
            return out
        }
    }
}
