import Foundation
import TandemClient
import TandemModel
import TandemVocabulary

/// Reads an application's AT-SPI tree into Tandem elements by the rules of Docs/atspi.md.
/// Runs on the `AtspiLoop` thread only.
final class TreeReader {
    let ids = ElementIDs()
    /// Keep the browser's own toolbars (`--chrome`).
    var chrome = false
    /// At most this many children of one object are read (the rest are left out).
    var childLimit = 10_000
    /// At most this deep (a cycle through a broken toolkit ends here).
    var depthLimit = 64
    /// Objects whose children were cut at `childLimit`: (id, how many there were).
    private(set) var truncated: [(String, Int)] = []
    /// What was read last, by id: the element's own fields (children left empty) and its
    /// children's ids — the mirror the live bridge compares new reads with.
    var known: [String: Mirrored] = [:]
    /// The element AT-SPI said is focused, in the last read.
    var focused: String?

    struct Mirrored {
        var element: AppElement  // without children
        var children: [String]
        var parent: String?
        var role: String
        /// One of the application's own children: a window whatever its role (Qt's `filler`).
        var topLevel = false
    }

    /// The elements one accessible becomes: none (ignored, gone, not showing), one, or its
    /// children's (layout). `topLevel`: one of the application's own children (a window).
    func elements(for a: Accessible, parent: String?, depth: Int = 0, path: Set<Accessible> = [], topLevel: Bool = false) -> [AppElement] {
        guard depth < depthLimit, !path.contains(a) else { return [] }
        let role = a.roleName
        if case .ignored = RoleTable.handling(of: role) { return [] }
        let states = a.states
        let handling = RoleTable.handling(of: role, states: states, topLevel: topLevel)
        if states.contains("defunct") { return [] }
        let shown = states.contains("showing") || states.contains("visible")
        let announced = RoleTable.announcedWhenShown.contains(role)
        if !shown && !announced { return [] }
        if !chrome, role == "tool bar" || role == "menu bar", isBrowserChrome(a) { return [] }
        var path = path
        path.insert(a)
        switch handling {
        case .layout:
            return childElements(of: a, parent: parent, depth: depth, path: path)
        case .ignored:
            return []
        case .text where holdsControl(a):
            // a web paragraph around a form control: the control stays a stop of its own, the
            // text around it is read in its place (`<p><label>Name</label> <input></p>`)
            return childElements(of: a, parent: parent, depth: depth, path: path)
        default:
            break
        }
        let name = a.name
        var e = AppElement("")
        fill(&e, a, role: role, handling: handling, states: states, name: name)
        // named after what it says (a GTK list row's label is its child's)
        let id = ids.id(for: a, role: role, name: name.isEmpty ? e.label ?? "" : name)
        e.id = id
        if states.contains("focused"), case .stop = handling { focused = id }
        if states.contains("focused"), case .text = handling { focused = id }
        if !shown { e.hidden = true }
        switch handling {
        case .window, .document, .container:
            if shown { e.children = childElements(of: a, parent: id, depth: depth, path: path) }
        default:
            break
        }
        remember(e, parent: parent, role: role, topLevel: topLevel)
        return [e]
    }

    func childElements(of a: Accessible, parent: String?, depth: Int, path: Set<Accessible>) -> [AppElement] {
        let count = a.childCount
        if count > childLimit, let p = parent { truncated.append((p, count)) }
        var out: [AppElement] = []
        for i in 0..<min(count, childLimit) {
            guard let c = a.child(at: i) else { continue }
            out += elements(for: c, parent: parent, depth: depth + 1, path: path)
        }
        return out
    }

    private func remember(_ e: AppElement, parent: String?, role: String, topLevel: Bool = false) {
        var own = e
        own.children = nil  // its own fields: sent in an update, it leaves its children as they are
        known[e.id] = Mirrored(element: own, children: (e.children ?? []).map(\.id), parent: parent, role: role, topLevel: topLevel)
    }

