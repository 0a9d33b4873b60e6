import TandemModel

/// Repairing the order after a change, at the cost of what the change can move.
extension ReadingOrder {
    /// Brings the order up to date after elements changed: `changed` changed in place or are
    /// new (any field but their children), `restructured` got new children (elements no longer
    /// in the tree are gone from the screen's table already). `movesUnits`: some change can
    /// move something (see `changeMovesUnits`); otherwise only headings are looked at.
    ///
    /// Accessibility and frames are recomputed from each change up to the first ancestor they
    /// leave unchanged. Then each element that changed or moved is put again where it belongs
    /// in the scope around it: a sorted scope re-forms only the rows it touches (`updateRows`),
    /// a scope with an `order` or without frames is sorted again whole, and a group whose
    /// first element moved moves among its cousins. A change that moves nothing — a value, a
    /// label or a trait that flips neither accessibility nor the `header` trait — touches no
    /// scope at all.
    ///
    /// `edited`: children lists that changed by the children given (their parents are not in
    /// `restructured`); `removed`: the slots of elements removed from the screen. `toggle`: the
    /// change is one element's `modal` or `hidden` alone, with what they were (the order before
    /// it is kept, to be taken back when they are back: ReadingOrder+Covered.swift).
    public mutating func repair(_ screen: Screen, changed: [Int], restructured: [Int], edited: [ChildrenDelta] = [],
                                removed: [Int] = [], movesUnits: Bool, toggle: ScopeToggle? = nil) {
        // Orders kept from before toggles stay kept through other toggles (noted) and through
        // changes that move nothing; any other change lets them go.
        let kept = covered
        covered = []
        // A change of at least `wholeRebuildMinimum` elements and a quarter of the screen is
        // built whole instead: that costs the screen's elements, at most four times the change,
        // and skips what a repair spends on each element (its depth, the sets it is kept in,
        // its row), which made a megabyte update cost several times a megabyte screen (issue
        // 27; at half the screen, 17,000 rows moved among 50,000 were repaired one by one).
        var touched = changed.count + restructured.count + edited.count + removed.count
        if touched >= Self.wholeRebuildMinimum && touched * 4 >= screen.liveCount {
            // Each element once: a new element given a children list is changed and its list
            // restructured or edited too (chains counted twice were built whole at a sixth of
            // the screen). Counted only near the threshold, so small updates pay nothing.
            var distinct = Set(changed)
            distinct.formUnion(restructured)
            for d in edited { distinct.insert(d.parent) }
            touched = distinct.count + removed.count
        }
        if touched >= Self.wholeRebuildMinimum && touched * 4 >= screen.liveCount {
            computeAll(screen)
            rebuild(screen)
            computes &+= screen.liveCount
            wholeRebuilds &+= 1
            return
        }
        if accessible.count < screen.elements.count {
            let grow = screen.elements.count - accessible.count
            accessible += repeatElement(false, count: grow)
            frames += repeatElement(nil, count: grow)
            position += repeatElement(-1, count: grow)
            countedIn += repeatElement(-1, count: grow)
            countsAccessible += repeatElement(false, count: grow)
            accessibleChildren += repeatElement(0, count: grow)
        }
        countChildren(screen, restructured: restructured, edited: edited)
        forgetRemoved(removed)
        let given = restructured
        let restructured = restructured + edited.map(\.parent)
        // Each change is recomputed; its parent, and further up, only while accessibility or a
        // frame moved — or, for an element that changed itself, when it may have been hidden or
        // shown (`movesUnits`), which its parent reads too (a new children list is read only by
        // the element itself). So a value or a label that flips nothing does not look at its
        // siblings (a list of 10,000 rows).
        //
        // Each element is recomputed once, deepest first, after every element below it that
        // needed it: a chain of N new elements costs N computes, not N² (issue 27).
        var moved: [Int] = []
        let forced = movesUnits ? Set(changed) : []
        var levels = DepthLevels(screen, capacity: changed.count + restructured.count)
        for start in changed + restructured { levels.add(start) }
        while let x = levels.next() {
            let didMove = compute(x, screen)
            computes &+= 1
            if didMove { moved.append(x) }
            if didMove || forced.contains(x), let p = screen.elements[x].parent { levels.add(p) }
        }
        let top = Self.topModal(screen)
        // One element's `modal` or `hidden` alone: the order before it is kept, the orders
        // kept before note the toggle, and one is taken back when this puts the screen back
        // as it was when it was kept.
        if let toggle, changed == [toggle.element], restructured.isEmpty, removed.isEmpty {
            let leaving = Covered(of: self, toggle: toggle, moved: moved)
            var others = kept.compactMap { $0.noting(toggle, moved: moved) }
            if let i = others.firstIndex(where: { $0.matches(screen, top: top) }) {
                takeBack(others.remove(at: i), screen)
                // Another kept from this same screen would only be a second copy.
                others.removeAll { $0.matches(screen, top: top) }
            } else if top != modalRoot, let i = others.firstIndex(where: { $0.restorable(top: top, screen) }) {
                // The modal in front changed to one an order was kept with: that order, repaired
                // for what changed since (a row hidden, moved, added or removed under the modal),
                // not one built whole.
                restore(others.remove(at: i), screen)
            } else if top != modalRoot {
                rebuild(screen)
            } else {
                reorder(screen, changed: changed, restructured: restructured, edited: edited, moved: moved)
                for c in changed { updateHeading(c, screen) }
            }
            covered = Array(([leaving] + others).prefix(Self.keptOrders))
            return
        }
        if top != modalRoot {
            // The update changed the modal in front (closed it, removed it): an order kept with
            // the modal now in front, noting this update too, is repaired rather than the
            // screen's order built whole.
            var noted = kept.compactMap { $0.noting(changed: changed, restructured: given, edited: edited, moved: moved) }
            if let i = noted.firstIndex(where: { $0.restorable(top: top, screen) }) {
                restore(noted.remove(at: i), screen)
                covered = noted
            } else {
                rebuild(screen)
            }
            return
        }
        if movesUnits || !restructured.isEmpty {
            reorder(screen, changed: changed, restructured: restructured, edited: edited, moved: moved)
        }
        for c in changed { updateHeading(c, screen) }
        if !movesUnits, restructured.isEmpty, removed.isEmpty, moved.isEmpty {
            // Nothing moved: what is kept still holds, but a header trait may have changed.
            covered = kept.map { k in
                var k = k
                if !changed.isEmpty { k.headingsStale = true }
                return k
            }
        } else {
            // Elements changed in place and may have moved (a covered row's frame), or children
            // lists changed (a row added or removed under the modal), while the modal in front
            // stayed: each order kept notes them, to be repaired from at the modal's closing
            // instead of building the screen's order whole (issue 27).
            covered = kept.compactMap { $0.noting(changed: changed, restructured: given, edited: edited, moved: moved) }
        }
    }

