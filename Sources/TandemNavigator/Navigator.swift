import TandemModel
import TandemVocabulary

/// VoiceOver's model of a user moving through an app: one focused element, reading order,
/// modal scoping, the custom-actions rotor, screens with a back stack, and the effects that
/// actions have on the catalog.
///
/// Pure: no I/O and no clock. Each call returns the events it caused, in order; deferred work
/// (a delayed announcement, loading steps) comes back as `.schedule` events that the driver
/// hands to `fire(_:)` when the time has come.
public struct Navigator: Sendable {
    /// The catalog as it is now (effects change it).
    public internal(set) var catalog: Catalog
    /// The language labels are resolved in and reading direction follows.
    public private(set) var language: String
    /// Index of the current screen in `catalog.screens`.
    public internal(set) var screenIndex: Int
    /// Index of the focused element in the current screen, if any element is reachable.
    public internal(set) var focusIndex: Int?
    /// The custom action the rotor has selected on the focused element (`nil`: default activation).
    public internal(set) var rotor: Int?

    /// The catalog is fed by a running app: the user's actions go to it (`.appAction`) instead
    /// of running the catalog's effects (Docs/protocol.md#action).
    public var forwardsActions = false

    var backStack: [(screen: Int, focus: String?)] = []
    /// Reading order per screen, rebuilt only when the structure of that screen changed.
    var orders: [Int: ReadingOrder] = [:]
    /// Focus to give back when a modal closes: (modal element index, focus before it opened).
    var modalReturns: [(screen: Int, modal: Int, focus: String?)] = []
    var loads: [Int: Load] = [:]
    var nextLoadToken = 0

    struct Load: Sendable {
        let screen: Int
        let element: Int
        let steps: Int
        let then: [Effect]
    }

    /// A navigator on `screen` (default: the catalog's `start`), not yet started.
    public init(catalog: Catalog, language: String? = nil, screen: String? = nil) {
        self.catalog = catalog
        self.language = language ?? catalog.language
        self.screenIndex = catalog.screenIndex[screen ?? catalog.start] ?? 0
    }

    // MARK: reading the state

    public var screen: Screen { catalog.screens[screenIndex] }

    public var focusedElement: Element? { focusIndex.map { screen.elements[$0] } }

    public func element(_ id: String) -> Element? {
        catalog.locate(id).map { catalog.screens[$0.screen].elements[$0.element] }
    }

    /// The current screen's reading order (computing it if a change invalidated it).
    public mutating func readingOrder() -> ReadingOrder { order(screenIndex) }

    mutating func order(_ s: Int) -> ReadingOrder {
        if let o = orders[s] { return o }
        let o = ReadingOrder(screen: catalog.screens[s], language: language, rowThreshold: catalog.device.rowThreshold)
        orders[s] = o
        return o
    }

    /// Switches the language (a profile change); reading orders are rebuilt for its direction.
    public mutating func setLanguage(_ language: String) {
        guard language != self.language else { return }
        self.language = language
        orders = [:]
    }

    // MARK: commands

    /// Focuses the current screen's `focus` element (or the first), as after `screenChanged`.
    public mutating func start() -> [NavigatorEvent] {
        var events: [NavigatorEvent] = []
        focusScreen(preferred: screen.focus, reason: .start, into: &events)
        return events
    }

    /// Performs a command the table gives to the navigator (`CommandHandler.navigator`);
    /// the others act on the session's output and return no events here.
    public mutating func perform(_ command: Command) -> [NavigatorEvent] {
        switch command {
        case .type, .deleteBackward, .clearText: return editText(command)
        default: break
        }
        if forwardsActions, Self.forwarded.contains(command) {
            guard let action = appAction(for: command) else {
                return command == .increment || command == .decrement ? [.boundary(.none)] : [.unhandled(command)]
            }
            return [.appAction(action)]
        }
        var events: [NavigatorEvent] = []
        switch command {
        case .next: step(by: 1, into: &events)
        case .previous: step(by: -1, into: &events)
        case .first: jump(toLast: false, into: &events)
        case .last: jump(toLast: true, into: &events)
        case .nextHeading: heading(forward: true, into: &events)
        case .previousHeading: heading(forward: false, into: &events)
        case .activate: activate(into: &events)
        case .increment: adjustFocused(by: 1, into: &events)
        case .decrement: adjustFocused(by: -1, into: &events)
        case .actionNext: moveRotor(by: 1, into: &events)
        case .actionPrevious: moveRotor(by: -1, into: &events)
        case .magicTap: handler(command, \.magicTap, screenLevel: screen.magicTap, into: &events)
        case .escape: escape(into: &events)
        case .scrollUp: handler(command, \.scrollUp, screenLevel: nil, into: &events)
        case .scrollDown: handler(command, \.scrollDown, screenLevel: nil, into: &events)
        default: assert(command.info.handler != .navigator, "no navigator handler for \(command.name)")
        }
        return events
    }

