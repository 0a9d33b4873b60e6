import TandemModel

/// `order-omits`: `order` (accessibilityElements) replaces a container's children outright;
/// an accessible element inside that it does not name cannot be reached by swiping or by touch.
struct OrderOmits: Check {
    let rule = LintRule.orderOmits
    let screenWide = true

    func check(_ state: ScreenState, _ report: inout Report) {
        let els = state.screen.elements
        let scope = state.order.modalRoot
        for c in els.indices {
            guard let order = els[c].order, state.shown[c], !insideAccessible(c, state) else { continue }
            if let m = scope, c != m, !state.isDescendant(c, of: m) { continue }
            let named = Set(order.compactMap { state.screen.index[$0] })
            var omitted: [Int] = []
            for child in els[c].children { collect(child, named: named, state, into: &omitted) }
            for d in omitted {
                report.add(rule, d, "the order of \(state.name(c)) leaves out \(state.name(d)); VoiceOver can never reach it",
                           severity: state.isInteractive(d) ? .error : .warning)
            }
        }
    }

    /// The units under `x` that VoiceOver would reach without `order` and `order` does not name.
    func collect(_ x: Int, named: Set<Int>, _ state: ScreenState, into out: inout [Int]) {
        guard state.shown[x], !named.contains(x) else { return }
        if state.order.accessible[x] { out.append(x); return }
        for child in state.screen.elements[x].children { collect(child, named: named, state, into: &out) }
    }

    /// Whether an accessible element contains `c` (or is `c`): then its inside is read as one.
    func insideAccessible(_ c: Int, _ state: ScreenState) -> Bool {
        var p: Int? = c
        while let x = p {
            if state.order.accessible[x] { return true }
            p = state.screen.elements[x].parent
        }
        return false
    }
}
