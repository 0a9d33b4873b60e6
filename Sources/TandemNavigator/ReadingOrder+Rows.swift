import TandemModel

/// Repairing a sorted scope by its rows (`ScopeRows`): the units a change touched are taken
/// out and put back, and only the rows they touch are re-formed and spliced into the order.
extension ReadingOrder {
    enum RowsOutcome { case done, cannot, rebuilt }

    /// The units found under the places a change touched, before (from the scope's rows) and
    /// now (from the tree).
    struct FoundUnits {
        var old: [Int: ScopeRows.Unit] = [:]
        /// Unit → whether it is a group.
        var new: [Int: Bool] = [:]
        /// Flattened containers before, and now with their children.
        var oldFlat: Set<Int> = []
        var newFlat: [Int: [Int]] = [:]
        /// Units whose declaration order may have changed: put back even where they sort as before.
        var replace: Set<Int> = []
        /// Groups to build afresh wherever they sort.
        var fresh: Set<Int> = []
        var looked = 0
        /// A list re-placing about the whole scope was met: the scope is sorted whole instead.
        var sortWhole = false
    }

    /// What re-forming a scope's rows comes to, worked out before anything changes.
    struct RowsPlan {
        /// The stretches of rows re-formed, top to bottom, each with where its old rows'
        /// elements are in the order.
        var stretches: [ScopeRows.Stretch]
        var ranges: [Range<Int>]
        var removed: [Int]
        var inserted: [(element: Int, unit: ScopeRows.Unit)]
        /// Groups that leave (forgotten), and groups built afresh (with their keys).
        var leaving: [Int]
        var building: [Int: Frame]
        /// Where each unit of the old rows is in the order, and in which stretch.
        var extents: [Int: (start: Int, count: Int, stretch: Int)]
        var newFlat: [Int: [Int]]
        var oldFlat: Set<Int>
        /// Children-list slots read to put units at the same left edge in declaration order.
        var declarationLooked = 0
    }

    /// Repairs scope `s` by re-forming the rows the pending changes touch. `.cannot` (nothing
    /// changed) when the scope keeps no rows or a change needs it sorted whole: a unit without
    /// a frame, an empty scope, a record that does not match.
    mutating func updateRows(_ s: Int, _ pending: RepairWork.Pending, _ change: Change, _ screen: Screen,
                             _ work: inout RepairWork) -> RowsOutcome {
        guard screen.elements[s].order == nil, let sFirst = scopes[s]?.first, let sStart = position(of: sFirst) else { return .cannot }
        let units = Units(screen: screen, rightToLeft: rightToLeft, rowThreshold: rowThreshold, accessible: accessible, frames: frames)
        let (planned, looked) = analyze(s, sStart, pending, change, units, screen)
        unitsLookedAt &+= looked
        guard let plan = planned else { return .cannot }
        return commit(plan, s, sStart, units, screen, &work)
    }

    /// The units the pending changes touched, before and now, and the plan that puts them
    /// right (nil when the scope must be sorted whole); with how many elements it looked at.
    /// (Reads the scope's rows without keeping them, so that `commit` changes them in place.)
    private func analyze(_ s: Int, _ sStart: Int, _ pending: RepairWork.Pending, _ change: Change, _ units: Units,
                         _ screen: Screen) -> (RowsPlan?, Int) {
        guard let rows = sortedRows[s] else { return (nil, 0) }
        // As many elements to place as a quarter of the scope's units: sorted whole, without
        // first working out what each would move (as `plan` would decide anyway).
        let placing = pending.placed.count + pending.fresh.count
        if placing >= Self.wholeRebuildMinimum && placing * 4 >= rows.units.count { return (nil, 0) }
        var found = FoundUnits()
        if pending.ownChildren {
            if let d = change.edited[s] {
                children(of: s, changedBy: d, rows, screen, &found)
            } else {
                children(of: s, from: rows.flat[s] ?? [], to: screen.elements[s].children, in: s, rows, screen, &found)
            }
        }
        for g in pending.fresh {
            oldUnits(under: g, rows, &found, mark: false)
            if isReachable(g, from: s, screen) { newUnits(under: g, screen, &found, mark: false) }
            found.fresh.insert(g)
        }
        for x in pending.placed {
            if let kids = rows.flat[x], isFlattened(x, in: s, screen) {
                // Still flattened here: only a new children list can change what it holds.
                if let d = change.edited[x] {
                    children(of: x, changedBy: d, rows, screen, &found)
                } else if change.restructured.contains(x) {
                    children(of: x, from: kids, to: screen.elements[x].children, in: s, rows, screen, &found)
                }
            } else {
                oldUnits(under: x, rows, &found, mark: false)
                if isReachable(x, from: s, screen) { newUnits(under: x, screen, &found, mark: false) }
            }
        }
        if found.sortWhole { return (nil, found.looked) }
        return (plan(s, sStart, rows, found, units, screen), found.looked)
    }

