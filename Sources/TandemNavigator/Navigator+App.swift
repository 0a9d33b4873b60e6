import TandemModel
import TandemVocabulary

/// A catalog fed by a running app (Docs/protocol.md): the app acts itself, so the user's
/// actions go to it as `.appAction` events instead of running effects, and the app's screens
/// and tree updates change the catalog.
extension Navigator {
    /// The action a command asks of the app, resolved on the focused element (magic tap,
    /// escape and scrolling on the nearest element that declares them, else the screen's
    /// root); nil when the command asks nothing of it.
    func appAction(for command: Command) -> AppAction? {
        guard let f = focusIndex else { return nil }
        let e = screen.elements[f]
        switch command {
        case .activate:
            if let r = rotor, r < e.actions.count { return AppAction(.custom, element: e.id, name: e.actions[r].name) }
            return AppAction(.activate, element: e.id)
        case .increment, .decrement:
            guard e.traits.contains(.adjustable) || e.adjust != nil else { return nil }
            return AppAction(command == .increment ? .increment : .decrement, element: e.id)
        case .magicTap: return AppAction(.magicTap, element: resolvedOutwards(\.magicTap))
        case .escape: return AppAction(.escape, element: resolvedOutwards(\.escape))
        case .scrollUp: return AppAction(.scrollUp, element: resolvedOutwards(\.scrollUp))
        case .scrollDown: return AppAction(.scrollDown, element: resolvedOutwards(\.scrollDown))
        default: return nil
        }
    }

    /// The focused element or its nearest ancestor that declares the handler, else the root.
    func resolvedOutwards(_ field: KeyPath<Element, [Effect]?>) -> String {
        var i = focusIndex
        while let x = i {
            if screen.elements[x][keyPath: field] != nil { return screen.elements[x].id }
            i = screen.elements[x].parent
        }
        return screen.elements[0].id
    }

    /// The app shows `newScreen`. A new screen id: focus as on `screenChanged`; the same one
    /// again: focus stays on the same element when it still can be reached.
    public mutating func show(_ newScreen: Screen) -> [NavigatorEvent] {
        var events: [NavigatorEvent] = []
        let sameScreen = catalog.screens.indices.contains(screenIndex) && screen.id == newScreen.id
        let keep = sameScreen ? focusedElement?.id : nil
        catalog = Catalog(name: catalog.name, language: catalog.language, strings: catalog.strings,
                          start: newScreen.id, screens: [newScreen])
        screenIndex = 0
        orders = [:]
        modalReturns = []
        loads = [:]
        rotor = nil
        focusIndex = nil
        if let id = keep, let i = screen.index[id], readingOrder().contains(i) {
            focusIndex = i
            return events
        }
        if !sameScreen { events.append(.screenChanged(screen: newScreen.id)) }
        focusScreen(preferred: newScreen.focus, reason: .screenChanged, into: &events)
        return events
    }

    /// Applies an app's tree update to the current screen; focus follows as after effects
    /// (a modal that appears takes it, a removed focused element hands it on, the update's
    /// `focus` wins). Nothing changes when the update is refused.
    public mutating func apply(_ update: TreeUpdate) throws(TreeUpdateError) -> [NavigatorEvent] {
        var events: [NavigatorEvent] = []
        var batch = Batch(focusBefore: focusedElement?.id, neighbours: neighboursOfFocus())
        let s = screenIndex
        let change = try catalog.screens[s].apply(update)
        if let f = batch.focusBefore, change.removed.contains(f) { focusIndex = nil }
        // By index, and only the changed elements' old contents read: a new element's entry is
        // nil, and copying each entry (an element's size) was a large update's biggest cost.
        var moves = false
        for k in change.content.indices where !moves {
            if change.content[k].old == nil { moves = true; continue }
            if ReadingOrder.changeMovesUnits(from: change.content[k].old!, to: catalog.screens[s].elements[change.content[k].slot]) { moves = true }
        }
        repairOrder(screen: s, changed: change.content.map(\.slot), restructured: change.restructured, edited: change.edited,
                    removed: change.removedSlots, movesUnits: moves)
        for k in change.content.indices where change.content[k].old != nil {
            report(screen: s, element: change.content[k].slot, from: change.content[k].old!, into: &events)
        }
        if let f = update.focus { batch.explicit = (f, .layoutChanged) }
        refocus(after: batch, into: &events)
        return events
    }

    /// An app's `set`: only the given fields of one element change (`modify`).
    public mutating func set(_ id: String, _ change: (inout Element) -> Void) -> [NavigatorEvent]? {
        guard let e = screen.index[id] else { return nil }
        var events: [NavigatorEvent] = []
        let batch = Batch(focusBefore: focusedElement?.id, neighbours: neighboursOfFocus())
        let before = catalog.screens[screenIndex].modify(e, change)
        contentChanged(screen: screenIndex, element: e, from: before, into: &events)
        refocus(after: batch, into: &events)
        return events
    }

    /// What an element's change means for the user: its own (focused) change, or progress.
    mutating func report(screen s: Int, element e: Int, from before: Element, into events: inout [NavigatorEvent]) {
        let after = catalog.screens[s].elements[e]
        if s == screenIndex, e == focusIndex {
            if after.label != before.label || after.traits != before.traits {
                events.append(.elementChanged(element: after.id))
            } else if after.value != before.value || after.adjust?.value != before.adjust?.value {
                events.append(.valueChanged(element: after.id))
            }
        }
        reportProgress(screen: s, element: e, from: before, into: &events)
    }

    /// A loading indicator's value that an app moved: a progress step in hundredths.
    mutating func reportProgress(screen s: Int, element e: Int, from before: Element, into events: inout [NavigatorEvent]) {
        let after = catalog.screens[s].elements[e]
        // An indicator the same change hid (focus is still on it until refocus) is heard only
        // finishing: a value it was reset to on the way out is no step the user waits for.
        guard s == screenIndex, let p = after.progress, let v = p.value, before.progress?.value != v,
              readingOrder().contains(e) || (focusIndex == e && v >= 1) else { return }
        events.append(.progress(element: after.id, step: Int((min(1, max(0, v)) * 100).rounded()), steps: 100,
                                focused: e == focusIndex))
    }
}

extension Navigator {
    /// Says again where focus is (or puts it on the screen's `focus`, else its first
    /// element): an app coming to the front.
    public mutating func focusAgain(reason: FocusReason) -> [NavigatorEvent] {
        var events: [NavigatorEvent] = []
        if let f = focusIndex, readingOrder().contains(f) {
            setFocus(f, reason: reason, into: &events)
        } else {
            focusScreen(preferred: screen.focus, reason: reason, into: &events)
        }
        return events
    }

    /// A navigator over one screen with one element saying `text` (nothing to navigate yet).
    public static func placeholder(_ text: String, language: String) -> Navigator {
        var root = Element(id: "tandem.none")
        root.label = .plain(text)
        root.traits = .staticText
        let screen = Screen(id: "tandem.none", title: nil, focus: nil, magicTap: nil, escape: nil, elements: [root])
        return Navigator(catalog: Catalog(name: nil, language: language, strings: [:], start: screen.id, screens: [screen]), language: language)
    }
}
