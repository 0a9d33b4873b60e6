import Foundation
import TandemClient
import TandemModel
import TandemNavigator

/// Groceries, the example app of Examples/clients (the Swift twin of grocery_app.py): it keeps
/// its own model (the items and their quantities), builds its accessibility tree from it, and
/// answers what Tandem says the blind user did, as a real app's accessibility bridge would:
///
/// - a quick-add stepper (adjustable): increment/decrement → a `set` of the new value at once,
///   so Tandem speaks it as the user's own change ("2 in cart");
/// - a custom action "Delete" on each row → an announcement ("Banana deleted") and an `update`
///   of the list without that row, focus on the row that took its place;
/// - "Check out": a loading indicator is shown (visible and modal: Tandem moves focus into
///   it), its progress rises in a few `set`s, then a new screen says the order is confirmed.
final class Groceries {
    struct Item {
        let id: String, name: String, size: String, price: String
        var quantity = 0
    }

    static let rowHeight = 80.0
    static let listTop = 96.0

    let app: TandemApp
    /// Between progress steps while checking out (stands in for the order request).
    let stepSeconds: Double
    let log: (String) -> Void
    var items = [
        Item(id: "banana", name: "Banana", size: "1 kg", price: "$1.99"),
        Item(id: "coffee", name: "Coffee", size: "500 g", price: "$8.49"),
        Item(id: "milk", name: "Milk", size: "1 L", price: "$1.29"),
    ]

    init(app: TandemApp, stepSeconds: Double = 0.4, log: @escaping (String) -> Void) {
        self.app = app; self.stepSeconds = stepSeconds; self.log = log
    }

    // MARK: the tree, built from the model

    func listScreen() -> AppScreen {
        AppScreen(id: "list", title: "Groceries", focus: "title", root: AppElement("list.root", children: [
            // The screen's first focus: its title, as a heading.
            AppElement("title", label: "Groceries", traits: .header, frame: Frame(x: 16, y: 44, width: 358, height: 44)),
            products(),
            AppElement("checkout", label: "Check out", traits: .button, frame: Frame(x: 16, y: 740, width: 358, height: 48)),
            // Hidden until checkout; when shown, modal, so nothing else can be reached.
            AppElement("checkout.loading", frame: Frame(x: 145, y: 372, width: 100, height: 100),
                       progress: Progress(label: "Placing order", value: 0), hidden: true),
        ]))
    }

    func products() -> AppElement {
        var rows = items.enumerated().map { k, item in row(item, y: Self.listTop + 8 + Double(k) * Self.rowHeight) }
        if rows.isEmpty {
            rows = [AppElement("empty", label: "Your list is empty", frame: Frame(x: 16, y: Self.listTop + 8, width: 358, height: 44))]
        }
        return AppElement("products", frame: Frame(x: 0, y: Self.listTop, width: 390, height: 3 * Self.rowHeight), children: rows)
    }

    /// A group keeps the cell and its stepper together in reading order. The cell has no label
    /// of its own: Tandem joins its children's ("Banana, 1 kg, $1.99").
    func row(_ item: Item, y: Double) -> AppElement {
        AppElement("\(item.id).row", group: true, children: [
            AppElement("\(item.id).cell", frame: Frame(x: 16, y: y, width: 250, height: 64), accessible: true,
                       actions: ["Delete"], children: [
                AppElement("\(item.id).name", label: item.name, frame: Frame(x: 88, y: y + 4, width: 170, height: 20)),
                AppElement("\(item.id).size", label: item.size, frame: Frame(x: 88, y: y + 26, width: 80, height: 16)),
                AppElement("\(item.id).price", label: item.price, frame: Frame(x: 88, y: y + 44, width: 80, height: 16)),
                AppElement("\(item.id).photo", frame: Frame(x: 16, y: y, width: 64, height: 64), accessible: false),
            ]),
            AppElement("\(item.id).stepper", label: "\(item.name) quantity", traits: .adjustable,
                       frame: Frame(x: 276, y: y + 16, width: 98, height: 32), adjust: Self.adjust(item)),
        ])
    }

