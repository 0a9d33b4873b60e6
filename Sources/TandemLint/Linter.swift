import TandemModel
import TandemNavigator

/// `tandem lint`: an accessibility audit of a catalog. Each screen is checked as it opens and
/// in every state one effect list leads to (`EffectStates`), by the rules of `LintRule.all`
/// (their stories: `Docs/lint.md`). Pure: the catalog is never changed, nothing is read or
/// written.
public struct Linter: Sendable {
    /// Rule ids not to run (`--disable`).
    public var disabled: Set<String>

    public init(disabled: Set<String> = []) { self.disabled = disabled }

    static let checks: [any Check] = [
        MissingLabel(), LabelRepeatsTrait(), HintRepeatsLabel(), HintNamesGesture(), CoveredBySibling(),
        OverlayNotModal(), AdjustableNoValue(), ProgressNoLabel(), FirstFocusNotTitle(), NoHeading(),
        OrderOmits(), NestedAccessible(), SameLabelDifferentAction(), DuplicateActionName(), SmallTarget(),
        OffScreen(), LabelNotWords(),
    ]

    /// Lints a decoded catalog. `lines` (from `CatalogDecoder.lines`) and `file` say where each
    /// finding is. Throws for a `"lint"` exception that names no known rule.
    public func lint(_ catalog: Catalog, lines: CatalogLines, file: String) throws(Diagnostic) -> [Finding] {
        try checkExceptions(catalog, file: file)
        let checks = Self.checks.filter { !disabled.contains($0.rule.id) }
        var found = Collected()
        let words = WordMemo()

        var openings: [ScreenState] = []
        for s in catalog.screens.indices {
            let state = ScreenState(catalog: catalog, screenIndex: s, words: words)
            openings.append(state)
            found.run(checks, on: state)
        }
        for entry in EffectStates(catalog).entries {
            let byScreen = Dictionary(grouping: entry.changes, by: \.screen)
            for s in byScreen.keys.sorted() {
                let changes = byScreen[s]!
                if EffectStates.keepsStructure(changes, in: catalog) {
                    var overrides: [Int: Element] = [:]
                    for c in changes {
                        overrides[c.element] = EffectStates.apply(c.changes, to: overrides[c.element] ?? catalog.screens[s].elements[c.element])
                    }
                    found.run(checks, on: ScreenState(base: openings[s], overrides: overrides, context: entry.context))
                } else {
                    var changed = catalog
                    for c in changes {
                        let after = EffectStates.apply(c.changes, to: changed.screens[s].elements[c.element])
                        changed.screens[s].modify(c.element) { $0 = after }
                    }
                    found.run(checks, on: ScreenState(catalog: changed, screenIndex: s, words: words, context: entry.context,
                                                      opening: openings[s], changedElements: changes.map(\.element)))
                }
            }
        }
        let order = Dictionary(uniqueKeysWithValues: LintRule.all.enumerated().map { ($0.element.id, $0.offset) })
        return found.items
            .filter { !isAllowed($0.rule.id, screen: $0.screen, element: $0.element, in: catalog) }
            .map { item in
                let screen = catalog.screens[item.screen]
                let line = item.element.flatMap { lines.line(screen: item.screen, element: $0) } ?? lines.line(screen: item.screen)
                let path = item.element.map { screen.jsonPath(of: $0, screen: item.screen) } ?? "screens[\(item.screen)]"
                return (item.screen, Finding(rule: item.rule.id, severity: item.severity, file: file, line: line, path: path,
                                             screen: screen.id, element: item.element.map { screen.elements[$0].id },
                                             message: item.message, context: item.context,
                                             source: item.element.flatMap { lines.source(screen: item.screen, element: $0) }))
            }
            .sorted { a, b in
                if a.0 != b.0 { return a.0 < b.0 }
                if (a.1.line ?? 0) != (b.1.line ?? 0) { return (a.1.line ?? 0) < (b.1.line ?? 0) }
                if a.1.rule != b.1.rule { return order[a.1.rule, default: 0] < order[b.1.rule, default: 0] }
                return a.1.message < b.1.message
            }
            .map(\.1)
    }

    /// The label VoiceOver says for element `i` of `screen`, exactly as `Presenter.label`
    /// (TandemPresentation) speaks it: its own label, a loading indicator's progress label, or
    /// the labels of its shown descendants in reading order, joined with ", ".
    public static func spokenLabel(of i: Int, on screen: Screen, in catalog: Catalog) -> String {
        spokenLabel(screen.elements[i], at: i, on: screen, in: catalog, language: catalog.language)
    }

    static func spokenLabel(_ e: Element, at i: Int, on screen: Screen, in catalog: Catalog, language: String) -> String {
        if let l = e.label { return catalog.resolve(l, language: language) }
        if let p = e.progress?.label { return p }
        let parts = ReadingOrder.descendants(of: i, in: screen, language: language).compactMap { d -> String? in
            screen.elements[d].label.map { catalog.resolve($0, language: language) }
        }
        return parts.filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// Whether a `"lint"` exception on the screen, the element or one of its ancestors allows it.
    func isAllowed(_ rule: String, screen s: Int, element: Int?, in catalog: Catalog) -> Bool {
        let screen = catalog.screens[s]
        if screen.lint?.allow.contains(rule) == true { return true }
        var p = element
        while let x = p {
            if screen.elementLint[x]?.allow.contains(rule) == true { return true }
            p = screen.elements[x].parent
        }
        return false
    }

    /// Every rule id a catalog's exceptions name must be a rule.
    func checkExceptions(_ catalog: Catalog, file: String) throws(Diagnostic) {
        for (s, screen) in catalog.screens.enumerated() {
            var exceptions: [(LintException, String)] = screen.lint.map { [($0, "screens[\(s)].lint")] } ?? []
            for (e, x) in screen.elementLint.sorted(by: { $0.key < $1.key }) {
                exceptions.append((x, screen.jsonPath(of: e, screen: s) + ".lint"))
            }
            for (x, path) in exceptions {
                for id in x.allow where LintRule.named(id) == nil {
                    throw Diagnostic(file: file, line: x.line, path: path + ".allow",
                                     message: "unknown lint rule \(quoted(id)) (rules: \(LintRule.all.map(\.id).joined(separator: ", ")))")
                }
            }
        }
    }
}

/// Findings of every state, each once: the same rule, element and message found again in a
/// later state is the same finding (the first, usually the screen as it opens, is kept).
private struct Collected {
    struct Item {
        let rule: LintRule
        let severity: Severity
        let screen: Int
        let element: Int?
        let message: String
        let context: String?
    }

    struct Key: Hashable {
        let rule: String
        let screen: Int
        let element: Int?
        let message: String
    }

    var items: [Item] = []
    var seen: Set<Key> = []

    mutating func run(_ checks: [any Check], on state: ScreenState) {
        var report = Report()
        for check in checks where state.changed == nil || !check.screenWide {
            check.check(state, &report)
        }
        for r in report.items {
            let key = Key(rule: r.rule.id, screen: state.screenIndex, element: r.element, message: r.message)
            guard seen.insert(key).inserted else { continue }
            items.append(Item(rule: r.rule, severity: r.severity, screen: state.screenIndex, element: r.element,
                              message: r.message, context: state.context))
        }
    }
}
