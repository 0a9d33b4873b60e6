/// Applying an update's `edits` (Docs/protocol.md#edits) at the cost of what they name.
///
/// An edit changes one children list: each id it removes is found in the list and taken out,
/// and its insertions go in after a child found in the list. Done on the list's array, each
/// edit scans and moves the list, so one line of 13,800 edits moving a child of a 49,990-child
/// list cost 13,800 scans of it (issue 27: about 1 s of the session thread), and one edit
/// removing all 49,990 of its children, the last first, scanned it for each. Now a list that more
/// than one edit changes (and that is long enough for it to matter) is linked while the
/// edits run — each child knows its neighbours, so a removal or an insertion is a few writes —
/// and written back as an array once at the end; an edit removing many ids from an array
/// marks them and filters the list once. The lists come out exactly as the edits one by one
/// on arrays would leave them.
extension Screen {
    /// Lists at least this long that more than one edit changes are linked while the edits run.
    static let linkedMinimum = 64
    /// An edit removing more ids than this from an array filters the list once.
    static let filteredMinimum = 8

    /// Applies the update's checked edits in order: removals, then insertions where each edit
    /// says; notes what changed in `deltas` and the children taken out in `detached`. Returns the
    /// list slots looked at, moved or written (the edits' cost beyond the ids they name).
    mutating func applyEdits(_ edits: [TreeUpdate.ChildrenEdit], into deltas: inout [Int: ChildrenDelta],
                             detached: inout [Int]) -> Int {
        guard !edits.isEmpty else { return 0 }
        var work = 0
        var editsOf: [Int: Int] = [:]
        if edits.count > 1 { for edit in edits { editsOf[index[edit.parent]!, default: 0] += 1 } }
        var links: ChildLinks?
        for edit in edits {
            let p = index[edit.parent]!
            if links?.holds(p) == true || (editsOf[p] ?? 1) > 1 && elements[p].children.count >= Self.linkedMinimum {
                if links == nil { links = ChildLinks(slots: elements.count) }
                if !links!.holds(p) { work += links!.take(p, elements[p].children) }
                applyLinked(edit, p, &links!, into: &deltas, detached: &detached)
            } else {
                work += applyEdit(edit, p, into: &deltas, detached: &detached)
            }
        }
        if let links {
            for p in links.lists {
                elements[p].children = links.children(of: p)
                work += elements[p].children.count
            }
        }
        return work
    }

    /// One edit on a list held as an array; returns the slots it scanned or moved.
    private mutating func applyEdit(_ edit: TreeUpdate.ChildrenEdit, _ p: Int, into deltas: inout [Int: ChildrenDelta],
                                    detached: inout [Int]) -> Int {
        // Taken out while it changes, so that the list is not copied.
        var kids = elements[p].children
        elements[p].children = []
        var work = 0
        // Taken out of the table while it grows: a copy left there would make each edit copy
        // the whole delta (13,800 edits of one list copied it 13,800 times).
        var delta = deltas.removeValue(forKey: p) ?? ChildrenDelta(parent: p, removed: [], inserted: [])
        if edit.remove.count > Self.filteredMinimum {
            let gone = Set(edit.remove.map { index[$0]! })
            work += kids.count
            kids.removeAll { gone.contains($0) }
        }
        for c in edit.remove {
            let slot = index[c]!
            if edit.remove.count <= Self.filteredMinimum {
                let at = kids.firstIndex(of: slot)!
                work += kids.count
                kids.remove(at: at)
            }
            if elements[slot].parent == p { elements[slot].parent = nil }
            delta.removed.append(slot)
            detached.append(slot)
        }
        let slots = edit.insert.map { index[$0]! }
        let at = switch edit.place {
        case .end: kids.count
        case .after(let a): kids.firstIndex(of: index[a]!)! + 1
        case .before(let b): kids.firstIndex(of: index[b]!)!
        }
        if !slots.isEmpty { work += kids.count }
        kids.insert(contentsOf: slots, at: at)
        for c in slots { elements[c].parent = p }
        delta.inserted += slots
        elements[p].children = kids
        deltas[p] = delta
        return work
    }

    /// One edit on a linked list (each removal and insertion a few writes).
    private mutating func applyLinked(_ edit: TreeUpdate.ChildrenEdit, _ p: Int, _ links: inout ChildLinks,
                                      into deltas: inout [Int: ChildrenDelta], detached: inout [Int]) {
        // Taken out of the table while it grows: a copy left there would make each edit copy
        // the whole delta (13,800 edits of one list copied it 13,800 times).
        var delta = deltas.removeValue(forKey: p) ?? ChildrenDelta(parent: p, removed: [], inserted: [])
        for c in edit.remove {
            let slot = index[c]!
            links.remove(slot, from: p)
            if elements[slot].parent == p { elements[slot].parent = nil }
            delta.removed.append(slot)
            detached.append(slot)
        }
        let slots = edit.insert.map { index[$0]! }
        var after: Int? = switch edit.place {
        case .end: links.last(of: p)
        case .after(let a): index[a]!
        case .before(let b): links.previous(index[b]!)
        }
        for c in slots {
            links.insert(c, in: p, after: after)
            after = c
            elements[c].parent = p
        }
        delta.inserted += slots
        deltas[p] = delta
    }
}

/// Children lists held as links while edits run: each child's neighbours in its list (a child
/// is in one list at a time, so one table serves every list).
struct ChildLinks {
    private var next: [Int32]
    private var prev: [Int32]
    private var ends: [Int: (first: Int32, last: Int32, count: Int)] = [:]
    /// The lists held, in the order they were taken.
    private(set) var lists: [Int] = []

    init(slots: Int) {
        next = Array(repeating: -1, count: slots)
        prev = Array(repeating: -1, count: slots)
    }

    func holds(_ p: Int) -> Bool { ends[p] != nil }

    /// Holds `p`'s list `kids`; returns its length.
    mutating func take(_ p: Int, _ kids: [Int]) -> Int {
        var last: Int32 = -1
        for c in kids {
            prev[c] = last
            if last >= 0 { next[Int(last)] = Int32(c) }
            last = Int32(c)
        }
        if last >= 0 { next[Int(last)] = -1 }
        ends[p] = (kids.first.map(Int32.init) ?? -1, last, kids.count)
        lists.append(p)
        return kids.count
    }

    func last(of p: Int) -> Int? { ends[p].flatMap { $0.last >= 0 ? Int($0.last) : nil } }
    func previous(_ c: Int) -> Int? { prev[c] >= 0 ? Int(prev[c]) : nil }

    mutating func remove(_ c: Int, from p: Int) {
        let (a, b) = (prev[c], next[c])
        if a >= 0 { next[Int(a)] = b } else { ends[p]!.first = b }
        if b >= 0 { prev[Int(b)] = a } else { ends[p]!.last = a }
        ends[p]!.count -= 1
    }

    /// Puts `c` in `p`'s list after `after` (nil: first).
    mutating func insert(_ c: Int, in p: Int, after: Int?) {
        let b: Int32 = after.map { next[$0] } ?? ends[p]!.first
        prev[c] = after.map(Int32.init) ?? -1
        next[c] = b
        if let a = after { next[a] = Int32(c) } else { ends[p]!.first = Int32(c) }
        if b >= 0 { prev[Int(b)] = Int32(c) } else { ends[p]!.last = Int32(c) }
        ends[p]!.count += 1
    }

    func children(of p: Int) -> [Int] {
        let e = ends[p]!
        var out: [Int] = []
        out.reserveCapacity(e.count)
        var x = e.first
        while x >= 0 { out.append(Int(x)); x = next[Int(x)] }
        return out
    }
}
