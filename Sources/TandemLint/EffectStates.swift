import TandemModel

/// The states a screen can be in after one list of effects: for every effect list in the
/// catalog (an activation, a custom action, an adjustment, a magic tap, escape, a scroll, the
/// end of a load), the changes it makes to what is shown and said, applied to the catalog as
/// it opens. A sheet that an `activate` shows is checked as the user would meet it.
///
/// Only changes to elements count (`set`, `show`, `hide`, and a `load`, which shows its
/// indicator and makes it modal); a value alone changes nothing lint checks.
struct EffectStates {
    /// One change to one element.
    struct Change: Hashable {
        let screen: Int
        let element: Int
        let changes: ElementChanges
    }

    /// The changes of one effect list, and what the user did.
    struct Entry {
        let changes: [Change]
        let context: String
    }

    private(set) var entries: [Entry] = []
    private var seen: Set<[Change]> = []

    init(_ catalog: Catalog) {
        for (s, screen) in catalog.screens.enumerated() {
            if let x = screen.magicTap { add(x, "after a magic tap on screen \(quoted(screen.id))", catalog) }
            if let x = screen.escape { add(x, "after escape on screen \(quoted(screen.id))", catalog) }
            for e in screen.elements {
                let id = quoted(e.id)
                if let x = e.activate { add(x, "after activating \(id)", catalog) }
                for a in e.actions { add(a.effects, "after the action \(quoted(a.name)) of \(id)", catalog) }
                if let x = e.adjust?.effects { add(x, "after adjusting \(id)", catalog) }
                if let x = e.magicTap { add(x, "after a magic tap on \(id)", catalog) }
                if let x = e.escape { add(x, "after escape on \(id)", catalog) }
                if let x = e.scrollUp { add(x, "after scrolling up on \(id)", catalog) }
                if let x = e.scrollDown { add(x, "after scrolling down on \(id)", catalog) }
            }
            _ = s
        }
    }

    /// Records the list's changes (once per distinct set of changes), and a load's `then` as a
    /// list of its own.
    private mutating func add(_ effects: [Effect], _ context: String, _ catalog: Catalog) {
        var changes: [Change] = []
        for effect in effects {
            switch effect {
            case .set(let id, let c):
                guard c.label != nil || c.hint != nil || c.traits != nil || c.hidden != nil || c.modal != nil,
                      let (s, e) = catalog.locate(id) else { continue }
                var kept = c
                kept.value = nil
                changes.append(Change(screen: s, element: e, changes: kept))
            case .load(let id, _, _, let then):
                if let (s, e) = catalog.locate(id) {
                    changes.append(Change(screen: s, element: e, changes: ElementChanges(hidden: false, modal: true)))
                }
                add(then, "after the load of \(quoted(id)) ends", catalog)
            default:
                continue
            }
        }
        guard !changes.isEmpty, seen.insert(changes).inserted else { return }
        entries.append(Entry(changes: changes, context: context))
    }

    /// Whether the changes leave what is reachable as it was: no visibility or modality, and
    /// no element gaining or losing its only content (which decides default accessibility).
    static func keepsStructure(_ changes: [Change], in catalog: Catalog) -> Bool {
        for c in changes {
            if c.changes.hidden != nil || c.changes.modal != nil { return false }
            let before = catalog.screens[c.screen].elements[c.element]
            if before.accessible == nil, before.hasContent != apply(c.changes, to: before).hasContent { return false }
        }
        return true
    }

    static func apply(_ c: ElementChanges, to element: Element) -> Element {
        var e = element
        c.apply(to: &e)
        return e
    }
}
