import TandemModel

/// Effects (Docs/formats.md#effects) and the focus rules that follow a batch of them.
extension Navigator {
    /// What a batch of effects asked for, settled once the whole batch has run.
    struct Batch {
        var focusBefore: String?
        /// Where focus was in the order before the batch, and the elements around it: where
        /// focus goes if the batch takes the focused element away.
        var neighbours: Neighbours?
        var screenSwitched = false
        var wentBack = false
        var preferredFocus: String?
        var explicit: (id: String?, reason: FocusReason)?
    }

    /// Runs effects in order, each taking effect before the next, then settles focus.
    mutating func run(_ effects: [Effect], into events: inout [NavigatorEvent]) {
        var batch = Batch(focusBefore: focusedElement?.id, neighbours: neighboursOfFocus())
        for effect in effects { apply(effect, &batch, into: &events) }
        refocus(after: batch, into: &events)
    }

    mutating func apply(_ effect: Effect, _ batch: inout Batch, into events: inout [NavigatorEvent]) {
        switch effect {
        case .set(let id, let changes):
            guard let (s, e) = catalog.locate(id) else { return }
            let before = catalog.screens[s].modify(e) { changes.apply(to: &$0) }
            contentChanged(screen: s, element: e, from: before, into: &events)
        case .adjust(let id, let by):
            guard let (s, e) = catalog.locate(id) else { return }
            _ = applyAdjust(screen: s, element: e, by: by, into: &events)
        case .screen(let id):
            guard let target = catalog.screenIndex[id] else { return }
            backStack.append((screenIndex, focusToRemember()))
            switchScreen(to: target, &batch)
            batch.preferredFocus = screen.focus
            events.append(.screenChanged(screen: id))
        case .back:
            guard let (s, f) = backStack.popLast() else { return }
            switchScreen(to: s, &batch)
            batch.wentBack = true
            batch.preferredFocus = f ?? screen.focus
            events.append(.screenChanged(screen: screen.id))
        case .announcement(let text, let priority, let delay):
            if delay > 0 {
                events.append(.schedule(timer: .announce(text: text, high: priority == .high), afterMs: delay))
            } else {
                events.append(.announcement(text: text, high: priority == .high))
            }
        case .layoutChanged(let focus):
            batch.explicit = (focus, .layoutChanged)
        case .screenChanged(let focus):
            batch.explicit = (focus, .screenChanged)
            events.append(.screenChanged(screen: screen.id))
        case .pageScrolled(let text):
            events.append(.pageScrolled(text: text))
        case .load(let id, let ms, let steps, let then):
            guard let (s, e) = catalog.locate(id) else { return }
            // The decoder refuses fewer than one step; an effect built in code may not.
            let steps = max(1, steps), ms = max(0, ms)
            let before = catalog.screens[s].modify(e) { el in
                el.hidden = false
                el.modal = true
                el.progress?.value = 0
            }
            repairOrder(screen: s, changed: [e], restructured: [], movesUnits: ReadingOrder.changeMovesUnits(from: before, to: catalog.screens[s].elements[e]))
            let token = nextLoadToken
            nextLoadToken += 1
            loads[token] = Load(screen: s, element: e, steps: steps, then: then)
            for k in 1...steps {
                events.append(.schedule(timer: .loadStep(load: token, step: k), afterMs: ms * k / steps))
            }
        }
    }

    private mutating func switchScreen(to target: Int, _ batch: inout Batch) {
        screenIndex = target
        focusIndex = nil
        rotor = nil
        batch.screenSwitched = true
        batch.explicit = nil
    }

    /// Steps an adjustable by `steps` steps within its bounds; false when already at the bound.
    mutating func applyAdjust(screen s: Int, element e: Int, by steps: Double, into events: inout [NavigatorEvent]) -> Bool {
        guard var adjust = catalog.screens[s].elements[e].adjust else { return false }
        var value = adjust.value + steps * adjust.step
        // Keep repeated decimal steps (0.1 + 0.1 + …) from drifting; only where the scaling
        // stays finite (near 1e300 it would not), and before clamping, so that the result
        // always lies within the bounds.
        let snapped = (value * 1e9).rounded() / 1e9
        if snapped.isFinite { value = snapped }
        value = Swift.min(adjust.max, Swift.max(adjust.min, value))
        guard value != adjust.value else { return false }
        adjust.value = value
        catalog.screens[s].modify(e) { $0.adjust = adjust }
        if s == screenIndex, e == focusIndex {
            events.append(.valueChanged(element: catalog.screens[s].elements[e].id))
        }
        return true
    }