    /// Takes out the units that leave or move, puts in the new and moved ones, and re-forms
    /// the rows between; nil when it cannot be done here.
    private func plan(_ s: Int, _ sStart: Int, _ rows: ScopeRows, _ found: FoundUnits, _ units: Units, _ screen: Screen) -> RowsPlan? {
        var inserted: [(element: Int, unit: ScopeRows.Unit)] = []
        var building: [Int: Frame] = [:]
        for (u, isScope) in found.new {
            let old = found.old[u]
            let kept = old?.isScope == isScope
            let fresh = isScope && (!kept || scopes[u] == nil || found.fresh.contains(u))
            let frame: Frame?
            if !isScope { frame = frames[u] } else if fresh { frame = units.groupKey(u) } else { frame = currentKey(u, units) }
            guard let f = frame else { return nil }    // declaration order: sorted whole
            if kept, f == old!.frame, !found.replace.contains(u), !fresh { continue }
            inserted.append((u, ScopeRows.Unit(frame: f, isScope: isScope)))
            if fresh { building[u] = f }
        }
        let insertedSet = Set(inserted.map(\.element))
        var removed: [(unit: Int, row: Int)] = []
        var leaving: [Int] = []
        for (u, old) in found.old {
            let kept = found.new[u] == old.isScope
            if kept && !insertedSet.contains(u) { continue }
            guard let r = rows.row(of: u, at: old.frame) else { return nil }
            removed.append((u, r))
            if old.isScope && (!kept || building[u] != nil) { leaving.append(u) }
        }
        guard !removed.isEmpty || !inserted.isEmpty else {
            return RowsPlan(stretches: [], ranges: [], removed: [], inserted: [], leaving: [], building: [:],
                            extents: [:], newFlat: found.newFlat, oldFlat: found.oldFlat)
        }
        // Units to take out and put back as many as the scope holds (a list sent again in
        // another order, a container of thousands shown): sorting the scope whole costs less
        // than placing each (issue 27: 49,990 rows re-placed one by one took 230 ms).
        let placing = removed.count + inserted.count
        if placing >= Self.wholeRebuildMinimum && placing * 4 >= rows.units.count { return nil }
        var declared = DeclarationOrder(screen)
        let stretches = rows.reform(removed: removed, inserted: inserted.map { ($0.element, $0.unit.frame) },
                                             threshold: rowThreshold, rightToLeft: rightToLeft,
                                             before: { declared.before($0, $1) })
        // Each stretch's old rows' elements: contiguous, each unit's after the one before.
        var extents: [Int: (start: Int, count: Int, stretch: Int)] = [:]
        var ranges: [Range<Int>] = []
        for (j, stretch) in stretches.enumerated() {
            var start: Int?
            var length = 0
            for k in stretch.old {
                for u in rows.rows[k].units {
                    guard let x = extent(of: u, isScope: rows.units[u]!.isScope) else { return nil }
                    extents[u] = (x.start, x.count, j)
                    guard x.count > 0 else { continue }
                    if start == nil { start = x.start }
                    guard x.start == start! + length else { return nil }
                    length += x.count
                }
            }
            if start == nil {
                // Only empty groups: the range is empty, just after the last element before it.
                let before = end(before: stretch.old.lowerBound, rows)
                guard before >= 0 else { return nil }
                start = before > 0 ? before : sStart
            }
            // Apart and in order: a stretch ends before the next starts.
            guard ranges.last.map({ $0.upperBound <= start! }) ?? true else { return nil }
            ranges.append(start!..<(start! + length))
        }
        return RowsPlan(stretches: stretches, ranges: ranges, removed: removed.map(\.unit), inserted: inserted,
                        leaving: leaving, building: building, extents: extents,
                        newFlat: found.newFlat, oldFlat: found.oldFlat, declarationLooked: declared.looked)
    }

