import TandemModel
import TandemNavigator

extension Presenter {
    /// The label as presented: own label, a loading indicator's progress label, or the joined
    /// labels of its descendants (a grouped cell: "Banana, 1 kg, R$ 5,99").
    public func label(for i: Int, in nav: Navigator, braille: Bool = false) -> String {
        let e = nav.screen.elements[i]
        if braille, let b = e.brailleLabel { return nav.catalog.resolve(b, language: nav.language) }
        if let l = e.label { return nav.catalog.resolve(l, language: nav.language) }
        if let p = e.progress?.label { return p }
        let parts = ReadingOrder.descendants(of: i, in: nav.screen, language: nav.language,
                                             rowThreshold: nav.catalog.device.rowThreshold).compactMap { d -> String? in
            nav.screen.elements[d].label.map { nav.catalog.resolve($0, language: nav.language) }
        }
        return parts.filter { !$0.isEmpty }.joined(separator: ", ")
    }

    func progressValue(_ p: Progress?) -> String? {
        guard let p else { return nil }
        guard let v = p.value else { return phrases.inProgress }
        return StringFormat.render(phrases.percent, [String(Int((v * 100).rounded()))])
    }

    /// Step `step` of `steps` as a percentage ("40%"), rounded as `progressValue` rounds.
    func progressValue(step: Int, of steps: Int) -> String {
        progressValue(Progress(label: nil, value: Double(step) / Double(max(1, steps))))!
    }

    /// "selected, Home, tab, 1 of 3"
    public func speech(for i: Int, in nav: Navigator) -> String {
        speech(describe(i, in: nav))
    }

    func speech(_ d: ElementDescription) -> String {
        var parts: [String] = []
        if d.selected { parts.append(phrases.selected) }
        parts += d.headers
        parts.append(d.label)
        if let cell = d.cell { parts += cellParts(cell, prefix: "context.") }
        if let v = d.value { parts.append(v) }
        parts += d.words.map(word)
        if let p = d.position { parts.append(phrases.format("context.position", String(p.index), String(p.count))) }
        if let m = d.marker { parts.append(phrases.text("context." + m)) }
        return parts.filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// A data table cell's spans, row (first cell of a row only) and column, numbered from 1.
    func cellParts(_ cell: TableCellContext, prefix: String) -> [String] {
        var parts: [String] = []
        if cell.rowSpan > 1 { parts.append(phrases.format(prefix + "rowSpan", String(cell.rowSpan))) }
        if cell.columnSpan > 1 { parts.append(phrases.format(prefix + "columnSpan", String(cell.columnSpan))) }
        if cell.firstInRow { parts.append(phrases.format(prefix + "row", String(cell.row + 1))) }
        parts.append(phrases.format(prefix + "column", String(cell.column + 1)))
        return parts
    }

    /// What follows after the pause: "Actions available", then the hint; nil when nothing.
    func hint(_ d: ElementDescription, for e: Element) -> String? {
        var parts: [String] = []
        if verbosity.actionsAvailable, !e.actions.isEmpty { parts.append(phrases.actionsAvailable) }
        if verbosity.hints, let h = d.hint { parts.append(h) }
        return parts.isEmpty ? nil : parts.joined(separator: ". ")
    }

    /// "Home tab 1/3", "Quantity, 2 in cart adj": the cursor at the start, or at the value the
    /// user edits or adjusts; a comma between the label and the value.
    public func braille(for i: Int, in nav: Navigator) -> BrailleText {
        braille(describe(i, in: nav))
    }

    func braille(_ d: ElementDescription) -> BrailleText {
        var text = ""
        var cursor = 0
        var editing = false
        func add(_ s: String) {
            guard !s.isEmpty else { return }
            if !text.isEmpty { text += " " }
            text += s
        }
        if d.selected { add(phrases.selectedAbbreviation) }
        d.headers.forEach(add)
        add(d.brailleLabel)
        if let cell = d.cell { cellParts(cell, prefix: "braille.").forEach(add) }
        if let v = d.value, !v.isEmpty {
            // A comma keeps label and value apart, as speech's pause does: without it a label
            // ending in a number and a value starting with one ("$5.99 0 in cart") read as one.
            if !text.isEmpty { text += "," }
            if d.valueIsEdited {
                cursor = text.isEmpty ? 0 : text.count + 1
                editing = true
            }
            add(v)
        }
        d.words.map(abbreviation).forEach(add)
        if let p = d.position { add(phrases.format("braille.position", String(p.index), String(p.count))) }
        if let m = d.marker { add(phrases.text("braille." + m)) }
        // Speech says "Actions available" after the pause; the display, which has no pause,
        // says it where the line ends.
        if d.actionsAvailable { add(phrases.text("braille.actionsAvailable")) }
        // The hint follows the line on a pan (the display has no pause to say it after).
        return BrailleText(text: text, cursor: min(cursor, text.count), editing: editing, hint: verbosity.hints ? d.hint : nil)
    }
}