    /// Tandem renders `value` through `format` ("2 in cart").
    static func adjust(_ item: Item) -> AppAdjust {
        AppAdjust(value: Double(item.quantity), min: 0, max: 20, step: 1, format: "%@ in cart")
    }

    static func confirmedScreen(count: Int) -> AppScreen {
        AppScreen(id: "confirmed", title: "Order confirmed", focus: "confirmed.title", root: AppElement("confirmed.root", children: [
            AppElement("confirmed.title", label: "Order confirmed", traits: .header, frame: Frame(x: 16, y: 44, width: 358, height: 44)),
            AppElement("confirmed.summary", label: "\(count) item\(count == 1 ? "" : "s"), delivery tomorrow between 8 and 10 AM",
                       frame: Frame(x: 16, y: 100, width: 358, height: 48)),
            AppElement("confirmed.back", label: "Back to groceries", traits: .button, frame: Frame(x: 16, y: 740, width: 358, height: 48)),
        ]))
    }

    // MARK: what the user does

    /// Publishes the list and answers actions until the connection ends (which is thrown).
    func run() throws(TandemClientError) {
        try app.show(listScreen())
        log("-> screen list")
        while let event = try app.nextEvent() {
            switch event {
            case .focus(_, let element):
                log("<- focus \(element)")
            case .action(let action):
                log("<- action \(action.kind.rawValue) \(action.element)" + (action.name.map { " \"\($0)\"" } ?? ""))
                try handle(action)
            case .rejected(let error):
                log("!! Tandem refused a message: \(error)")
            }
        }
    }

    func handle(_ action: AppAction) throws(TandemClientError) {
        let parts = action.element.split(separator: ".", maxSplits: 1).map(String.init)
        let index = items.firstIndex { $0.id == parts.first }
        let part = parts.count > 1 ? parts[1] : ""
        switch (action.kind, part) {
        case (.increment, "stepper") where index != nil: try step(index!, by: 1)
        case (.decrement, "stepper") where index != nil: try step(index!, by: -1)
        case (.custom, "cell") where index != nil && action.name == "Delete": try delete(index!)
        case (.activate, _) where action.element == "checkout": try checkOut()
        case (.activate, _) where action.element == "confirmed.back":
            try app.show(listScreen())
            log("-> screen list")
        default:
            log("   (nothing to do)")
        }
    }

    func step(_ k: Int, by delta: Int) throws(TandemClientError) {
        let quantity = min(20, max(0, items[k].quantity + delta))
        guard quantity != items[k].quantity else { return }  // at the end of its range, as a UIStepper
        items[k].quantity = quantity
        // Sent at once: a change within Tandem's user-action window after the action is spoken
        // as the user's own, cancelling the previous value.
        try app.set("\(items[k].id).stepper", .adjust(Self.adjust(items[k])))
        log("-> set \(items[k].id).stepper \(quantity) in cart")
    }

    func delete(_ k: Int) throws(TandemClientError) {
        let item = items.remove(at: k)
        let next = items.isEmpty ? "empty" : items[min(k, items.count - 1)].id + ".cell"
        // The announcement goes first: focus speech waits for an announcement, so the user hears
        // "Banana deleted", then the row that took its place, however the two are timed.
        try app.announce("\(item.name) deleted")
        // The list and every row under it (the rows moved up: new frames); the deleted row is in
        // no children list any more, so Tandem removes it with its subtree.
        try app.update([products()], focus: next)
        log("-> notify announcement, update products (focus \(next))")
    }

    func checkOut() throws(TandemClientError) {
        let count = items.reduce(0) { $0 + $1.quantity }
        // Shown and modal: Tandem moves focus into it ("Placing order, 0%").
        try app.set("checkout.loading", .hidden(false), .modal(true))
        log("-> set checkout.loading shown, modal")
        for step in 1...5 {
            Thread.sleep(forTimeInterval: stepSeconds)
            try app.set("checkout.loading", .progress(Progress(label: "Placing order", value: Double(step) / 5)))
            log("-> set checkout.loading \(step * 20)%")
        }
        try app.show(Self.confirmedScreen(count: count))
        log("-> screen confirmed")
    }
}