    /// Splices the re-formed rows into the order and keeps the scope's rows.
    private mutating func commit(_ plan: RowsPlan, _ s: Int, _ sStart: Int, _ units: Units, _ screen: Screen,
                                 _ work: inout RepairWork) -> RowsOutcome {
        declarationLooked &+= plan.declarationLooked
        guard var rows = sortedRows.removeValue(forKey: s) else { return .cannot }
        for (c, kids) in plan.newFlat { rows.setFlat(c, kids) }
        for c in plan.oldFlat where plan.newFlat[c] == nil { rows.setFlat(c, nil) }
        guard plan.stretches.contains(where: { !$0.new.isEmpty || !$0.old.isEmpty }) else {
            sortedRows[s] = rows
            return .done
        }
        let around = [(s, sStart)] + outerStarts(of: s, screen)
        let olds = plan.ranges.map { Array(elements[$0]) }
        for g in plan.leaving {
            forget(innerScopesOf: g)
            scopes[g] = nil
            sortedRows[g] = nil
            scopes[s]!.inner.remove(g)
        }
        for old in olds { for e in old { position[e] = -1 } }
        var built = Built()
        var newKind: [Int: Bool] = [:]
        for i in plan.inserted { newKind[i.element] = i.unit.isScope }
        var contents: [[Int]] = []
        for (j, stretch) in plan.stretches.enumerated() {
            var content: [Int] = []
            content.reserveCapacity(olds[j].count + 8)
            for row in stretch.new {
                for u in row.units {
                    if let key = plan.building[u] {
                        let from = built.elements.count
                        units.scope(u, key: key, into: &built)
                        content += built.elements[from...]
                    } else if newKind[u] == false {
                        content.append(u)    // an element read here (again)
                    } else if let x = plan.extents[u] {
                        // a group kept: its elements as they were, from whichever stretch held it
                        let at = x.start - plan.ranges[x.stretch].lowerBound
                        if x.count > 0 { content += olds[x.stretch][at..<(at + x.count)] }
                    } else {
                        rebuild(screen)
                        return .rebuilt
                    }
                }
            }
            // Each element once: one already in the order (an `order` elsewhere lists it, or
            // it moved here from another scope not yet repaired) means building it all again.
            for e in content {
                guard position[e] < 0 else { rebuild(screen); return .rebuilt }
                position[e] = 0    // placed (its position is written by `splice`)
            }
            contents.append(content)
            unitsLookedAt &+= stretch.new.reduce(0) { $0 + $1.units.count } + stretch.old.count
        }
        rowRepairs &+= 1
        splice(plan.ranges, with: contents, screen, around: around)
        for (c, scope) in built.scopes { scopes[c] = scope }
        for (c, r) in built.rows { sortedRows[c] = r }
        for g in plan.building.keys { scopes[s]!.inner.insert(g) }
        rows.replace(plan.stretches, removed: plan.removed, inserted: plan.inserted)
        let first = rows.firstFrame
        sortedRows[s] = rows
        if s != (modalRoot ?? 0) {
            let key = first ?? frames[s]
            if key != scopes[s]!.key {
                scopes[s]!.key = key
                work.place(s, in: scope(around: s, screen), screen)
            }
        }
        return .done
    }

    /// A children list changed from `old` to `new`: what the children that left held goes,
    /// what the new ones hold comes; when the children that stayed are in another order, all
    /// they hold is put back (declaration order breaks ties).
    private func children(of x: Int, from old: [Int], to new: [Int], in s: Int, _ rows: ScopeRows, _ screen: Screen,
                          _ found: inout FoundUnits) {
        let oldSet = Set(old), newSet = Set(new)
        var keptOld: [Int] = [], keptNew: [Int] = []
        for c in old where newSet.contains(c) { keptOld.append(c) }
        for c in new where oldSet.contains(c) { keptNew.append(c) }
        found.looked += old.count + new.count
        if keptOld != keptNew && keptOld.count >= Self.wholeRebuildMinimum && keptOld.count * 2 >= rows.units.count {
            // Every child put back, as many as half the scope: sorted whole (cheaper).
            found.sortWhole = true
            return
        }
        for c in old where !newSet.contains(c) { oldUnits(under: c, rows, &found, mark: true) }
        for c in new where !oldSet.contains(c) { newUnits(under: c, screen, &found, mark: true) }
        if keptOld != keptNew {
            for c in keptOld {
                oldUnits(under: c, rows, &found, mark: true)
                newUnits(under: c, screen, &found, mark: true)
            }
        }
        found.newFlat[x] = new
    }