    /// The element's own fields from the accessible (Docs/atspi.md#fields).
    func fill(_ e: inout AppElement, _ a: Accessible, role: String, handling: RoleHandling, states: Set<String>, name: String) {
        var traits: Traits = []
        var isStop = false
        switch handling {
        case .stop(let t): traits = t; isStop = true
        case .text(let t): traits = t.union(.staticText); isStop = true
        case .container(let c): e.container = c
        case .window:
            if states.contains("modal") { e.modal = true }
            if role == "dialog" || role == "file chooser" || role == "font chooser" { e.handles.insert(.escape) }
        default: break
        }
        var label = name.isEmpty && isStop ? foldedText(a) : name
        if label.isEmpty, isStop, !traits.contains(.textField) {
            // Firefox keeps a node's text in its own Text, not in child objects (a caption, a
            // list item); a child object stands in it as U+FFFC
            label = (a.text ?? "").replacingOccurrences(of: "\u{FFFC}", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // Firefox writes a list item's marker at the start of its text and name ("• Rye bread"),
        // where Chromium makes it an object of its own
        if role == "list item" { label = Self.withoutListMarker(label) }
        e.label = label.isEmpty ? nil : label
        let description = a.descriptionText
        if !description.isEmpty && description != name { e.hint = description }
        e.frame = a.frame
        guard isStop else { return }
        if !states.contains("enabled") && !states.contains("sensitive") { traits.insert(.notEnabled) }
        if states.contains("selected") { traits.insert(.selected) }
        if RoleTable.selectedWhenChecked.contains(role), states.contains("checked") || states.contains("pressed") {
            traits.insert(.selected)
        }
        if RoleTable.switchValue.contains(role) {
            e.value = states.contains("indeterminate") ? "2" : states.contains("checked") ? "1" : "0"
        }
        if traits.contains(.adjustable), let v = a.value {
            e.adjust = AppAdjust(value: v.current, min: v.min, max: v.max, step: v.step > 0 ? v.step : 1)
        } else if role == "progress bar" {
            let v = a.value
            let fraction = v.flatMap { $0.max > $0.min ? ($0.current - $0.min) / ($0.max - $0.min) : nil }
            e.progress = Progress(label: e.label, value: states.contains("indeterminate") || states.contains("busy") ? nil : fraction)
        } else if role == "level bar", let v = a.value {
            e.value = JSONText.number(v.current)
        } else if traits.contains(.textField), !traits.contains(.secureTextField), let t = a.text {
            e.value = t.isEmpty ? nil : t
        }
        if e.value == nil, e.adjust == nil, states.contains("expandable") {
            e.value = states.contains("expanded") ? "expanded" : "collapsed"
        }
        if states.contains("busy"), e.progress == nil { e.progress = Progress(label: e.label, value: nil) }
        // Chromium gives every node "showContextMenu" (the browser's menu), Qt every focusable
        // widget "SetFocus": not the app's actions. An adjustable's Increase/Decrease is its adjust.
        e.actions = a.otherActionNames.filter {
            !$0.isEmpty && !RoleTable.toolkitActions.contains($0) && !(traits.contains(.adjustable) && RoleTable.adjustActions.contains($0))
        }
        if RoleTable.tableCells.contains(role), let place = a.tableCellPlace {
            let header: TableCell.Header? = role.contains("column header") ? .column : role.contains("row header") ? .row : nil
            e.cell = TableCell(row: place.row, column: place.column, rowSpan: place.rowSpan, columnSpan: place.columnSpan, header: header)
        }
        e.traits = traits
    }

    /// The application's screen: its web document when it shows one (a browser; its toolbars
    /// left out unless `chrome`), else its showing windows side by side under one root, a
    /// dialog among them modal while AT-SPI says so.
    func screen(of app: Accessible, appName: String) -> AppScreen {
        truncated = []
        focused = nil
        let windows = app.children().filter { $0.states.contains("showing") || $0.states.contains("visible") }
        if !chrome, let document = windows.lazy.compactMap({ self.document(in: $0) }).first {
            let title = document.name
            let root = elements(for: document, parent: nil).first ?? AppElement(ids.id(for: document, role: "document web", name: title))
            return AppScreen(id: "page", title: title.isEmpty ? appName : title, focus: focused, root: root)
        }
        let rootID = "app"
        let children = windows.flatMap { elements(for: $0, parent: rootID, topLevel: true) }
        let root = AppElement(rootID, children: children)
        remember(root, parent: nil, role: "application")
        let title = windows.first(where: { $0.roleName != "dialog" }).map(\.name) ?? appName
        return AppScreen(id: "app", title: title.isEmpty ? appName : title, focus: focused, root: root)
    }

    /// The biggest showing document under a window (a browser's page; the small documents of
    /// its own popups have no size), searched breadth first, at most 16 deep.
    func document(in window: Accessible) -> Accessible? {
        var level = [window]
        var best: (Accessible, Double)?
        for _ in 0..<16 where !level.isEmpty {
            var next: [Accessible] = []
            for a in level {
                let role = a.roleName
                if case .document = RoleTable.handling(of: role), a.states.contains("showing") {
                    let area = a.frame.map { $0.width * $0.height } ?? 0
                    if area > 0, area > (best?.1 ?? 0) { best = (a, area) }
                    continue
                }
                next += a.children(limit: 512)
            }
            level = next
        }
        return best?.0
    }

    /// The text under a stop with no name, joined as a label (Chromium's button text, a GTK
    /// list row's label); list markers ("• ") are left out.
    func foldedText(_ a: Accessible, depth: Int = 0) -> String {
        guard depth < 4 else { return "" }
        var parts: [String] = []
        for c in a.children(limit: 64) {
            let n = c.name.trimmingCharacters(in: .whitespaces)
            if !n.isEmpty {
                if !n.allSatisfy({ Self.listMarkers.contains($0) }) { parts.append(n) }
            } else {
                let inner = foldedText(c, depth: depth + 1)
                if !inner.isEmpty { parts.append(inner) }
            }
        }
        return parts.joined(separator: ", ")
    }

    /// The characters a list marker is drawn with, left out of labels (a bullet says nothing).
    static let listMarkers: Set<Character> = ["•", "◦", "▪", "‣", "-", "*", "·"]

    /// `text` without a leading list marker and the space after it ("• Rye bread" → "Rye bread").
    static func withoutListMarker(_ text: String) -> String {
        guard let first = text.first, listMarkers.contains(first), text.dropFirst().first?.isWhitespace == true else { return text }
        return String(text.dropFirst().drop { $0.isWhitespace })
    }

    /// Whether text (a paragraph, a label) holds a control a user must reach on its own: a
    /// child, or a child of a layout child, whose role is a `stop` (an entry, a button, a check
    /// box, a link); its text runs and labels are not.
    func holdsControl(_ a: Accessible, depth: Int = 0) -> Bool {
        guard depth < 3 else { return false }
        for c in a.children(limit: 64) {
            switch RoleTable.handling(of: c.roleName) {
            case .stop: return true
            case .layout: if holdsControl(c, depth: depth + 1) { return true }
            default: continue
            }
        }
        return false
    }

    /// A tool bar or menu bar of the browser itself (Chromium's views have a `class`
    /// attribute; a web page's do not).
    func isBrowserChrome(_ a: Accessible) -> Bool { a.attribute("class") != nil }
}

extension TreeReader {
    /// Reads one mirrored element's fields again; the changes to send as a `set` (none when it
    /// reads as before). A gone object reads as hidden.
    func refresh(id: String, object: Accessible, mirrored m: Mirrored) -> [ElementChange] {
        let role = m.role
        let states = object.states
        let handling = RoleTable.handling(of: role, states: states, topLevel: m.topLevel)
        var e = AppElement(id)
        if states.contains("defunct") || states.isEmpty {
            e = m.element
            e.hidden = true
        } else {
            fill(&e, object, role: role, handling: handling, states: states, name: object.name)
            e.hidden = !(states.contains("showing") || states.contains("visible"))
        }
        let old = m.element
        var changes: [ElementChange] = []
        if e.label != old.label { changes.append(.label(e.label)) }
        if e.value != old.value { changes.append(.value(e.value)) }
        if e.hint != old.hint { changes.append(.hint(e.hint)) }
        if e.traits != old.traits { changes.append(.traits(e.traits)) }
        if e.frame != old.frame { changes.append(.frame(e.frame)) }
        if e.hidden != old.hidden { changes.append(.hidden(e.hidden)) }
        if e.modal != old.modal { changes.append(.modal(e.modal)) }
        if e.actions != old.actions { changes.append(.actions(e.actions)) }
        if e.adjust != old.adjust { changes.append(.adjust(e.adjust)) }
        if e.progress != old.progress { changes.append(.progress(e.progress)) }
        var own = e
        own.children = []
        known[id]?.element = own
        return changes
    }
}
