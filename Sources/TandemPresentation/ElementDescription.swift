import TandemModel
import TandemNavigator

/// One element as VoiceOver composes it, in the pieces and order it says them (as
/// cashapp/AccessibilitySnapshot's parser documents VoiceOver), before they become words:
///
///     [selected] [headers] label [spans, row, column] [value] [traits…] [i of n] [list start…]
///
/// Speech says the pieces joined by ", "; braille shows them with short forms. The hint is
/// composed alongside, to follow after a pause.
struct ElementDescription {
    /// One of VoiceOver's words after the label and value.
    enum Word: Equatable {
        /// A trait word: `trait.<name>` spoken, `braille.<name>` shown.
        case trait(String)
        /// A switch's state: `switch.on` / `.off` / `.mixed` spoken, `braille.switch.…` shown.
        case switchState(String)
        /// A switch value that is not 0, 1 or 2, said as it is.
        case verbatim(String)
    }

    var selected = false
    /// A data table cell's header cells, as their label and value.
    var headers: [String] = []
    var label = ""
    /// The label on the display: the catalog's `brailleLabel` when it has one.
    var brailleLabel = ""
    var cell: TableCellContext?
    var value: String?
    var words: [Word] = []
    /// A tab's place among its tab bar's elements, a segment's in its control.
    var position: (index: Int, count: Int)?
    /// `listStart`, `listEnd`, `landmarkStart` or `landmarkEnd`.
    var marker: String?
    /// The element has custom actions and the verbosity says so ("Actions available"; `acts`
    /// at the end of the braille line).
    var actionsAvailable = false
    /// The hint as VoiceOver composes it (element's own, switch, text field, adjustable);
    /// custom actions are added when it is spoken.
    var hint: String?
    /// Where the value starts in braille: the user edits or adjusts it there.
    var valueIsEdited = false
}

extension Presenter {
    /// The pieces of element `i` of the current screen.
    func describe(_ i: Int, in nav: Navigator) -> ElementDescription {
        let e = nav.screen.elements[i]
        let t = e.traits
        let words = verbosity.traitWords
        let context = self.context(of: i, in: nav)
        var d = ElementDescription()
        d.selected = words && t.contains(.selected)

        d.label = label(for: i, in: nav)
        d.brailleLabel = e.brailleLabel.map { nav.catalog.resolve($0, language: nav.language) } ?? d.label
        // "Back, back button" would say it twice: a back button's own "Back" is left out.
        if words, t.contains(.backButton), d.label.lowercased() == phrases.text("label.back").lowercased() {
            d.label = ""
            d.brailleLabel = ""
        }
        d.value = t.contains(.switchButton) ? nil : spokenValue(of: e, language: nav.language, appOwned: nav.forwardsActions)
        d.actionsAvailable = verbosity.actionsAvailable && !e.actions.isEmpty

        // An element with nothing else to say says its hint in their place, and not again after the pause.
        var ownHint = e.hint.flatMap { $0.isEmpty ? nil : $0 }
        var promoted = false
        if d.label.isEmpty, d.value == nil, !t.contains(.selected), let h = ownHint {
            d.label = h
            d.brailleLabel = h
            ownHint = nil
            promoted = true
        }

        if words {
            if case .tableCell(let cell)? = context {
                d.cell = cell
                d.headers = (cell.rowHeaders + cell.columnHeaders).map { headerText($0, in: nav) }.filter { !$0.isEmpty }
            }
            d.words = traitWords(e, context: context)
            switch context {
            case .tab(let index, let count)?, .segment(let index, let count)?: d.position = (index, count)
            case .listStart?: d.marker = "listStart"
            case .listEnd?: d.marker = "listEnd"
            case .landmarkStart?: d.marker = "landmarkStart"
            case .landmarkEnd?: d.marker = "landmarkEnd"
            case .tableCell?, nil: break
            }
        } else if t.contains(.switchButton), let state = switchState(e.value) {
            d.words = [state]
        }
        d.hint = composeHint(e, ownHint: ownHint, promoted: promoted)
        d.valueIsEdited = e.adjust != nil || t.contains(.adjustable) || t.contains(.searchField)
            || t.contains(.textField) || t.contains(.secureTextField)
        return d
    }

    /// VoiceOver's words for the traits, in its order: dimmed, button, back button, switch and
    /// its state, tab, text field and editing, heading, link, adjustable, image, search field.
    /// Silent: the other traits (staticText, summaryElement, playsSound, keyboardKey, …).
    func traitWords(_ e: Element, context: ElementContext?) -> [ElementDescription.Word] {
        let t = e.traits
        var w: [ElementDescription.Word] = []
        var isTab = false
        if case .tab? = context { isTab = true }
        if t.contains(.notEnabled) { w.append(.trait("notEnabled")) }
        let buttonSaidOtherwise = t.contains(.keyboardKey) || t.contains(.switchButton) || t.contains(.backButton) || isTab
        if t.contains(.button), !buttonSaidOtherwise { w.append(.trait("button")) }
        if t.contains(.backButton) { w.append(.trait("backButton")) }
        if t.contains(.switchButton) {
            if t.contains(.button) { w.append(.trait("switchButton")) }
            if let state = switchState(e.value) { w.append(state) }
        }
        if isTab { w.append(.trait("tab")) }
        if t.contains(.textField) || t.contains(.secureTextField) {
            w.append(.trait(t.contains(.secureTextField) ? "secureTextField" : "textField"))
            if t.contains(.isEditing) { w.append(.trait("isEditing")) }
        }
        for (name, trait) in Self.lastTraitWords where t.contains(trait) { w.append(.trait(name)) }
        return w
    }

