/// A line longer than a reader can pan through is cut before it is translated (Docs/braille.md#long-lines):
/// liblouis' cost grows with the text, and a 900 KiB announcement or value must not hold the
/// session while a display shows 40 cells of it.
extension BrailleText {
    /// The most characters (Unicode scalars, as liblouis counts them) translated of one line:
    /// 51 windows of a 40-cell display.
    public static let maxCharacters = 2_048
    /// What stands where text was cut.
    public static let cutMarker = "…"

    /// The line as translated: whole when it is at most `maxCharacters`; otherwise its first
    /// `maxCharacters` and the marker — or, when the cursor lies beyond them, the
    /// `maxCharacters` around the cursor with the marker at each end cut, the cursor moved
    /// with its text.
    public func limited(to limit: Int = BrailleText.maxCharacters) -> BrailleText {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count > limit else { return self }
        let marker = Array(Self.cutMarker.unicodeScalars)
        var start = 0
        if let c = cursor, c >= limit - marker.count {
            start = max(0, min(c - limit / 2, scalars.count - limit))
        }
        let end = min(scalars.count, start + limit)
        var out = String.UnicodeScalarView()
        if start > 0 { out.append(contentsOf: marker) }
        out.append(contentsOf: scalars[start..<end])
        if end < scalars.count { out.append(contentsOf: marker) }
        let shift = start > 0 ? marker.count - start : 0
        return BrailleText(text: String(out), cursor: cursor.map { $0 + shift }, editing: editing, hint: hint)
    }
}