    /// The fewest changed elements a repair builds the whole order again for (when they are
    /// also half the screen): below it the repair's own way is cheap whatever the screen.
    static let wholeRebuildMinimum = 1_024

    /// Whether a change from `old` to `new` can move anything in the order (or only what is
    /// said about the element).
    public static func changeMovesUnits(from old: Element, to new: Element) -> Bool {
        old.frame != new.frame || old.hidden != new.hidden || old.modal != new.modal || old.group != new.group
            || old.order != new.order || old.accessible != new.accessible || old.hasContent != new.hasContent
            || old.container != new.container || old.traits.contains(.tabBar) != new.traits.contains(.tabBar)
    }

    /// Puts every element that changed or moved where it belongs now, innermost scope first (a
    /// group's new first element decides where the group goes among its cousins).
    mutating func reorder(_ screen: Screen, changed: [Int], restructured: [Int], edited: [ChildrenDelta], moved: [Int]) {
        let top = modalRoot ?? 0
        var change = Change(changed: Set(changed), restructured: Set(restructured))
        for d in edited { change.edited[d.parent] = d }
        var work = RepairWork()
        if scopes[top] == nil {
            // The top read alone (accessible: it stands for all inside it), or hidden: nothing
            // else matters while it stays so.
            let e = screen.elements[top]
            let same = e.hidden ? elements.isEmpty : (accessible[top] && elements == [top])
            if !same { rebuild(screen) }
            return
        }
        var seen: Set<Int> = []
        // The nearest scope at or above an element, found for each element walked over once
        // (scopes do not change in this loop): a deep chain does not walk to the top for
        // every element of it.
        var nearest: [Int: Int] = [:]
        func scopeAtOrAbove(_ start: Int) -> Int {
            var path: [Int] = []
            var i: Int? = start
            var found = top
            while let u = i {
                if let n = nearest[u] { found = n; break }
                if scopes[u] != nil { found = u; break }
                if u == top { break }
                path.append(u)
                i = screen.elements[u].parent
            }
            for u in path { nearest[u] = found }
            return found
        }
        seen.reserveCapacity(changed.count + restructured.count + moved.count)
        for x in changed + restructured + moved where seen.insert(x).inserted {
            // The element's fields read in place, not copied (a retain of each reference).
            if x == top {
                // The top is the whole order: it must still be a scope.
                if screen.elements[x].hidden || accessible[x] { rebuild(screen); return }
            } else {
                work.place(x, in: screen.elements[x].parent.map(scopeAtOrAbove) ?? top, screen)
            }
            guard scopes[x] != nil else { continue }
            if change.restructured.contains(x) { work.ownChildren(of: x, screen) }
            if change.changed.contains(x) && (sortedRows[x] == nil || screen.elements[x].order != nil) { work.sortWhole(x, screen) }
        }
        while let (s, pending) = work.next() {
            if s != top, let kept = scopes[s], kept.first == nil {
                // An empty group has no place in the order to repair: it is built afresh where
                // it sorts among its cousins.
                work.buildAfresh(s, in: scope(around: s, screen), screen)
                continue
            }
            if !pending.whole {
                switch updateRows(s, pending, change, screen, &work) {
                case .done: continue
                case .rebuilt: return
                case .cannot: break
                }
            }
            if !sortWhole(s, screen, &work) { return }
        }
    }

