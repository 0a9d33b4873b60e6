import TandemModel

/// A sorted scope's units as VoiceOver rows them (Docs/formats.md#reading-order), kept between
/// changes so that a unit moved, added or removed re-forms only the rows it touches.
///
/// Rows are what the greedy rule makes of the units' tops alone: the topmost unit starts a row,
/// which takes every unit whose top is less than the threshold below it; the next row starts
/// at the topmost unit left. So rows depend only on the tops, and two segmentations that start
/// a row at the same unit agree from there on: re-forming stops where a new row starts where
/// an old one did. Within a row, units read by left edge (the greater first right to left),
/// then in declaration order. A scope whose units do not all have frames keeps no rows (it
/// reads in declaration order and is sorted again whole).
struct ScopeRows: Sendable {
    struct Row: Sendable, Equatable {
        /// The top of the row's topmost unit.
        var top: Double
        /// The row's units in reading order.
        var units: [Int]
    }

    /// A unit as it was placed: where it sorts, and whether it is a group (a scope of its own).
    struct Unit: Sendable, Equatable {
        var frame: Frame
        var isScope: Bool
    }

    /// Rows, top to bottom.
    private(set) var rows: [Row]
    /// Every unit in the rows.
    private(set) var units: [Int: Unit]
    /// The children lists the units were collected from: the scope's own and those of every
    /// container flattened into it (a children list that changes is compared with these).
    private(set) var flat: [Int: [Int]]

    init(rows: [(top: Double, units: [SortUnit])], units all: [SortUnit], flat: [Int: [Int]]) {
        self.rows = rows.map { Row(top: $0.top, units: $0.units.map(\.element)) }
        var units: [Int: Unit] = [:]
        units.reserveCapacity(all.count)
        for u in all { units[u.element] = Unit(frame: u.frame!, isScope: u.isScope) }
        self.units = units
        self.flat = flat
    }

    /// Where the scope sorts among its cousins: its first unit's place (nil when empty).
    var firstFrame: Frame? { rows.first.map { units[$0.units[0]]!.frame } }

    /// The last row whose top is at or above `y` (0 when none is).
    func row(atOrAbove y: Double) -> Int {
        var lo = 0, hi = rows.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if rows[mid].top <= y { lo = mid + 1 } else { hi = mid }
        }
        return max(0, lo - 1)
    }

    /// The row that holds unit `u`, which was placed at `frame`.
    func row(of u: Int, at frame: Frame) -> Int? {
        let k = row(atOrAbove: frame.minY)
        return k < rows.count && rows[k].units.contains(u) ? k : nil
    }

    /// Old rows replaced by the rows that replace them: one touched stretch of the scope.
    struct Stretch: Sendable {
        var old: Range<Int>
        var new: [Row]
    }

    /// The rows that change when `removed` (each with the row that holds it) leave and
    /// `inserted` come: the stretches of old rows replaced, top to bottom and apart, each with
    /// the rows that replace it. Nothing changes until `replace` is called with the result.
    ///
    /// A stretch starts at a row a change touches — a removed unit's row, or the row an
    /// inserted unit's top falls in — and stops at the first row that starts, as before, at an
    /// untouched old row: from there the greedy rule forms the same rows until the next row a
    /// change touches, where the next stretch starts. So two changes far apart re-form their
    /// own rows, not every row between (issue 27). `before` is declaration order, for units at
    /// the same left edge.
    func reform(removed: [(unit: Int, row: Int)], inserted: [(unit: Int, frame: Frame)], threshold: Double,
                rightToLeft: Bool, before: (Int, Int) -> Bool) -> [Stretch] {
        let gone = Set(removed.map(\.unit))
        let dirty = Set(removed.map(\.row))
        let dirtyRows = dirty.sorted()
        let coming = inserted.sorted { $0.frame.minY < $1.frame.minY }
        var d = 0, i = 0, next = 0
        var stretches: [Stretch] = []
        // The units taken from old rows or come, waiting for a row, topmost first from `head`:
        // taking a row moves an index, not the rest of the pool (a container of 12,500 rows
        // shown again was quadratic in them).
        var pool: [(unit: Int, frame: Frame)] = []
        var head = 0
        func take(_ k: Int) {
            for u in rows[k].units where !gone.contains(u) { pool.append((u, units[u]!.frame)) }
        }
        while true {
            // In step with the old rows at `next`: the next stretch starts at the next row a
            // change touches (rows before it form as they did).
            while d < dirtyRows.count, dirtyRows[d] < next { d += 1 }
            var first = Int.max
            if d < dirtyRows.count { first = dirtyRows[d] }
            if i < coming.count { first = min(first, row(atOrAbove: coming[i].frame.minY)) }
            guard first != Int.max else { break }
            first = max(first, next)
            next = first
            pool.removeAll(keepingCapacity: true)
            head = 0
            var out: [Row] = []
            repeat {
                // A row that lost units no longer starts where it did: its units wait in the pool.
                var added = false
                while next < rows.count, dirty.contains(next) {
                    take(next)
                    next += 1
                    added = true
                }
                if added { pool[head...].sort { $0.frame.minY < $1.frame.minY } }
                var top = head < pool.count ? pool[head].frame.minY : Double.infinity
                if next < rows.count { top = min(top, rows[next].top) }
                if i < coming.count { top = min(top, coming[i].frame.minY) }
                if top == .infinity { break }    // only rows emptied: nothing left to place
                added = false
                while next < rows.count, abs(rows[next].top - top) < threshold {
                    take(next)
                    next += 1
                    added = true
                }
                while i < coming.count, abs(coming[i].frame.minY - top) < threshold {
                    pool.append(coming[i])
                    i += 1
                    added = true
                }
                if added { pool[head...].sort { $0.frame.minY < $1.frame.minY } }
                var taken = head
                while taken < pool.count, abs(pool[taken].frame.minY - top) < threshold { taken += 1 }
                if taken == head + 1 {
                    out.append(Row(top: top, units: [pool[head].unit]))
                } else if taken > head {
                    let members = pool[head..<taken].sorted { a, b in
                        if a.frame.minX != b.frame.minX { return rightToLeft ? a.frame.minX > b.frame.minX : a.frame.minX < b.frame.minX }
                        return before(a.unit, b.unit)
                    }
                    out.append(Row(top: top, units: members.map(\.unit)))
                }
                head = taken
            } while head < pool.count
            stretches.append(Stretch(old: first..<next, new: out))
        }
        return stretches
    }

    /// Puts in the rows `reform` worked out, and the units' new places.
    mutating func replace(_ stretches: [Stretch], removed: [Int], inserted: [(element: Int, unit: Unit)]) {
        if stretches.count <= 4 {
            // Bottom up: a stretch's old range still counts the rows above it as they were.
            for s in stretches.reversed() { rows.replaceSubrange(s.old, with: s.new) }
        } else {
            // Many stretches: the rows copied once, not moved once for each (which was
            // quadratic in the rows when a change touched every row, issue 27).
            var out: [Row] = []
            out.reserveCapacity(rows.count + stretches.reduce(0) { $0 + $1.new.count - $1.old.count })
            var at = 0
            for s in stretches {
                out += rows[at..<s.old.lowerBound]
                out += s.new
                at = s.old.upperBound
            }
            out += rows[at...]
            rows = out
        }
        for u in removed { units[u] = nil }
        for i in inserted { units[i.element] = i.unit }
    }

    /// A children list as it is now; nil forgets a container no longer flattened here.
    mutating func setFlat(_ container: Int, _ children: [Int]?) {
        flat[container] = children
    }
}
