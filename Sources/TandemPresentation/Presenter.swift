import TandemModel
import TandemNavigator

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
    public init(text: String, cursor: Int?, editing: Bool = false) { self.text = text; self.cursor = cursor; self.editing = editing }
}

/// A sound icon (speech-dispatcher's `SOUND_ICON`, a short earcon).
public enum SoundIcon: String, Sendable, Hashable {
    /// Navigation ran into the start or end, or there was nothing to act on.
    case boundary
    /// A new screen appeared.
    case screen
    /// A loading indicator advanced.
    case progress
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

/// Phrases events as VoiceOver would say and show them: label, value, trait words, then the
/// hint as a separate utterance after a pause; braille with short role abbreviations.
public struct Presenter: Sendable {
    public var verbosity: Verbosity
    public var phrases: Phrases

    public init(language: String, verbosity: Verbosity = Verbosity()) {
        self.verbosity = verbosity
        self.phrases = Phrases.forLanguage(language)
    }

    /// The outputs for one event, given the navigator's state after it.
    public func present(_ event: NavigatorEvent, in nav: Navigator) -> [Output] {
        let lang = nav.language
        switch event {
        case .focused(_, let id, let reason):
            guard let i = nav.screen.index[id] else { return [] }
            var u = Utterance(text: speech(for: i, in: nav), language: lang, source: .focus)
            if reason != .readAll { u.hint = hint(for: nav.screen.elements[i]) }
            return [.speak(u), .focusLine(braille(for: i, in: nav))]
        case .valueChanged(let id):
            guard let i = nav.screen.index[id] else { return [] }
            let e = nav.screen.elements[i]
            let text = e.displayValue(language: lang, appOwned: nav.forwardsActions) ?? label(for: i, in: nav)
            return [.speak(Utterance(text: text, language: lang, source: .value)), .focusLine(braille(for: i, in: nav))]
        case .elementChanged(let id):
            guard let i = nav.screen.index[id] else { return [] }
            return [.speak(Utterance(text: speech(for: i, in: nav), language: lang, source: .value)), .focusLine(braille(for: i, in: nav))]
        case .announcement(let text, let high):
            return [.speak(Utterance(text: text, language: lang, source: .announcement, important: high)),
                    .flash(BrailleText(text: text, cursor: nil))]
        case .pageScrolled(let text):
            return [.speak(Utterance(text: text, language: lang, source: .value)), .flash(BrailleText(text: text, cursor: nil))]
        case .boundary:
            return [.sound(.boundary)]
        case .actionSelected(let id, let name):
            let text = name ?? phrases.activate
            var out: [Output] = [.speak(Utterance(text: text, language: lang, source: .value))]
            if let i = nav.screen.index[id] {
                out.append(.focusLine(name.map { BrailleText(text: $0, cursor: 0) } ?? braille(for: i, in: nav)))
            }
            return out
        case .actionPerformed, .activated, .schedule, .unhandled, .appAction:
            return []
        case .screenChanged:
            return [.sound(.screen)]
        case .progress(let id, let step, let steps):
            guard let (s, i) = nav.catalog.locate(id) else { return [] }
            let e = nav.catalog.screens[s].elements[i]
            var out: [Output] = [.sound(.progress)]
            out.append(.speak(Utterance(text: progressValue(e.progress) ?? "", language: lang, source: .progress,
                                        progress: ProgressStep(step: step, steps: steps))))
            if s == nav.screenIndex, nav.focusIndex == i { out.append(.focusLine(braille(for: i, in: nav))) }
            return out
        }
    }

    // MARK: fragments

    /// The label as presented: own label, a loading indicator's progress label, or the joined
    /// labels of its descendants (a grouped cell: "Banana, 1 kg, R$ 5,99").
    public func label(for i: Int, in nav: Navigator, braille: Bool = false) -> String {
        let e = nav.screen.elements[i]
        if braille, let b = e.brailleLabel { return nav.catalog.resolve(b, language: nav.language) }
        if let l = e.label { return nav.catalog.resolve(l, language: nav.language) }
        if let p = e.progress?.label { return p }
        let parts = ReadingOrder.descendants(of: i, in: nav.screen, language: nav.language).compactMap { d -> String? in
            nav.screen.elements[d].label.map { nav.catalog.resolve($0, language: nav.language) }
        }
        return parts.filter { !$0.isEmpty }.joined(separator: ", ")
    }

    func value(of e: Element, in nav: Navigator) -> String? {
        if e.progress != nil { return progressValue(e.progress) }
        return e.displayValue(language: nav.language, appOwned: nav.forwardsActions)
    }

    func progressValue(_ p: Progress?) -> String? {
        guard let p else { return nil }
        guard let v = p.value else { return phrases.inProgress }
        return StringFormat.render(phrases.percent, [String(Int((v * 100).rounded()))])
    }

    /// "selected, Banana, 1 kg, dimmed, button"
    public func speech(for i: Int, in nav: Navigator) -> String {
        let e = nav.screen.elements[i]
        var parts: [String] = []
        if verbosity.traitWords, e.traits.contains(.selected) { parts.append(phrases.selected) }
        parts.append(label(for: i, in: nav))
        if let v = value(of: e, in: nav) { parts.append(v) }
        if verbosity.traitWords {
            parts += phrases.traitWords.filter { e.traits.contains($0.trait) }.map(\.word)
        }
        return parts.filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// "Actions available. Double tap to add one", or nil.
    public func hint(for e: Element) -> String? {
        var parts: [String] = []
        if verbosity.actionsAvailable, !e.actions.isEmpty { parts.append(phrases.actionsAvailable) }
        if verbosity.hints {
            if let h = e.hint, !h.isEmpty { parts.append(h) }
            else if e.traits.contains(.adjustable) || e.adjust != nil { parts.append(phrases.adjustableHint) }
        }
        return parts.isEmpty ? nil : parts.joined(separator: ". ")
    }

    /// "Banana 1 kg btn", the cursor at the start, or at the value of an adjustable.
    public func braille(for i: Int, in nav: Navigator) -> BrailleText {
        let e = nav.screen.elements[i]
        var text = ""
        var cursor = 0
        var editing = false
        func add(_ s: String) {
            guard !s.isEmpty else { return }
            if !text.isEmpty { text += " " }
            text += s
        }
        if verbosity.traitWords, e.traits.contains(.selected) { add(phrases.selectedAbbreviation) }
        add(label(for: i, in: nav, braille: true))
        if let v = value(of: e, in: nav) {
            if e.adjust != nil || e.traits.contains(.adjustable) || e.traits.contains(.searchField) {
                cursor = text.isEmpty ? 0 : text.count + 1
                editing = true
            }
            add(v)
        }
        if verbosity.traitWords {
            for a in phrases.abbreviations where e.traits.contains(a.trait) { add(a.abbreviation) }
        }
        return BrailleText(text: text, cursor: min(cursor, text.count), editing: editing)
    }
}
