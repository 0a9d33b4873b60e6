/// Where an utterance comes from; the policy decides its priority from this (Docs/policy.md#rules).
public enum Source: String, Sendable, Hashable {
    /// Focus moved (by the user, `screenChanged` or `layoutChanged`).
    case focus
    /// A value changed by the user, or the user's direct feedback (rotor, repeat, spell).
    case value
    case announcement
    case hint
    case progress
    case error
}

/// Step `step` of `steps` of the loading indicator `element`.
public struct ProgressStep: Sendable, Hashable {
    public var step: Int
    public var steps: Int
    /// The indicator's element id: two indicators' steps are two series.
    public var element: String
    public init(step: Int, steps: Int, element: String = "") { self.step = step; self.steps = steps; self.element = element }
    public var isFirst: Bool { step <= 1 }
    public var isLast: Bool { step >= steps }
}

/// Something to say: text in a language, where it came from, and what should follow it.
public struct Utterance: Sendable, Hashable {
    public var text: String
    /// BCP 47 language (`en`, `pt-BR`, `ru`).
    public var language: String
    public var source: Source
    /// An announcement posted with `"priority": "high"`.
    public var important: Bool
    /// Spoken after this one ends, after the hint delay, as a notification (dropped if
    /// anything else starts first).
    public var hint: String?
    /// Spell the text letter by letter.
    public var spell: Bool
    /// For `.progress`: which step of the series this is.
    public var progress: ProgressStep?
    /// Read back from the speech history (not added to it again).
    public var isReview = false
    /// Tandem's own status ("Bank closed"): a newer one takes the place of one still waiting,
    /// and a key cancels it (Docs/policy.md#rules).
    public var isStatus = false

    public init(text: String, language: String, source: Source, important: Bool = false, hint: String? = nil,
                spell: Bool = false, progress: ProgressStep? = nil) {
        self.text = text; self.language = language; self.source = source
        self.important = important; self.hint = hint; self.spell = spell; self.progress = progress
    }
}
