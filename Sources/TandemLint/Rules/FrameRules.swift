import TandemModel

/// `covered-by-sibling`: on iOS an element declared later is drawn on top and wins hit-testing,
/// and VoiceOver's touch exploration speaks the frontmost element under the finger. An element
/// whose centre lies under a later reachable element is found by swiping but never by touch
/// (the header whose title frame, declared after its buttons, hid them).
struct CoveredBySibling: Check {
    let rule = LintRule.coveredBySibling
    let screenWide = true

    func check(_ state: ScreenState, _ report: inout Report) {
        let reachable = state.order.elements
        guard reachable.count > 1 else { return }
        let grid = FrameGrid(reachable.compactMap { i in state.frames[i].flatMap { $0.area > 0 ? (i, $0) : nil } })
        // A non-modal overlay is overlay-not-modal's finding; what it covers is not reported
        // again here, element by element (#25: no knock-on findings).
        let overlays = OverlayNotModal.overlays(state).map(\.overlay)
        for a in reachable {
            guard let frame = state.frames[a], frame.area > 0 else { continue }
            let centre = frame.centre
            // The first element drawn over the centre that is not part of `a` itself.
            let cover = grid.candidates(at: centre)
                .filter { $0 > state.subtreeEnd[a] && state.frames[$0]!.contains(centre) }
                .min()
            guard let b = cover, !overlays.contains(where: { $0 == b || state.isDescendant(b, of: $0) }) else { continue }
            let interactive = state.isInteractive(a)
            report.add(rule, a, "\(state.name(a)) lies under \(state.name(b)), declared after it and covering its centre; touch exploration finds \(state.name(b)) instead",
                       severity: interactive ? .error : .warning)
        }
    }
}

/// Reachable frames bucketed on a 64-point grid, so that finding what lies over a point looks
/// at a few frames, not every frame of a 100k-element screen.
struct FrameGrid {
    static let cell = 64.0
    /// Frames too large to bucket (spanning more cells than this) are checked for every point.
    static let maxCells = 4096
    var buckets: [Int64: [Int]] = [:]
    var large: [Int] = []

    init(_ frames: [(Int, Frame)]) {
        for (i, f) in frames {
            let x0 = Self.slot(f.minX), x1 = Self.slot(f.maxX), y0 = Self.slot(f.minY), y1 = Self.slot(f.maxY)
            guard Self.cells(x0, x1, y0, y1) <= Double(Self.maxCells) else { large.append(i); continue }
            for gx in x0...x1 {
                for gy in y0...y1 { buckets[Self.key(gx, gy), default: []].append(i) }
            }
        }
    }

    /// How many grid cells a span of slots covers (as a `Double`: huge frames must not overflow).
    static func cells(_ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int) -> Double {
        Double(x1 - x0 + 1) * Double(y1 - y0 + 1)
    }

    static func slot(_ v: Double) -> Int {
        Int((Swift.max(-1e12, Swift.min(1e12, v)) / cell).rounded(.down))
    }

    static func key(_ x: Int, _ y: Int) -> Int64 { Int64(x) << 32 ^ Int64(UInt32(truncatingIfNeeded: y)) }

    func candidates(at p: (x: Double, y: Double)) -> [Int] {
        (buckets[Self.key(Self.slot(p.x), Self.slot(p.y))] ?? []) + large
    }

    /// Every frame that may overlap `f`, once each.
    func candidates(in f: Frame) -> Set<Int> {
        var out = Set(large)
        let x0 = Self.slot(f.minX), x1 = Self.slot(f.maxX), y0 = Self.slot(f.minY), y1 = Self.slot(f.maxY)
        if Self.cells(x0, x1, y0, y1) > Double(buckets.count) {
            for list in buckets.values { out.formUnion(list) }
            return out
        }
        for gx in x0...x1 {
            for gy in y0...y1 { out.formUnion(buckets[Self.key(gx, gy)] ?? []) }
        }
        return out
    }
}

/// `small-target`: a control smaller than Apple's 44×44 pt is hard to hit (a warning), and one
/// under WCAG 2.5.8's 24×24 fails outright (an error). Links inside text are exempt, as in
/// Google's checks; only a control's own frame is judged (a union of children is a guess).
struct SmallTarget: Check {
    let rule = LintRule.smallTarget
    static let minimum = 44.0
    static let hardMinimum = 24.0

    func check(_ state: ScreenState, _ report: inout Report) {
        for i in state.checkedElements {
            let e = state.element(i)
            guard state.isInteractive(i), !e.traits.contains(.link), let f = e.frame else { continue }
            let smaller = min(f.width, f.height)
            guard smaller < Self.minimum else { continue }
            report.add(rule, i, "\(state.name(i)) is \(f.sizeText) pt; make it at least 44×44 pt",
                       severity: smaller < Self.hardMinimum ? .error : .warning)
        }
    }
}
