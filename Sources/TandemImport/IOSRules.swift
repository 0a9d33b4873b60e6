import Foundation
import TandemModel
import TandemVocabulary

/// What an `XCUIElementType…` is to VoiceOver: one row a type (Docs/import.md#ios).
struct IOSRole {
    enum Kind {
        /// An accessibility element: VoiceOver stops on it, and not on anything inside it.
        case element
        /// A view that holds others (`Other`, `Cell`, `Window`…): VoiceOver reaches what is in
        /// it; it is a stop itself only when it is accessible and nothing inside it is.
        case view
        /// A container kept in the catalog: its elements stay inside it (a tab bar makes them
        /// tabs, an alert is modal, a list is a list); never a stop.
        case container
    }

    var kind: Kind
    var traits: Traits = []
    /// Its value is on (`1`) or off (`0`): a switch.
    var isSwitch = false
    /// A loading indicator (`progress`): a spinner, or a bar with a percentage.
    var isProgress = false
    var modal = false
    var containerType: ContainerType?

    static func element(_ traits: Traits) -> IOSRole { IOSRole(kind: .element, traits: traits) }

    /// The table, keyed by the type without `XCUIElementType`.
    static let table: [String: IOSRole] = [
        "Button": .element(.button),
        "StaticText": .element(.staticText),
        "Image": .element(.image),
        "Icon": .element(.button),
        "Switch": IOSRole(kind: .element, traits: [.button, .switchButton], isSwitch: true),
        "Toggle": IOSRole(kind: .element, traits: [.button, .switchButton], isSwitch: true),
        "CheckBox": IOSRole(kind: .element, traits: [.button, .switchButton], isSwitch: true),
        "RadioButton": .element(.button),
        "Slider": .element(.adjustable),
        "Stepper": .element(.adjustable),
        "PickerWheel": .element(.adjustable),
        "PageIndicator": .element(.adjustable),
        "TextField": .element(.textField),
        "SecureTextField": .element([.textField, .secureTextField]),
        "SearchField": .element(.searchField),
        "TextView": .element(.textField),
        "Link": .element(.link),
        "Tab": .element(.button),
        "MenuItem": .element(.button),
        "MenuBarItem": .element(.button),
        "Key": .element(.keyboardKey),
        "ActivityIndicator": IOSRole(kind: .element, isProgress: true),
        "ProgressIndicator": IOSRole(kind: .element, isProgress: true),
        "Other": IOSRole(kind: .view),
        "Cell": IOSRole(kind: .view),
        "Group": IOSRole(kind: .view),
        "Window": IOSRole(kind: .view),
        "Any": IOSRole(kind: .view),
        "StatusBar": IOSRole(kind: .view),
        "LayoutArea": IOSRole(kind: .view),
        "LayoutItem": IOSRole(kind: .view),
        "Application": IOSRole(kind: .container),
        "NavigationBar": IOSRole(kind: .container),
        "Toolbar": IOSRole(kind: .container),
        "TabBar": IOSRole(kind: .container, traits: .tabBar),
        "TabGroup": IOSRole(kind: .container, traits: .tabBar),
        "SegmentedControl": IOSRole(kind: .container, containerType: .segmentedControl),
        "Alert": IOSRole(kind: .container, modal: true),
        "Sheet": IOSRole(kind: .container, modal: true),
        "Table": IOSRole(kind: .container),
        "CollectionView": IOSRole(kind: .container),
        "ScrollView": IOSRole(kind: .container),
        "WebView": IOSRole(kind: .container),
        "Picker": IOSRole(kind: .container),
        "DatePicker": IOSRole(kind: .container),
        "Keyboard": IOSRole(kind: .container),
        "Map": IOSRole(kind: .container),
        "Menu": IOSRole(kind: .container),
        "MenuBar": IOSRole(kind: .container),
    ]
}

/// WebDriverAgent's page source (`<AppiumAUT><XCUIElementTypeApplication …>`) to a screen: what
/// VoiceOver would reach on it (Docs/import.md#ios).
struct IOSRules {
    let file: String
    var warnings: [ImportError] = []
    private var unknown: Set<String> = []

    init(file: String) { self.file = file }

    /// The screen's root element (the application) with everything VoiceOver reaches inside it.
    mutating func screen(_ document: SourceNode) throws(ImportError) -> ImportedNode {
        var app = document
        if app.tag == "AppiumAUT" {
            guard let first = app.children.first(where: { Self.type(of: $0) == "Application" }) ?? app.children.first else {
                throw ImportError(at(app), "<AppiumAUT> holds no application")
            }
            app = first
        }
        guard app.tag.hasPrefix("XCUIElementType") || app["type"]?.hasPrefix("XCUIElementType") == true else {
            let hint = app.tag == "hierarchy" ? " (a UiAutomator dump: import it with `tandem import android`)" : ""
            throw ImportError(at(app), "not a WebDriverAgent page source: its root is <\(app.tag)>, not <AppiumAUT> or <XCUIElementTypeApplication>\(hint)")
        }
        var root = ImportedNode(element: Element(id: ""), idHint: "app", source: at(app))
        root.element.accessible = false
        root.element.frame = frame(app)
        root.children = app.children.flatMap { node(in: $0, bar: nil) }
        return root
    }

