import TandemModel

/// `label-not-words`: a label that is a resource name (`ic_settings_24`, `hero_banner.png`),
/// a code identifier (`btnSettings`) or symbols only (`•••`) is read out as such: "i c
/// underscore settings underscore 24". It names nothing a person would say.
struct LabelNotWords: Check {
    let rule = LintRule.labelNotWords
    static let fileExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "svg", "webp", "heic", "pdf", "xml", "json", "imageset"]

    func check(_ state: ScreenState, _ report: inout Report) {
        for i in state.checkedElements {
            let e = state.element(i)
            guard let own = e.label else { continue }
            let label = state.catalog.resolve(own, language: state.language).trimmingSpaces
            guard !label.isEmpty, let what = Self.kind(of: label) else { continue }
            report.add(rule, i, "the label \(quoted(label)) of \(state.name(i)) is \(what), not words; VoiceOver reads it out as it is written",
                       severity: state.isInteractive(i) ? .error : .warning)
        }
    }

    /// What the label looks like, when it is not words: nil for words.
    static func kind(of label: String) -> String? {
        if !label.contains(where: { $0.isLetter || $0.isNumber }) { return "symbols only" }
        guard !label.contains(where: \.isWhitespace) else { return nil }
        if let dot = label.lastIndex(of: "."), fileExtensions.contains(label[label.index(after: dot)...].lowercased()),
           dot != label.startIndex {
            return "a file name"
        }
        if label.contains("_") { return "an identifier" }
        // lowerCamelCase: two or more lower-case letters, then a capitalised word (btnSettings,
        // not the brands iPhone or macOS).
        if label.wholeMatch(of: /[a-z]{2,}([A-Z][a-z0-9]+)+/) != nil { return "an identifier" }
        return nil
    }
}
