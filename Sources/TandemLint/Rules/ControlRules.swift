import TandemModel

/// `adjustable-no-value`: a stepper with nothing to say as its value ("Quantity, adjustable"),
/// or whose `adjust.format` never shows the number.
struct AdjustableNoValue: Check {
    let rule = LintRule.adjustableNoValue

    func check(_ state: ScreenState, _ report: inout Report) {
        for i in state.checkedElements {
            let e = state.element(i)
            if let adjust = e.adjust {
                if let format = adjust.format, StringFormat.argumentCount(format) == 0 {
                    report.add(rule, i, "the adjust format \(quoted(format)) of \(state.name(i)) has no %@; the number is never said")
                }
            } else if e.traits.contains(.adjustable), (e.value ?? "").allSatisfy(\.isWhitespace) {
                report.add(rule, i, "adjustable \(state.name(i)) has no value and no \"adjust\"; the user hears neither the setting nor a change")
            }
        }
    }
}

/// `progress-no-label`: a loading indicator heard as "40%" or "in progress" with no subject.
struct ProgressNoLabel: Check {
    let rule = LintRule.progressNoLabel

    func check(_ state: ScreenState, _ report: inout Report) {
        for i in state.checkedElements where state.element(i).progress != nil {
            guard state.label(i).allSatisfy(\.isWhitespace) else { continue }
            report.add(rule, i, "loading indicator \(state.name(i)) has no label and no progress label; the user hears a percentage with no subject")
        }
    }
}

/// `duplicate-action-name`: the actions rotor says each custom action's name; two with one
/// name cannot be told apart, and one with none says nothing.
struct DuplicateActionName: Check {
    let rule = LintRule.duplicateActionName

    func check(_ state: ScreenState, _ report: inout Report) {
        for i in state.checkedElements {
            let actions = state.element(i).actions
            guard !actions.isEmpty else { continue }
            var seen: Set<String> = []
            for (k, a) in actions.enumerated() {
                let name = state.normalised(a.name)
                if name.isEmpty {
                    report.add(rule, i, "custom action \(k + 1) of \(state.name(i)) has no name")
                } else if !seen.insert(name).inserted {
                    report.add(rule, i, "\(state.name(i)) has two custom actions named \(quoted(a.name)); the actions rotor cannot tell them apart")
                }
            }
        }
    }
}

/// `nested-accessible`: an element marked `"accessible": true` is read as one, and everything
/// inside it is out of reach; a control in there (the stepper inside a product cell) cannot be
/// used at all.
struct NestedAccessible: Check {
    let rule = LintRule.nestedAccessible

    func check(_ state: ScreenState, _ report: inout Report) {
        for a in state.checkedElements where state.element(a).accessible == true {
            for d in stride(from: a + 1, through: state.subtreeEnd[a], by: 1) {
                let e = state.element(d)
                guard state.shown[d], e.accessible != false, state.isInteractive(d) else { continue }
                report.add(rule, d, "\(state.name(d)) can be used but lies inside \(state.name(a)), which VoiceOver reads as one element; make \(state.name(a)) a group instead, or move the control out")
            }
        }
    }
}
