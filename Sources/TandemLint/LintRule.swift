/// One check of `tandem lint`: its id (what `--disable` and a catalog's `"lint"` exception
/// name), the most severe level it reports, and a one-line summary. Each rule's story is in
/// `Docs/lint.md`, under a heading that is its id.
public struct LintRule: Sendable, Hashable {
    public let id: String
    /// The level of its findings; a few rules report a milder level in milder cases (a
    /// non-interactive element, an overlay shown only by an effect).
    public let severity: Severity
    public let summary: String

    public init(id: String, severity: Severity, summary: String) {
        self.id = id; self.severity = severity; self.summary = summary
    }

    /// Every rule, in the order `Docs/lint.md` tells them.
    public static let all: [LintRule] = [
        .missingLabel, .labelRepeatsTrait, .hintRepeatsLabel, .hintNamesGesture, .coveredBySibling,
        .overlayNotModal, .adjustableNoValue, .progressNoLabel, .firstFocusNotTitle, .noHeading,
        .orderOmits, .nestedAccessible, .sameLabelDifferentAction, .duplicateActionName, .smallTarget,
        .offScreen, .labelNotWords,
    ]

    /// The rule with this id.
    public static func named(_ id: String) -> LintRule? { all.first { $0.id == id } }
}

extension LintRule {
    public static let missingLabel = LintRule(
        id: "missing-label", severity: .error,
        summary: "an element VoiceOver focuses has no label (an icon button says only \"button\")")
    public static let labelRepeatsTrait = LintRule(
        id: "label-repeats-trait", severity: .warning,
        summary: "the label says what its trait already says (\"Close button, button\")")
    public static let hintRepeatsLabel = LintRule(
        id: "hint-repeats-label", severity: .warning,
        summary: "the hint repeats the label instead of saying what happens")
    public static let hintNamesGesture = LintRule(
        id: "hint-names-gesture", severity: .warning,
        summary: "the hint names a gesture (\"Tap to…\"), which differs with Switch Control, Voice Control and braille keys")
    public static let coveredBySibling = LintRule(
        id: "covered-by-sibling", severity: .error,
        summary: "an element declared later lies over this one's centre, so touch exploration never finds it")
    public static let overlayNotModal = LintRule(
        id: "overlay-not-modal", severity: .error,
        summary: "an overlay covers the screen but is not modal: swiping walks into the page behind it")
    public static let adjustableNoValue = LintRule(
        id: "adjustable-no-value", severity: .error,
        summary: "an adjustable element (a stepper) has no value to say")
    public static let progressNoLabel = LintRule(
        id: "progress-no-label", severity: .error,
        summary: "a loading indicator has no label: the user hears \"40%\" with no subject")
    public static let firstFocusNotTitle = LintRule(
        id: "first-focus-not-title", severity: .warning,
        summary: "a screen opens on something other than its title or a heading")
    public static let noHeading = LintRule(
        id: "no-heading", severity: .warning,
        summary: "a screen has no heading: the headings rotor finds nothing")
    public static let orderOmits = LintRule(
        id: "order-omits", severity: .error,
        summary: "an `order` leaves out an accessible element inside it, which no gesture can then reach")
    public static let nestedAccessible = LintRule(
        id: "nested-accessible", severity: .error,
        summary: "a control sits inside an accessible element, which VoiceOver reads as one, so the control is out of reach")
    public static let sameLabelDifferentAction = LintRule(
        id: "same-label-different-action", severity: .warning,
        summary: "two controls on one screen have the same label but do different things")
    public static let duplicateActionName = LintRule(
        id: "duplicate-action-name", severity: .error,
        summary: "two custom actions of one element have the same name (or one has none)")
    public static let offScreen = LintRule(
        id: "off-screen", severity: .error,
        summary: "an element VoiceOver reaches lies off screen (a toast above the top): heard, never seen, never found by touch")
    public static let labelNotWords = LintRule(
        id: "label-not-words", severity: .error,
        summary: "the label is a file name, an identifier or symbols (\"ic_settings_24\", \"•••\"), read out as written")
    public static let smallTarget = LintRule(
        id: "small-target", severity: .error,
        summary: "a control is smaller than 44×44 pt (an error under 24 pt)")
}
