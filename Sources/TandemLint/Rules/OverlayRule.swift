import TandemModel

/// `overlay-not-modal`: a sheet or dialog drawn over the page, holding controls, but not
/// `modal`: VoiceOver's swipes walk out of it into the page behind. An error when it covers
/// (nearly) the whole screen; a warning for a partial sheet that an effect shows.
struct OverlayNotModal: Check {
    let rule = LintRule.overlayNotModal
    let screenWide = true
    /// The share of the screen an overlay must cover to be a full-screen one.
    static let fullScreen = 0.9

    func check(_ state: ScreenState, _ report: inout Report) {
        for (o, share, covered) in Self.overlays(state) {
            let percent = Int((share * 100).rounded())
            report.add(rule, o, "\(state.name(o)) covers \(percent)% of the screen and \(covered) element\(covered == 1 ? "" : "s") behind it but is not modal; swiping walks out of it into the page behind",
                       severity: share >= Self.fullScreen ? .error : .warning)
        }
    }

    /// The overlays this rule reports in `state`: each with the share of the screen it covers
    /// and how many reachable elements lie mostly under it. `covered-by-sibling` leaves out
    /// what these cover (its finding would only repeat this one's).
    static func overlays(_ state: ScreenState) -> [(overlay: Int, share: Double, covered: Int)] {
        var out: [(overlay: Int, share: Double, covered: Int)] = []
        let els = state.screen.elements
        guard let bounds = state.bounds, bounds.area > 0, state.order.modalRoot == nil else { return [] }
        let reachable = state.order.elements.sorted()
        var grid: FrameGrid?
        var reported: [Int] = []
        for o in els.indices.dropFirst() {
            guard state.shown[o], let frame = els[o].frame, frame.area > 0 else { continue }
            let share = frame.overlapArea(bounds) / bounds.area
            let shownByEffect = !state.shownAtOpening[o]
            guard share >= Self.fullScreen || shownByEffect, !isModal(o, state) else { continue }
            // A scroll view (it handles a three-finger scroll) is the page's content, not drawn
            // over it: its frame runs under the bars fixed over it (Android Settings' list under
            // its search bar), and its rows move there as it scrolls.
            if els[o].scrollUp != nil || els[o].scrollDown != nil { continue }
            if reported.contains(where: { state.isDescendant(o, of: $0) }) { continue }
            // What it holds: a control the user reaches (reachable elements in its subtree).
            let start = lowerBound(reachable, o), end = lowerBound(reachable, state.subtreeEnd[o] + 1)
            guard reachable[start..<end].contains(where: state.isInteractive) else { continue }
            // What it covers: reachable content declared before it, mostly under it.
            if grid == nil {
                grid = FrameGrid(reachable.compactMap { i in state.frames[i].flatMap { $0.area > 0 ? (i, $0) : nil } })
            }
            let covered = grid!.candidates(in: frame).filter { r in
                guard r < o, !state.isDescendant(o, of: r), let f = state.frames[r] else { return false }
                return frame.overlapArea(f) * 2 >= f.area
            }
            guard !covered.isEmpty else { continue }
            reported.append(o)
            out.append((o, share, covered.count))
        }
        return out
    }

    /// The first position in `sorted` whose value is at least `value`.
    static func lowerBound(_ sorted: [Int], _ value: Int) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Modal itself or inside a modal element.
    static func isModal(_ i: Int, _ state: ScreenState) -> Bool {
        var p: Int? = i
        while let x = p {
            if state.screen.elements[x].modal { return true }
            p = state.screen.elements[x].parent
        }
        return false
    }
}
