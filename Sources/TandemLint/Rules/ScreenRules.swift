import TandemModel

/// `first-focus-not-title`: after `screenChanged` VoiceOver speaks the focused element first;
/// opening on "Back, button" or a search field leaves the user unsure which screen opened.
struct FirstFocusNotTitle: Check {
    let rule = LintRule.firstFocusNotTitle
    let screenWide = true

    func check(_ state: ScreenState, _ report: inout Report) {
        guard state.isOpening else { return }
        let screen = state.screen
        let preferred = screen.focus.flatMap { screen.index[$0] }.flatMap { state.isReachable($0) ? $0 : nil }
        guard let f = preferred ?? state.order.elements.first else { return }
        if state.element(f).traits.contains(.header) { return }
        let label = state.label(f)
        if let title = screen.title, state.normalised(title) == state.normalised(label) { return }
        let opens = "opens on \(state.name(f)) (\(quoted(label)))"
        let what = screen.title.map { "\(opens), not on its title \(quoted($0)) or a heading" } ?? "has no title and \(opens), not on a heading"
        report.add(rule, nil, "screen \(quoted(screen.id)) \(what); VoiceOver says that first when the screen appears")
    }
}

/// `no-heading`: the headings rotor is the quickest way through a screen; with no heading it
/// finds nothing. Only a note on a screen of three stops or fewer (an alert).
struct NoHeading: Check {
    let rule = LintRule.noHeading
    let screenWide = true

    func check(_ state: ScreenState, _ report: inout Report) {
        guard state.isOpening, !state.order.elements.isEmpty, state.order.headings.isEmpty else { return }
        let small = state.order.elements.count <= 3
        report.add(rule, nil, "screen \(quoted(state.screen.id)) has no heading; the headings rotor finds nothing to jump to",
                   severity: small ? .info : nil)
    }
}

/// `same-label-different-action`: three "Add" buttons, one per product, all say "Add"; the
/// user cannot tell which adds what. The same control twice (the same effects) is fine.
struct SameLabelDifferentAction: Check {
    let rule = LintRule.sameLabelDifferentAction
    let screenWide = true

    struct Behaviour: Hashable {
        let activate: [Effect]?
        let actions: [CustomAction]
        let adjust: [Effect]?
    }

    func check(_ state: ScreenState, _ report: inout Report) {
        var groups: [String: [Int]] = [:]
        var firstSeen: [String] = []
        for i in state.order.elements where state.isInteractive(i) {
            let key = state.normalised(state.label(i))
            guard !key.isEmpty else { continue }
            if groups[key] == nil { firstSeen.append(key) }
            groups[key, default: []].append(i)
        }
        for key in firstSeen {
            let members = groups[key]!
            guard members.count > 1 else { continue }
            let behaviours = Set(members.map { i -> Behaviour in
                let e = state.element(i)
                return Behaviour(activate: e.activate, actions: e.actions, adjust: e.adjust?.effects)
            })
            guard behaviours.count > 1 else { continue }
            let ids = members.map { state.element($0).id }.joined(separator: ", ")
            report.add(rule, members[0], "\(quoted(state.label(members[0]))) names \(members.count) controls on \(quoted(state.screen.id)) that do different things (\(ids)); say which one each is")
        }
    }
}
