import TandemModel

/// `hint-repeats-label`: the hint comes a second after the label and says it again.
struct HintRepeatsLabel: Check {
    let rule = LintRule.hintRepeatsLabel

    func check(_ state: ScreenState, _ report: inout Report) {
        for i in state.checkedElements {
            guard let hint = state.element(i).hint else { continue }
            let h = state.tokens(hint)
            let label = state.label(i)
            let l = state.tokens(label)
            guard !h.isEmpty, !l.isEmpty else { continue }
            let labelWords = Set(l)
            let shared = h.filter(labelWords.contains).count
            // Equal, starting with the label, or made mostly of the label's words.
            guard h == l || h.starts(with: l) || shared * 5 >= h.count * 4 else { continue }
            report.add(rule, i, "the hint \(quoted(hint)) of \(state.name(i)) repeats its label \(quoted(label)); say what happens instead")
        }
    }
}

/// `hint-names-gesture`: "Tap to open" is wrong for a Switch Control, Voice Control or braille
/// keyboard user; a hint says what happens ("Opens your lists").
struct HintNamesGesture: Check {
    let rule = LintRule.hintNamesGesture

    func check(_ state: ScreenState, _ report: inout Report) {
        let patterns = Vocabulary.lists(Vocabulary.gestures, language: state.language)
        for i in state.checkedElements {
            let e = state.element(i)
            guard let hint = e.hint else { continue }
            let tokens = state.tokens(hint)
            guard let (pattern, at) = patterns.lazy.compactMap({ p in p.firstMatch(in: tokens).map { (p, $0) } }).first else { continue }
            let said = tokens[at..<(at + pattern.words.count)].joined(separator: " ")
            // An adjustable element's hint that replaces the system one may say how to swipe.
            let adjustable = e.traits.contains(.adjustable) || e.adjust != nil
            report.add(rule, i, "the hint \(quoted(hint)) of \(state.name(i)) names a gesture (\(quoted(said))); say what happens instead",
                       severity: adjustable ? .info : nil)
        }
    }
}