    /// What a repair was told changed.
    struct Change {
        var changed: Set<Int>
        /// Every element whose children list changed (with those in `edited`).
        var restructured: Set<Int>
        /// Children lists whose change is known child by child.
        var edited: [Int: ChildrenDelta] = [:]
    }

    /// The scope to repair for a change of `element`: the nearest scope strictly above it
    /// (the element's own place among its parent's units may have moved), else the order's top.
    func scope(around element: Int, _ screen: Screen) -> Int {
        let top = modalRoot ?? 0
        var i = element == top ? nil : screen.elements[element].parent
        while let x = i {
            if scopes[x] != nil { return x }
            if x == top { break }
            i = screen.elements[x].parent
        }
        return top
    }

    /// The header trait of an element that stayed where it was: add or remove its heading.
    mutating func updateHeading(_ e: Int, _ screen: Screen) {
        guard let p = position(of: e) else { return }
        let isHeading = screen.elements[e].traits.contains(.header)
        let at = lowerBound(headings, p)
        let listed = at < headings.count && headings[at] == p
        if isHeading && !listed { headings.insert(p, at: at) }
        if !isHeading && listed { headings.remove(at: at) }
    }

    /// Sorts scope `s` again whole and splices its elements into the order; false when the
    /// whole order was built again instead (nothing more to repair).
    private mutating func sortWhole(_ s: Int, _ screen: Screen, _ work: inout RepairWork) -> Bool {
        // The top scope is the whole order (and may itself have been hidden); a container that
        // is not a scope (yet) is sorted as part of the order's top.
        guard s != (modalRoot ?? 0), let old = scopes[s] else {
            rebuild(screen)
            return false
        }
        guard let first = old.first, let start = position(of: first) else {
            // An empty scope has no place in the order yet: sort the one around it.
            let outer = scope(around: s, screen)
            if outer == s || scopes[outer]?.first == nil { rebuild(screen); return false }
            work.sortWhole(outer, screen)
            return true
        }
        let range = start..<(start + old.count)
        guard range.upperBound <= elements.count else { rebuild(screen); return false }
        let around = outerStarts(of: s, screen)
        let keyBefore = old.key
        forget(innerScopesOf: s)
        sortedRows[s] = nil
        for e in elements[range] { position[e] = -1 }
        let units = Units(screen: screen, rightToLeft: rightToLeft, rowThreshold: rowThreshold, accessible: accessible, frames: frames)
        var built = Built()
        units.scope(s, key: units.groupKey(s), into: &built)
        // An element an `order` elsewhere also lists would stand twice: build it all again.
        guard built.elements.allSatisfy({ position[$0] < 0 }) else { rebuild(screen); return false }
        unitsLookedAt &+= built.elements.count
        wholeSorts &+= 1
        splice(range, with: built.elements, screen, around: around)
        for (c, scope) in built.scopes { scopes[c] = scope }
        for (c, rows) in built.rows { sortedRows[c] = rows }
        // A group sorts among its cousins by its first element: when that moved, so may the group.
        if scopes[s]?.key != keyBefore { work.place(s, in: scope(around: s, screen), screen) }
        return true
    }

