/// Where a line changed, for the cursor after a value change (Docs/braille.md#rules).
extension BrailleText {
    /// The character offset in `new` of the first word that differs from `old`: the start of
    /// the word the first differing character is in, or, when that character is a blank or
    /// punctuation, the next word after it (`Designer at Acme btn` → `Designer at Acme, Saved
    /// btn`: on `Saved`). When `new` only lost text at its end, its last word; 0 when nothing
    /// changed.
    public static func changeStart(from old: String, to new: String) -> Int {
        let o = Array(old), n = Array(new)
        guard o != n, !n.isEmpty else { return 0 }
        var p = 0
        while p < o.count, p < n.count, o[p] == n[p] { p += 1 }
        func isWord(_ c: Character) -> Bool { c.isLetter || c.isNumber }
        if p >= n.count {
            // Only removed at the end: the last word left.
            p = n.count - 1
            while p > 0, !isWord(n[p]) { p -= 1 }
        }
        if isWord(n[p]) {
            while p > 0, isWord(n[p - 1]) { p -= 1 }
        } else {
            var q = p
            while q < n.count, !isWord(n[q]) { q += 1 }
            if q < n.count { p = q }
        }
        return p
    }
}
