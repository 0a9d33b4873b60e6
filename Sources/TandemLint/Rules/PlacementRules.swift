import TandemModel

/// `off-screen`: a toast parked above the top (y = −80) or a drawer beside the screen, still
/// reachable: swiping lands on something no one sees, whose words are stale, and touch
/// exploration never finds it. Content below the bottom edge is not judged: a screen scrolls.
struct OffScreen: Check {
    let rule = LintRule.offScreen

    func check(_ state: ScreenState, _ report: inout Report) {
        guard let bounds = state.bounds, bounds.area > 0 else { return }
        for i in state.checkedElements where i != 0 {
            guard let f = state.frames[i], f.area > 0 else { continue }
            let side: String
            if f.maxY <= bounds.minY { side = "above the top (y = \(Frame.number(f.y)))" }
            else if f.maxX <= bounds.minX { side = "beyond the leading edge (x = \(Frame.number(f.x)))" }
            else if f.minX >= bounds.maxX { side = "beyond the trailing edge (x = \(Frame.number(f.x)))" }
            else { continue }
            report.add(rule, i, "\(state.name(i)) can be reached by swiping but lies off screen, \(side); the user hears what no one sees and touch never finds it; hide it (\"hidden\": true) while it is off screen")
        }
    }
}
