extension CatalogValidator {
    /// Where an element's id is written: its line and its value's place on the tape.
    struct IDSite {
        let line: Int
        let node: Int
    }

    /// Finds every element whose id an element read before it already has (ids are unique
    /// across the whole catalog), in reading order: screen by screen, each in table order —
    /// the order a check made as each element was read would report them in.
    ///
    /// Each screen's `index` already says which of its elements repeat an id of the same
    /// screen (`within`, from `Screen.init`). Across screens, ids shared by two screens are
    /// found by looking the smaller screen's ids up in the larger one's index, which for a
    /// big screen and a few small ones costs a few lookups instead of one hash of every id;
    /// when that would cost more than one lookup an element, one table of all ids does it.
    ///
    /// `sites[s][e]`: where element `e` of screen `s` has its id.
    mutating func findDuplicates(in screens: [Screen], within: [[(element: Int, first: Int)]], sites: [[IDSite]]) {
        func record(_ s: Int, _ e: Int, first: (screen: Int, element: Int)) {
            let at = sites[s][e], firstAt = sites[first.screen][first.element]
            duplicates.append(Duplicate(id: screens[s].elements[e].id, line: at.line, node: at.node,
                                        firstLine: firstAt.line, firstNode: firstAt.node))
        }
        let total = screens.reduce(0) { $0 + $1.elements.count }
        var pairwise = 0
        for t in screens.indices {
            for s in 0..<t { pairwise += min(screens[s].index.count, screens[t].index.count) }
        }
        guard pairwise <= total else {
            // Many screens of similar sizes: one table of every id, in reading order.
            var first: [String: (screen: Int, element: Int)] = [:]
            first.reserveCapacity(total)
            for s in screens.indices {
                for e in screens[s].elements.indices {
                    if let earlier = first[screens[s].elements[e].id] { record(s, e, first: earlier) } else {
                        first[screens[s].elements[e].id] = (s, e)
                    }
                }
            }
            return
        }
        for t in screens.indices {
            // Ids of screen `t` defined on an earlier screen: the earliest such definition.
            var earlier: [String: (screen: Int, element: Int)] = [:]
            for s in 0..<t {
                let (small, large) = screens[s].index.count <= screens[t].index.count ? (s, t) : (t, s)
                for (id, i) in screens[small].index {
                    guard let j = screens[large].index[id] else { continue }
                    let idOnT = small == t ? screens[t].elements[i].id : screens[t].elements[j].id
                    if earlier[idOnT] == nil { earlier[idOnT] = small == s ? (s, i) : (s, j) }
                }
            }
            var found: [(element: Int, first: (screen: Int, element: Int))] = []
            for (id, first) in earlier { found.append((screens[t].index[id]!, first)) }
            for d in within[t] {
                found.append((d.element, earlier[screens[t].elements[d.element].id] ?? (t, d.first)))
            }
            found.sort { $0.element < $1.element }
            for f in found { record(t, f.element, first: f.first) }
        }
    }
}