    /// Text entry on the focused text field: an app is sent the action and changes the value
    /// itself (heard as the user's own change); a catalog's field changes here. Anything else
    /// focused, or a dimmed field, is a boundary.
    mutating func editText(_ command: Command) -> [NavigatorEvent] {
        guard let f = focusIndex else { return [.boundary(.none)] }
        let e = screen.elements[f]
        let t = e.traits
        guard t.contains(.textField) || t.contains(.secureTextField) || t.contains(.searchField), !t.contains(.notEnabled) else {
            return [.boundary(.none)]
        }
        let kind: AppAction.Kind = switch command {
        case .type: .type
        case .deleteBackward: .delete
        default: .clear
        }
        let action = AppAction(kind, element: e.id, text: command.text)
        if forwardsActions { return [.appAction(action)] }
        let old = e.value ?? ""
        guard let new = action.edited(old), new != old else { return [.boundary(.none)] }
        var events: [NavigatorEvent] = []
        let before = catalog.screens[screenIndex].modify(f) { $0.value = new.isEmpty ? nil : new }
        contentChanged(screen: screenIndex, element: f, from: before, into: &events)
        return events
    }

    /// The commands an app carries out itself.
    static let forwarded: Set<Command> = [.activate, .increment, .decrement, .magicTap, .escape, .scrollUp, .scrollDown]

    /// Moves to the next element for read-all; `nil` at the end of the screen.
    public mutating func advanceForReadAll() -> [NavigatorEvent]? {
        let o = readingOrder()
        guard let f = focusIndex, let p = o.position(of: f), p + 1 < o.elements.count else { return nil }
        var events: [NavigatorEvent] = []
        setFocus(o.elements[p + 1], reason: .readAll, into: &events)
        return events
    }

    /// Focuses the first element for read-from-top (even when it is focused already, so that
    /// it is read again).
    public mutating func focusFirstForReadAll() -> [NavigatorEvent] {
        var events: [NavigatorEvent] = []
        if let first = readingOrder().elements.first {
            setFocus(first, reason: .readAll, into: &events)
        } else {
            events.append(.boundary(.none))
        }
        return events
    }

    /// An app notification or other effect from outside (a scenario's `post`).
    public mutating func post(_ effect: Effect) -> [NavigatorEvent] {
        var events: [NavigatorEvent] = []
        run([effect], into: &events)
        return events
    }

    // MARK: navigation

    mutating func step(by delta: Int, into events: inout [NavigatorEvent]) {
        let o = readingOrder()
        guard let f = focusIndex, let p = o.position(of: f) else {
            if let first = o.elements.first { setFocus(first, reason: .user, into: &events) } else { events.append(.boundary(.none)) }
            return
        }
        let target = p + delta
        guard o.elements.indices.contains(target) else {
            events.append(.boundary(delta > 0 ? .end : .start))
            return
        }
        setFocus(o.elements[target], reason: .user, into: &events)
    }

    mutating func jump(toLast: Bool, into events: inout [NavigatorEvent]) {
        let o = readingOrder()
        guard let target = toLast ? o.elements.last : o.elements.first else {
            events.append(.boundary(.none))
            return
        }
        setFocus(target, reason: .user, into: &events)
    }