    /// `XCUIElementTypeButton` → `Button`: the `type` attribute, else the tag.
    static func type(of n: SourceNode) -> String {
        // On the attribute's bytes: the short name is a small string, the long one never made.
        let fromAttribute = n.withValueBytes("type") { b -> String in
            let prefix = "XCUIElementType".utf8
            let start = b.count > prefix.count && b.starts(with: prefix) ? prefix.count : 0
            return String(decoding: UnsafeBufferPointer(rebasing: b[start...]), as: UTF8.self)
        }
        if let fromAttribute { return fromAttribute }
        let t = n.tag
        return t.hasPrefix("XCUIElementType") ? String(t.dropFirst("XCUIElementType".count)) : t
    }

    func at(_ n: SourceNode) -> SourceLocation { SourceLocation(file: file, line: n.line, column: n.column) }

    /// The bar an element is in, for the rules that depend on it.
    enum Bar { case navigation(title: String?, backTaken: Bool), tab }

    /// What node `n` becomes: nothing, one element, or the elements inside it (a view passes
    /// through).
    mutating func node(in n: SourceNode, bar: Bar?) -> [ImportedNode] {
        var bar = bar
        return node(n, bar: &bar)
    }

    mutating func node(_ n: SourceNode, bar: inout Bar?) -> [ImportedNode] {
        let type = Self.type(of: n)
        let role: IOSRole
        if let known = IOSRole.table[type] {
            role = known
        } else {
            // A type from a newer Xcode, or not WebDriverAgent's: a plain view, said once a file.
            if unknown.insert(type).inserted {
                warnings.append(ImportError(at(n), "unknown element type \(n["type"] ?? n.tag): imported as a plain element (Docs/import.md#unknown-types)"))
            }
            role = IOSRole(kind: .view)
        }
        let frame = self.frame(n)
        // WebDriverAgent's `visible` is its own guess per element; zero size is never reached.
        let shown = n.flag("visible") != false && (frame.map { $0.width > 0 && $0.height > 0 } ?? true)
        let reachable = shown && n.flag("accessible") != false

        switch role.kind {
        case .container:
            var inner: Bar? = bar
            if type == "NavigationBar" { inner = .navigation(title: label(n), backTaken: false) }
            if role.traits.contains(.tabBar) { inner = .tab }
            var kids: [ImportedNode] = []
            for c in n.children { kids += node(c, bar: &inner) }
            guard !kids.isEmpty else { return [] }
            var e = Element(id: "")
            e.accessible = false
            e.traits = role.traits
            e.modal = role.modal
            e.container = role.containerType
            e.frame = frame
            return [ImportedNode(element: e, idHint: idHint(n, type: type), source: at(n), children: kids)]
        case .view:
            // A page source saved without `accessible` (Appium's pageSourceExcludedAttributes,
            // older WebDriverAgents): a cell XCTest gives a label, with only texts and images
            // inside, is the accessibility element VoiceOver reads as one (Docs/import.md#ios-quirks).
            if type == "Cell", n["accessible"] == nil, shown, label(n) != nil, Self.holdsOnlyText(n) {
                return [stop(n, type: type, role: role, frame: frame, bar: &bar)]
            }
            var kids: [ImportedNode] = []
            for c in n.children { kids += node(c, bar: &bar) }
            // "Other" nodes that only wrap: whatever label XCTest gives a wrapper (often its
            // content's, or a React Native testID's), VoiceOver stops on what is inside it.
            if !kids.isEmpty { return kids }
            guard reachable, n.flag("accessible") == true || label(n) != nil else { return [] }
            var stop = self.stop(n, type: type, role: role, frame: frame, bar: &bar)
            if stop.element.label == nil, let joined = joinedLabel(n.children) { stop.element.label = .plain(joined) }
            return [stop]
        case .element:
            // An accessibility element hides what is inside it (a button's StaticText child).
            guard reachable else { return n.children.flatMap { node(in: $0, bar: bar) } }
            return [stop(n, type: type, role: role, frame: frame, bar: &bar)]
        }
    }

    /// Nothing inside but texts, images and the views around them.
    static func holdsOnlyText(_ n: SourceNode) -> Bool {
        n.children.allSatisfy { c in
            ["StaticText", "Image", "Other"].contains(type(of: c)) && holdsOnlyText(c)
        }
    }

    /// `label`, else `name` when it is not an identifier; `nil` when empty.
    func label(_ n: SourceNode) -> String? {
        if let l = n["label"] { return l.isEmpty ? nil : l }
        // WebDriverAgent writes `name` as the identifier, or the label when there is none.
        guard let name = n["name"], !name.isEmpty, !Self.looksLikeIdentifier(name) else { return nil }
        return name
    }

    /// `ic_close_24`, `login.button`, `closeButton`, `settings/back`: no spaces, and an
    /// underscore, dot, slash or colon, or a lower-case start with an upper-case letter inside.
    static func looksLikeIdentifier(_ s: String) -> Bool {
        guard !s.contains(" ") else { return false }
        if s.contains(where: { "_./:".contains($0) }) { return true }
        guard let first = s.first, first.isLowercase else { return false }
        return s.dropFirst().contains(where: \.isUppercase)
    }

