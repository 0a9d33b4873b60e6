import TandemClient

/// The stepper's number, 0 to 10.
func counter(_ count: Double) -> AppAdjust { AppAdjust(value: count, min: 0, max: 10, format: "%@") }

let app = try await TandemApp.connect(name: "Counter")
var count = 0.0
try app.show(AppScreen(id: "main", focus: "count", root: AppElement("root", children: [
    AppElement("count", label: "Count", traits: .adjustable, frame: Frame(x: 16, y: 100, width: 358, height: 44), adjust: counter(count)),
])))
for try await event in app.events {
    guard case .action(let a) = event, a.element == "count" else { continue }
    count = min(10, max(0, count + (a.kind == .increment ? 1 : a.kind == .decrement ? -1 : 0)))
    try app.set("count", .adjust(counter(count)))   // within the user-action window: spoken as the user's change
}