    mutating func heading(forward: Bool, into events: inout [NavigatorEvent]) {
        let o = readingOrder()
        let p = focusIndex.flatMap { o.position(of: $0) } ?? (forward ? -1 : o.elements.count)
        // Binary search in the sorted heading positions: no scan of the screen per step.
        var lo = 0, hi = o.headings.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if o.headings[mid] <= p { lo = mid + 1 } else { hi = mid }
        }
        let found: Int? = forward
            ? (lo < o.headings.count ? o.headings[lo] : nil)
            : { var i = lo - 1; while i >= 0 && o.headings[i] >= p { i -= 1 }; return i >= 0 ? o.headings[i] : nil }()
        guard let pos = found else {
            events.append(.boundary(forward ? .end : .start))
            return
        }
        setFocus(o.elements[pos], reason: .user, into: &events)
    }

    /// Moves focus (resetting the rotor) and reports it.
    mutating func setFocus(_ element: Int, reason: FocusReason, into events: inout [NavigatorEvent]) {
        focusIndex = element
        rotor = nil
        events.append(.focused(screen: screen.id, element: screen.elements[element].id, reason: reason))
    }

    // MARK: acting on the focused element

    mutating func activate(into events: inout [NavigatorEvent]) {
        guard let f = focusIndex else { events.append(.unhandled(.activate)); return }
        let e = screen.elements[f]
        if let r = rotor, r < e.actions.count {
            let action = e.actions[r]
            events.append(.actionPerformed(element: e.id, name: action.name))
            run(action.effects, into: &events)
            return
        }
        guard let effects = e.activate else { events.append(.unhandled(.activate)); return }
        events.append(.activated(element: e.id))
        run(effects, into: &events)
    }

    mutating func adjustFocused(by direction: Double, into events: inout [NavigatorEvent]) {
        guard let f = focusIndex, let adjust = screen.elements[f].adjust else {
            events.append(.boundary(.none))
            return
        }
        let s = screenIndex
        guard applyAdjust(screen: s, element: f, by: direction, into: &events) else {
            events.append(.boundary(direction > 0 ? .end : .start))
            return
        }
        run(adjust.effects, into: &events)
    }

    mutating func moveRotor(by delta: Int, into events: inout [NavigatorEvent]) {
        guard let f = focusIndex, !screen.elements[f].actions.isEmpty else {
            events.append(.boundary(.none))
            return
        }
        let e = screen.elements[f]
        // Positions 0..<n are the custom actions, n is the default activation; the rotor wraps.
        let n = e.actions.count
        let current = rotor ?? n
        let next = ((current + delta) % (n + 1) + (n + 1)) % (n + 1)
        rotor = next == n ? nil : next
        events.append(.actionSelected(element: e.id, name: rotor.map { e.actions[$0].name }))
    }

    /// Runs the first handler found on the focused element, its ancestors, then the screen.
    mutating func handler(_ command: Command, _ field: KeyPath<Element, [Effect]?>, screenLevel: [Effect]?, into events: inout [NavigatorEvent]) {
        guard let effects = lookOutwards(field) ?? screenLevel else {
            events.append(.unhandled(command))
            return
        }
        run(effects, into: &events)
    }

    mutating func escape(into events: inout [NavigatorEvent]) {
        if let effects = lookOutwards(\.escape) ?? screen.escape {
            run(effects, into: &events)
        } else if !backStack.isEmpty {
            // A navigation controller's default escape: go back.
            run([.back], into: &events)
        } else {
            events.append(.unhandled(.escape))
        }
    }

    func lookOutwards(_ field: KeyPath<Element, [Effect]?>) -> [Effect]? {
        var i = focusIndex
        while let x = i {
            if let effects = screen.elements[x][keyPath: field] { return effects }
            i = screen.elements[x].parent
        }
        return nil
    }
}

extension Navigator {
    /// Replaces the catalog (a live reload): stays on the same screen and element ids when they
    /// still exist, else the start screen and its focus. Returns the focus event when focus had
    /// to move.
    public mutating func reload(_ newCatalog: Catalog) -> [NavigatorEvent] {
        let screenID = screen.id
        let focusID = focusedElement?.id
        // The back stack holds indices into the old catalog: name them before it goes, then
        // find each name in the new one (a screen it no longer has leaves the way back).
        let way = backStack.map { (id: catalog.screens[$0.screen].id, focus: $0.focus) }
        catalog = newCatalog
        orders = [:]
        loads = [:]
        modalReturns = []
        rotor = nil
        backStack = way.compactMap { entry in newCatalog.screenIndex[entry.id].map { ($0, entry.focus) } }
        screenIndex = newCatalog.screenIndex[screenID] ?? newCatalog.screenIndex[newCatalog.start] ?? 0
        let o = readingOrder()
        if let id = focusID, let i = screen.index[id], o.contains(i) {
            focusIndex = i
            return []
        }
        var events: [NavigatorEvent] = []
        focusScreen(preferred: screen.focus, reason: .screenChanged, into: &events)
        return events
    }
}