    /// The scopes around `s` (not `s` itself), each with where it starts in the order.
    func outerStarts(of s: Int, _ screen: Screen) -> [(scope: Int, start: Int)] {
        var around: [(scope: Int, start: Int)] = []
        var a = screen.elements[s].parent
        while let x = a {
            if let f = scopes[x]?.first, let p = position(of: f) { around.append((x, p)) }
            a = screen.elements[x].parent
        }
        return around
    }

    /// Replaces `range` of the order with `new` (whose elements have no position yet): the
    /// positions from there on, the headings, and the count and first element of each scope
    /// in `around` (which hold the range, each with where it starts).
    ///
    /// An array splice: when the count changes, every later element's position moves by the
    /// difference (a memory move and one pass over the rest of the order).
    mutating func splice(_ range: Range<Int>, with new: [Int], _ screen: Screen, around: [(scope: Int, start: Int)]) {
        let delta = new.count - range.count
        elements.replaceSubrange(range, with: new)
        let end = delta == 0 ? range.upperBound : elements.count
        spliced &+= end - range.lowerBound
        for p in range.lowerBound..<end { position[elements[p]] = Int32(p) }
        // Headings: those in the old range go; the new range's come; later ones shift.
        let lo = lowerBound(headings, range.lowerBound), hi = lowerBound(headings, range.upperBound)
        let fresh = new.indices.filter { screen.elements[new[$0]].traits.contains(.header) }.map { $0 + range.lowerBound }
        headings.replaceSubrange(lo..<hi, with: fresh)
        if delta != 0 { for k in (lo + fresh.count)..<headings.count { headings[k] += delta } }
        for (x, p) in around {
            scopes[x]!.count += delta
            scopes[x]!.first = scopes[x]!.count > 0 ? elements[p] : nil
        }
    }

    /// Replaces each of `ranges` (apart, in order) with its `contents`, as `splice` would one
    /// by one from the bottom up, in one pass over the order from the first range on: the
    /// elements after it copied once, every later position written once, the headings shifted
    /// once. Spliced one by one, each range moved the rest of the order and wrote its
    /// positions again, so a change touching every row of 50,000 cost 50,000 passes over the
    /// order (issue 27: a container of 49,990 rows shown held the session thread 2.4 s).
    mutating func splice(_ ranges: [Range<Int>], with contents: [[Int]], _ screen: Screen,
                         around: [(scope: Int, start: Int)]) {
        guard ranges.count > 1 else {
            if let r = ranges.first { splice(r, with: contents[0], screen, around: around) }
            return
        }
        var delta = 0
        for j in ranges.indices { delta += contents[j].count - ranges[j].count }
        let from = ranges[0].lowerBound
        var tail: [Int] = []
        tail.reserveCapacity(elements.count - from + delta)
        var fresh: [Int] = []
        var heading = lowerBound(headings, from)
        var kept: [Int] = Array(headings[..<heading])
        for j in ranges.indices {
            // The new elements' headings, then those of the untouched stretch after them, moved.
            for e in contents[j] {
                if screen.elements[e].traits.contains(.header) { fresh.append(from + tail.count) }
                tail.append(e)
            }
            let gapEnd = j + 1 < ranges.count ? ranges[j + 1].lowerBound : elements.count
            let shift = from + tail.count - ranges[j].upperBound
            while heading < headings.count, headings[heading] < ranges[j].upperBound { heading += 1 }
            kept += fresh
            fresh.removeAll(keepingCapacity: true)
            while heading < headings.count, headings[heading] < gapEnd {
                kept.append(headings[heading] + shift)
                heading += 1
            }
            tail += elements[ranges[j].upperBound..<gapEnd]
        }
        elements.replaceSubrange(from..<elements.count, with: tail)
        let end = delta == 0 ? ranges[ranges.count - 1].upperBound : elements.count
        spliced &+= end - from
        for p in from..<end { position[elements[p]] = Int32(p) }
        headings = kept
        for (x, p) in around {
            scopes[x]!.count += delta
            scopes[x]!.first = scopes[x]!.count > 0 ? elements[p] : nil
        }
    }