    /// Hands back a timer that a `.schedule` event asked for.
    public mutating func fire(_ timer: Timer) -> [NavigatorEvent] {
        var events: [NavigatorEvent] = []
        switch timer {
        case .announce(let text, let high):
            events.append(.announcement(text: text, high: high))
        case .loadStep(let token, let step):
            guard let load = loads[token] else { break }
            let fraction = Double(step) / Double(load.steps)
            catalog.screens[load.screen].modify(load.element) { $0.progress?.value = fraction }
            let id = catalog.screens[load.screen].elements[load.element].id
            let focused = load.screen == screenIndex && load.element == focusIndex
            events.append(.progress(element: id, step: step, steps: load.steps, focused: focused))
            if step == load.steps {
                loads[token] = nil
                run([.set(id: id, changes: ElementChanges(hidden: true, modal: false))] + load.then, into: &events)
            }
        }
        return events
    }

    // MARK: focus after effects

    /// Focus rules after a batch: a new screen focuses its `focus`; an explicit layout or
    /// screen change wins; a modal that appeared takes focus and gives it back when it goes;
    /// a focused element that disappeared hands focus to its neighbour.
    mutating func refocus(after batch: Batch, into events: inout [NavigatorEvent]) {
        if batch.screenSwitched {
            let explicitID = batch.explicit?.id.flatMap { screen.index[$0] != nil ? $0 : nil }
            focusScreen(preferred: explicitID ?? batch.preferredFocus,
                        reason: batch.explicit?.reason ?? (batch.wentBack ? .back : .screenChanged), into: &events)
            return
        }
        var o = readingOrder()
        var moved = false
        if let (id, reason) = batch.explicit {
            if let id, let i = screen.index[id], o.contains(i) {
                setFocus(i, reason: reason, into: &events)
                moved = true
            } else if reason == .screenChanged {
                focusScreen(preferred: screen.focus, reason: reason, into: &events)
                moved = true
            }
        }
        // A modal that appeared: remember where focus was, move into it.
        if let modal = o.modalRoot, !modalReturns.contains(where: { $0.screen == screenIndex && $0.modal == modal }) {
            modalReturns.append((screenIndex, modal, batch.focusBefore))
            if focusIndex.map({ !o.contains($0) }) ?? true, let first = o.elements.first {
                setFocus(first, reason: .modal, into: &events)
                moved = true
            }
        }
        // Modals that closed: give focus back to where it was before each. This screen's
        // entries are unwound even when another screen's lie above them (a sheet left open
        // while a modal was opened on the next screen).
        while let k = modalReturns.lastIndex(where: { $0.screen == screenIndex }), modalReturns[k].modal != o.modalRoot {
            let last = modalReturns.remove(at: k)
            if focusIndex.map({ !o.contains($0) }) ?? true,
               let back = last.focus, let i = screen.index[back], o.contains(i) {
                setFocus(i, reason: .modal, into: &events)
                moved = true
            }
        }
        o = readingOrder()
        if let f = focusIndex, o.contains(f) { return }
        if moved && focusIndex == nil { return }
        // The focused element went away: its next reachable neighbour in the old order.
        if let t = batch.neighbours?.survivor(in: o) ?? o.elements.first {
            setFocus(t, reason: .lost, into: &events)
        } else {
            focusIndex = nil
        }
    }

    /// The focus to restore when the user comes back to this screen: the focused element, or,
    /// when this batch has just hidden it (a loading indicator whose `then` changes screen),
    /// the element a closed modal gives focus back to — never the hidden indicator itself.
    mutating func focusToRemember() -> String? {
        guard let f = focusIndex else { return nil }
        let o = readingOrder()
        if !o.contains(f),
           let r = modalReturns.last(where: { $0.screen == screenIndex && $0.modal != o.modalRoot }),
           let back = r.focus, let i = screen.index[back], o.contains(i) {
            return back
        }
        return screen.elements[f].id
    }

    /// Focuses `preferred` when reachable, else the first element.
    mutating func focusScreen(preferred: String?, reason: FocusReason, into events: inout [NavigatorEvent]) {
        let o = readingOrder()
        let wanted = preferred.flatMap { screen.index[$0] }.flatMap { o.contains($0) ? $0 : nil }
        if let target = wanted ?? o.elements.first {
            setFocus(target, reason: reason, into: &events)
        } else {
            focusIndex = nil
            rotor = nil
        }
    }
}