    /// The id's source: the identifier (`name` when it is not the label), else the label, else the type.
    func idHint(_ n: SourceNode, type: String) -> String {
        if let name = n["name"], !name.isEmpty, name != n["label"] { return name }
        return label(n) ?? n["value"].flatMap { $0.isEmpty ? nil : $0 } ?? type
    }

    func frame(_ n: SourceNode) -> Frame? {
        guard let x = Self.number(n, "x"), let y = Self.number(n, "y"),
              let w = Self.number(n, "width"), let h = Self.number(n, "height") else { return nil }
        return Frame(x: x, y: y, width: w, height: h)
    }

    /// A number attribute as `Double(String)` reads it. Plain decimals (`-12`, `20.5`; at most
    /// 15 digits) are read from the bytes: an exact integer over an exact power of ten, so the
    /// same correctly rounded value; anything else goes to `Double(String)`.
    static func number(_ n: SourceNode, _ name: String) -> Double? {
        let read = n.withValueBytes(name) { b -> Double? in
            var i = 0
            let negative = i < b.count && b[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            var mantissa = 0.0, digits = 0, fraction = 0, point = false
            while i < b.count {
                let c = b[i]
                if c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") {
                    mantissa = mantissa * 10 + Double(c - UInt8(ascii: "0"))
                    digits += 1
                    if point { fraction += 1 }
                } else if c == UInt8(ascii: "."), !point {
                    point = true
                } else {
                    return Double(String(decoding: b, as: UTF8.self))
                }
                i += 1
            }
            guard digits > 0, digits <= 15 else { return Double(String(decoding: b, as: UTF8.self)) }
            let powers: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]
            let v = mantissa / powers[fraction]
            return negative ? -v : v
        }
        return read ?? nil
    }

    /// A stop: label, value, traits and state by the rules of its type.
    mutating func stop(_ n: SourceNode, type: String, role: IOSRole, frame: Frame?, bar: inout Bar?) -> ImportedNode {
        var e = Element(id: "")
        e.accessible = true
        e.frame = frame
        e.traits = role.traits
        var label = self.label(n)
        var value = n["value"].flatMap { $0.isEmpty ? nil : $0 }
        if role.isSwitch {
            value = value.map(Self.switchValue)
        }
        if type == "StaticText" {
            // XCTest gives a static text its text as value too: said once, as the label.
            if label == nil { label = value }
            if value == label { value = nil }
        }
        if role.traits.contains(.textField) || role.traits.contains(.searchField) {
            // An empty field's value is its placeholder (WebDriverAgent): the placeholder labels
            // a field that has no label, as VoiceOver reads it.
            if let p = n["placeholderValue"], !p.isEmpty, value == nil || value == p {
                if label == nil { label = p }
                value = nil
            }
        }
        if role.isProgress {
            let fraction = value.flatMap(Self.percent)
            e.progress = Progress(label: nil, value: type == "ActivityIndicator" ? nil : fraction)
            value = nil
        }
        if n.flag("enabled") == false { e.traits.insert(.notEnabled) }
        if n.flag("selected") == true { e.traits.insert(.selected) }
        switch bar {
        case .tab?:
            // A tab bar's buttons say "1" for the selected tab (WebDriverAgent's value).
            if role.traits.contains(.button), value == "1" || value == "0" {
                if value == "1" { e.traits.insert(.selected) }
                value = nil
            }
        case .navigation(let title, let backTaken)?:
            if type == "Button", !backTaken {
                e.traits.insert(.backButton)
                bar = .navigation(title: title, backTaken: true)
            }
            if type == "StaticText", let title, label == title { e.traits.insert(.header) }
        case nil:
            break
        }
        e.label = label.map(LabelText.plain)
        e.value = value
        return ImportedNode(element: e, idHint: idHint(n, type: type), source: at(n))
    }

    /// A switch's value as VoiceOver's state: `1` on, `0` off (also `true`/`false`, `on`/`off`).
    static func switchValue(_ v: String) -> String {
        switch v.lowercased() {
        case "1", "true", "on": return "1"
        case "0", "false", "off": return "0"
        default: return v
        }
    }

    /// `"40%"` → 0.4.
    static func percent(_ v: String) -> Double? {
        let t = v.trimmingCharacters(in: .whitespaces)
        guard t.hasSuffix("%"), let n = Double(t.dropLast().trimmingCharacters(in: .whitespaces)) else { return nil }
        return min(max(n / 100, 0), 1)
    }

    /// The labels of the texts inside a view with no label of its own, in document order.
    func joinedLabel(_ nodes: [SourceNode]) -> String? {
        var parts: [String] = []
        func walk(_ n: SourceNode) {
            if n.flag("visible") != false, let l = label(n) ?? n["value"].flatMap({ $0.isEmpty ? nil : $0 }) {
                parts.append(l)
                return
            }
            n.children.forEach(walk)
        }
        nodes.forEach(walk)
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