    /// Forgets the scopes inside `s`, and their rows.
    mutating func forget(innerScopesOf s: Int) {
        guard let scope = scopes[s] else { return }
        for inner in scope.inner {
            forget(innerScopesOf: inner)
            scopes[inner] = nil
            sortedRows[inner] = nil
        }
    }

    private func lowerBound(_ sorted: [Int], _ value: Int) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

/// Elements waiting to be recomputed, handed out deepest first (each once); depths are found
/// by walking up only as far as an element whose depth is known, so finding them all costs
/// the elements walked over once each.
struct DepthLevels {
    let screen: Screen
    private var depth: [Int: Int] = [:]
    private var levels: [[Int]] = []
    private var queued: Set<Int> = []
    /// The deepest level that may still hold an element.
    private var level = 0
    private var taken = 0

    init(_ screen: Screen, capacity: Int = 0) {
        self.screen = screen
        depth.reserveCapacity(capacity)
        queued.reserveCapacity(capacity)
    }

    mutating func add(_ x: Int) {
        guard queued.insert(x).inserted else { return }
        let d = depthOf(x)
        while levels.count <= d { levels.append([]) }
        levels[d].append(x)
        // Only before the first `next` can an element be deeper than the level in hand (a
        // parent added later is one level up).
        if d > level { level = d; taken = 0 }
    }

    /// The next element, deepest level first, in the order added within a level.
    mutating func next() -> Int? {
        while level >= 0 && level < levels.count {
            if taken < levels[level].count {
                taken += 1
                return levels[level][taken - 1]
            }
            levels[level] = []
            level -= 1
            taken = 0
        }
        return nil
    }

    private mutating func depthOf(_ x: Int) -> Int {
        if let d = depth[x] { return d }
        var path: [Int] = []
        var i: Int? = x
        var base = -1
        while let u = i {
            if let d = depth[u] { base = d; break }
            path.append(u)
            i = screen.elements[u].parent
        }
        for (k, u) in path.reversed().enumerated() { depth[u] = base + 1 + k }
        return depth[x]!
    }
}

/// The scopes a repair still has to put right, innermost first, and what each needs.
struct RepairWork {
    struct Pending {
        /// Elements to put again where they belong in the scope (their own place, or what a
        /// container flattened into the scope contributes).
        var placed: [Int] = []
        /// The scope's own children list changed.
        var ownChildren = false
        /// The scope is sorted again whole.
        var whole = false
        /// Groups in the scope to build afresh wherever they sort now.
        var fresh: [Int] = []
    }

    private var pending: [Int: Pending] = [:]
    private var depth: [Int: Int] = [:]

    mutating func place(_ x: Int, in s: Int, _ screen: Screen) {
        note(s, screen)
        pending[s]!.placed.append(x)
    }

    mutating func ownChildren(of s: Int, _ screen: Screen) {
        note(s, screen)
        pending[s]!.ownChildren = true
    }

    mutating func buildAfresh(_ g: Int, in s: Int, _ screen: Screen) {
        note(s, screen)
        pending[s]!.fresh.append(g)
    }

    mutating func sortWhole(_ s: Int, _ screen: Screen) {
        note(s, screen)
        pending[s]!.whole = true
    }

    private mutating func note(_ s: Int, _ screen: Screen) {
        guard pending[s] == nil else { return }
        pending[s] = Pending()
        var d = 0
        var p = screen.elements[s].parent
        while let x = p { d += 1; p = screen.elements[x].parent }
        depth[s] = d
    }

    /// The deepest scope left, taken out of the work.
    mutating func next() -> (Int, Pending)? {
        guard let s = pending.keys.max(by: { depth[$0]! < depth[$1]! || (depth[$0]! == depth[$1]! && $0 < $1) }) else { return nil }
        return (s, pending.removeValue(forKey: s)!)
    }
}
