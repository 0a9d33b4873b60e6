/// A rule's check: looks at one state of one screen and reports what it finds.
///
/// Element rules look at `state.checkedElements` (after an effect, only the elements whose
/// findings can have changed); screen rules (`screenWide`) look at the whole screen and are not
/// run again for a state in which only some elements' fields changed.
protocol Check: Sendable {
    var rule: LintRule { get }
    var screenWide: Bool { get }
    func check(_ state: ScreenState, _ report: inout Report)
}

extension Check {
    var screenWide: Bool { false }
}

/// What the checks of one state found, before the linter adds file, line and path.
struct Report {
    struct Item {
        let rule: LintRule
        let severity: Severity
        /// `nil`: the screen itself.
        let element: Int?
        let message: String
    }

    private(set) var items: [Item] = []

    /// A finding at the rule's own severity unless `severity` says otherwise.
    mutating func add(_ rule: LintRule, _ element: Int?, _ message: String, severity: Severity? = nil) {
        items.append(Item(rule: rule, severity: severity ?? rule.severity, element: element, message: message))
    }
}

/// Text quoted in a message.
func quoted(_ s: String) -> String { "\"\(s)\"" }