    /// A children list changed by the children given: what the children that left held goes,
    /// what the new ones hold comes (put back even where they sort as before: their place in
    /// the list is new); the others kept their order.
    private func children(of x: Int, changedBy d: ChildrenDelta, _ rows: ScopeRows, _ screen: Screen, _ found: inout FoundUnits) {
        for c in d.removed { oldUnits(under: c, rows, &found, mark: true) }
        for c in d.inserted where screen.elements[c].parent == x { newUnits(under: c, screen, &found, mark: true) }
        found.newFlat[x] = screen.elements[x].children
        found.looked += d.removed.count + d.inserted.count
    }

    /// The units `x` stood for in the scope: itself, or what it held while flattened.
    private func oldUnits(under x: Int, _ rows: ScopeRows, _ found: inout FoundUnits, mark: Bool) {
        var stack = [x]
        while let y = stack.popLast() {
            found.looked += 1
            if let u = rows.units[y] {
                found.old[y] = u
                if mark { found.replace.insert(y) }
            } else if let kids = rows.flat[y] {
                found.oldFlat.insert(y)
                stack += kids
            }
        }
    }

    /// The units `x` stands for now (it is reachable from the scope through plain containers).
    private func newUnits(under x: Int, _ screen: Screen, _ found: inout FoundUnits, mark: Bool) {
        var stack = [x]
        while let y = stack.popLast() {
            found.looked += 1
            let e = screen.elements[y]
            if e.isRemoved || e.hidden { continue }
            if accessible[y] || e.formsGroup || e.modal {
                found.new[y] = !accessible[y]
                if mark { found.replace.insert(y) }
            } else {
                found.newFlat[y] = e.children
                stack += e.children
            }
        }
    }

    /// Whether `x` is a plain container flattened into scope `s` now.
    private func isFlattened(_ x: Int, in s: Int, _ screen: Screen) -> Bool {
        let e = screen.elements[x]
        return !e.isRemoved && !e.hidden && !accessible[x] && !e.formsGroup && !e.modal && isReachable(x, from: s, screen)
    }

    /// Whether `x` is inside `s` with only shown plain containers between.
    private func isReachable(_ x: Int, from s: Int, _ screen: Screen) -> Bool {
        if screen.elements[x].isRemoved { return false }
        var a = screen.elements[x].parent
        while let y = a, y != s {
            let e = screen.elements[y]
            if e.isRemoved || e.hidden || accessible[y] || e.formsGroup || e.modal { return false }
            a = e.parent
        }
        return a == s
    }

    /// Where a group kept as it was sorts now.
    private func currentKey(_ g: Int, _ units: Units) -> Frame? {
        if let r = sortedRows[g] { return r.firstFrame ?? frames[g] }
        return units.groupKey(g)
    }

    /// Where a unit's elements are in the order and how many (nil when the records disagree).
    private func extent(of u: Int, isScope: Bool) -> (start: Int, count: Int)? {
        guard isScope else { return position(of: u).map { ($0, 1) } }
        guard let scope = scopes[u] else { return nil }
        guard let f = scope.first else { return (0, 0) }
        return position(of: f).map { ($0, scope.count) }
    }

    /// Just after the last element of the rows before `row`; 0 when they have none, -1 when
    /// the records disagree.
    private func end(before row: Int, _ rows: ScopeRows) -> Int {
        for k in stride(from: row - 1, through: 0, by: -1) {
            for u in rows.rows[k].units.reversed() {
                guard let x = extent(of: u, isScope: rows.units[u]!.isScope) else { return -1 }
                if x.count > 0 { return x.start + x.count }
            }
        }
        return 0
    }
}
