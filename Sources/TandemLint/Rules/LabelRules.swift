import TandemModel

/// `missing-label`: an element VoiceOver stops on says nothing about what it is for.
struct MissingLabel: Check {
    let rule = LintRule.missingLabel

    func check(_ state: ScreenState, _ report: inout Report) {
        for i in state.checkedElements {
            let e = state.element(i)
            // A loading indicator is progress-no-label's case.
            guard e.progress == nil, state.label(i).allSatisfy(\.isWhitespace) else { continue }
            let traits = e.traits.names
            if state.isInteractive(i) {
                let what = traits.isEmpty ? "" : " (\(traits.joined(separator: ", ")))"
                let value = (e.value ?? "").trimmingSpaces
                let isField = !e.traits.isDisjoint(with: [.textField, .searchField])
                if isField && !value.isEmpty {
                    // A placeholder as the value: heard until the user types, then gone.
                    report.add(rule, i, "\(state.name(i))\(what) has no label; its only speech is its value \(quoted(value)), a placeholder, gone as soon as the user types; give it a label")
                } else if let hint = e.hint, !hint.allSatisfy(\.isWhitespace), !isField, !e.traits.contains(.secureTextField) {
                    report.add(rule, i, "\(state.name(i))\(what) can be used but has no label; VoiceOver says what it is and, only after a pause, its hint \(quoted(hint)); the rotors and the braille line show nothing to name it")
                } else {
                    report.add(rule, i, "\(state.name(i))\(what) can be used but has no label; VoiceOver says only what it is, never what it does")
                }
            } else if (e.value ?? "").allSatisfy(\.isWhitespace) {
                report.add(rule, i, "\(state.name(i)) has nothing to say but VoiceOver stops on it; give it a label, or \"accessible\": false if it is decoration",
                           severity: .warning)
            }
        }
    }
}

/// `label-repeats-trait`: "Close button" with the button trait is heard as "Close button, button".
struct LabelRepeatsTrait: Check {
    let rule = LintRule.labelRepeatsTrait

    func check(_ state: ScreenState, _ report: inout Report) {
        for i in state.checkedElements {
            let e = state.element(i)
            guard let own = e.label, !e.traits.isEmpty else { continue }
            let label = state.catalog.resolve(own, language: state.language)
            let tokens = state.tokens(label)
            search: for (trait, words) in Vocabulary.traitWords where e.traits.contains(trait) {
                for pattern in Vocabulary.lists(words, language: state.language) {
                    guard let at = pattern.firstMatch(in: tokens) else { continue }
                    let said = tokens[at..<(at + pattern.words.count)].joined(separator: " ")
                    let name = trait.names.first ?? ""
                    report.add(rule, i, "the label \(quoted(label)) of \(state.name(i)) says \(quoted(said)), which its \(name) trait already says")
                    break search
                }
            }
        }
    }
}

extension String {
    /// Without leading and trailing whitespace (the pure modules do without Foundation).
    var trimmingSpaces: String {
        let chars = Array(self)
        guard let first = chars.firstIndex(where: { !$0.isWhitespace }), let last = chars.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(chars[first...last])
    }
}