    static let lastTraitWords: [(String, Traits)] = [
        ("header", .header), ("link", .link), ("adjustable", .adjustable), ("image", .image), ("searchField", .searchField),
    ]

    /// A switch's value "1", "0", "2" is on, off, mixed; any other is said as it is.
    func switchState(_ value: String?) -> ElementDescription.Word? {
        switch value {
        case "1"?: .switchState("on")
        case "0"?: .switchState("off")
        case "2"?: .switchState("mixed")
        case let v? where !v.isEmpty: .verbatim(v)
        default: nil
        }
    }

    /// The value as VoiceOver says it: a loading indicator's progress, a switch's state, a
    /// secure field's length as dots (its text is never said), else the value; nil when empty.
    /// `appOwned`: a running app's value is said as it sent it (`Element.displayValue`).
    func spokenValue(of e: Element, language: String, appOwned: Bool) -> String? {
        if e.progress != nil { return progressValue(e.progress) }
        if e.traits.contains(.switchButton), let state = switchState(e.value) { return word(state) }
        guard let v = e.displayValue(language: language, appOwned: appOwned), !v.isEmpty else { return nil }
        return e.traits.disclosed(v)
    }

    /// VoiceOver's hint: the element's own, then the switch's instruction; a text field's
    /// instead of them; then the adjustable instruction. A dimmed element gets only its own.
    /// With `hintKeys` (a keyboard or a braille display drives the session) the instructions
    /// name the bound keys instead of gestures; one whose key is unbound is left out.
    func composeHint(_ e: Element, ownHint: String?, promoted: Bool) -> String? {
        let t = e.traits
        let dimmed = t.contains(.notEnabled)
        var hint = ownHint
        func then(_ next: String?) {
            guard let next else { return }
            hint = hint.map { Self.droppingFinalPeriod($0) + ". " + next } ?? next
        }
        if t.contains(.switchButton), !dimmed { then(instruction("hint.switchButton", hintKeys?.activate)) }
        if t.contains(.textField) || t.contains(.secureTextField), !dimmed {
            hint = t.contains(.isEditing)
                ? phrases.text(hintKeys == nil ? "hint.isEditing" : "hint.isEditing.keys")
                : instruction("hint.textField", hintKeys?.activate)
        }
        if t.contains(.adjustable) || e.adjust != nil, !dimmed, !t.contains(.switchButton), !promoted {
            if let keys = hintKeys {
                if let up = keys.increment, let down = keys.decrement {
                    then(phrases.format("hint.adjustable.keys", phrases.keyName(up), phrases.keyName(down)))
                }
            } else {
                then(phrases.text("hint.adjustable"))
            }
        }
        return hint
    }

    /// The gesture instruction `key`, or with hint keys its `.keys` form naming `boundKey`
    /// (nil when no key is bound).
    func instruction(_ key: String, _ boundKey: String?) -> String? {
        guard hintKeys != nil else { return phrases.text(key) }
        return boundKey.map { phrases.format(key + ".keys", phrases.keyName($0)) }
    }

    static func droppingFinalPeriod(_ s: String) -> String { s.hasSuffix(".") ? String(s.dropLast()) : s }

    /// What VoiceOver says of a header cell: its label and value.
    func headerText(_ i: Int, in nav: Navigator) -> String {
        let e = nav.screen.elements[i]
        return [label(for: i, in: nav), spokenValue(of: e, language: nav.language, appOwned: nav.forwardsActions) ?? ""].filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// The element's container context, from the navigator's reading order. Only elements in a
    /// tab bar, list, landmark or data table have one, so others cost a walk up to the root.
    func context(of i: Int, in nav: Navigator) -> ElementContext? {
        var p = nav.screen.elements[i].parent
        var inContainer = false
        while let x = p {
            if nav.screen.elements[x].givesContext { inContainer = true; break }
            p = nav.screen.elements[x].parent
        }
        guard inContainer else { return nil }
        // Cached by the navigator after any step; built here only after a change it has not seen.
        var copy = nav
        return copy.readingOrder().context(of: i, in: nav.screen)
    }

    func word(_ w: ElementDescription.Word) -> String {
        switch w {
        case .trait(let name): phrases.text("trait." + name)
        case .switchState(let state): phrases.text("switch." + state)
        case .verbatim(let v): v
        }
    }

    func abbreviation(_ w: ElementDescription.Word) -> String {
        switch w {
        case .trait(let name): phrases.text("braille." + name)
        case .switchState(let state): phrases.text("braille.switch." + state)
        case .verbatim(let v): v
        }
    }
}
