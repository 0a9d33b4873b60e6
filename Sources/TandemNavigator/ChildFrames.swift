import TandemModel

/// The union of a container's children's frames, kept as children come, go and move, so that
/// a container with no frame of its own (its frame is that union) does not look at all its
/// children when one changes: each edge remembers how many children reach it, and only a
/// child that was the last at an edge and leaves or moves in makes it look at them all again.
struct ChildFrames: Sendable, Equatable {
    private(set) var minX = 0.0, minY = 0.0, maxX = 0.0, maxY = 0.0
    private var atMinX: Int32 = 0, atMinY: Int32 = 0, atMaxX: Int32 = 0, atMaxY: Int32 = 0
    /// Children with a frame.
    private(set) var count: Int32 = 0
    /// An edge lost its last child: the union must be worked out again from the children.
    private(set) var stale = false

    /// The union, nil when no child has a frame.
    var frame: Frame? { count == 0 ? nil : Frame(x: minX, y: minY, width: maxX - minX, height: maxY - minY) }

    mutating func add(_ f: Frame) {
        count += 1
        guard !stale else { return }
        if count == 1 {
            (minX, minY, maxX, maxY) = (f.minX, f.minY, f.maxX, f.maxY)
            (atMinX, atMinY, atMaxX, atMaxY) = (1, 1, 1, 1)
            return
        }
        Self.low(f.minX, &minX, &atMinX)
        Self.low(f.minY, &minY, &atMinY)
        Self.high(f.maxX, &maxX, &atMaxX)
        Self.high(f.maxY, &maxY, &atMaxY)
    }

    mutating func remove(_ f: Frame) {
        count -= 1
        if count == 0 { self = ChildFrames(); return }
        guard !stale else { return }
        for (edge, value, at) in [(minX, f.minX, 0), (minY, f.minY, 1), (maxX, f.maxX, 2), (maxY, f.maxY, 3)] where edge == value {
            switch at {
            case 0: atMinX -= 1; if atMinX == 0 { stale = true }
            case 1: atMinY -= 1; if atMinY == 0 { stale = true }
            case 2: atMaxX -= 1; if atMaxX == 0 { stale = true }
            default: atMaxY -= 1; if atMaxY == 0 { stale = true }
            }
        }
    }

    private static func low(_ v: Double, _ edge: inout Double, _ at: inout Int32) {
        if v < edge { edge = v; at = 1 } else if v == edge { at += 1 }
    }

    private static func high(_ v: Double, _ edge: inout Double, _ at: inout Int32) {
        if v > edge { edge = v; at = 1 } else if v == edge { at += 1 }
    }
}

/// What each element's children add up to — how many are accessible and shown, the union of
/// their frames — kept as children change, so that working out an element's accessibility
/// and frame (`compute`) costs the same however many children it has.
extension ReadingOrder {
    /// Works out an element's accessibility and frame from what its children add up to, and
    /// passes what changed in its own part on to the parent it is counted in; true when its
    /// accessibility or frame changed.
    mutating func compute(_ i: Int, _ screen: Screen) -> Bool {
        // The fields read in place: a copy of the element costs a retain of each of its references.
        if childFrames[i]?.stale == true { recount(i, screen) }
        let a = screen.elements[i].accessible ?? (screen.elements[i].hasContent && accessibleChildren[i] == 0)
        let f = screen.elements[i].frame ?? childFrames[i]?.frame
        let counts = a && !screen.elements[i].hidden
        let p = Int(countedIn[i])
        if p >= 0 {
            if counts != countsAccessible[i] { accessibleChildren[p] += counts ? 1 : -1 }
            if f != frames[i] {
                if let old = frames[i] { removeFrame(old, from: p) }
                if let f { childFrames[p, default: ChildFrames()].add(f) }
            }
        }
        let moved = a != accessible[i] || f != frames[i]
        accessible[i] = a
        frames[i] = f
        countsAccessible[i] = counts
        return moved
    }

    /// Adds up all of an element's children again (and counts each in it).
    mutating func recount(_ i: Int, _ screen: Screen) {
        let kids = screen.elements[i].children
        childrenLookedAt &+= kids.count
        var n: Int32 = 0
        var union = ChildFrames()
        for c in kids {
            countedIn[c] = Int32(i)
            if countsAccessible[c] { n += 1 }
            if let f = frames[c] { union.add(f) }
        }
        accessibleChildren[i] = n
        childFrames[i] = union.count == 0 ? nil : union
    }

    /// Counts `c` in `p` (and no longer in the parent it was counted in).
    mutating func count(_ c: Int, in p: Int) {
        guard Int(countedIn[c]) != p else { return }
        uncount(c)
        countedIn[c] = Int32(p)
        if countsAccessible[c] { accessibleChildren[p] += 1 }
        if let f = frames[c] { childFrames[p, default: ChildFrames()].add(f) }
    }

    /// Takes `c` out of the parent it is counted in.
    mutating func uncount(_ c: Int) {
        let p = Int(countedIn[c])
        guard p >= 0 else { return }
        if countsAccessible[c] { accessibleChildren[p] -= 1 }
        if let f = frames[c] { removeFrame(f, from: p) }
        countedIn[c] = -1
    }

    private mutating func removeFrame(_ f: Frame, from p: Int) {
        guard var u = childFrames[p] else { return }
        u.remove(f)
        childFrames[p] = u.count == 0 ? nil : u
    }

    /// An element removed from the screen: out of its parent, and nothing of it left for an
    /// element that takes its slot later. (Its children are removed too, or counted elsewhere.)
    mutating func forgetRemoved(_ slots: [Int]) {
        for r in slots where r < countedIn.count { uncount(r) }
        for r in slots where r < countedIn.count {
            accessible[r] = false
            frames[r] = nil
            countsAccessible[r] = false
            accessibleChildren[r] = 0
            childFrames[r] = nil
        }
    }

    /// The children lists that changed: every child counted in its parent.
    mutating func countChildren(_ screen: Screen, restructured: [Int], edited: [ChildrenDelta]) {
        for p in restructured {
            childrenLookedAt &+= screen.elements[p].children.count
            for c in screen.elements[p].children { count(c, in: p) }
        }
        for d in edited {
            for c in d.inserted where !screen.elements[c].isRemoved && screen.elements[c].parent == d.parent { count(c, in: d.parent) }
        }
    }
}
