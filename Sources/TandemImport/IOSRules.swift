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

/// The attributes of one WebDriverAgent element the rules read, found once: where each value
/// is (an index into the page's spans, -1 when the element has no such attribute), the frame's
/// numbers, and the booleans as bits (`present`: written; `on`: `"true"` or `"1"`).
struct IOSFacts: Equatable, PlacedFacts {
    var type: Int32 = -1
    var name: Int32 = -1
    var label: Int32 = -1
    var value: Int32 = -1
    var placeholder: Int32 = -1
    var x: Int32 = -1, y: Int32 = -1, width: Int32 = -1, height: Int32 = -1
    var present: UInt8 = 0
    var on: UInt8 = 0

    enum Flag: UInt8 {
        case visible, accessible, enabled, selected
        var bit: UInt8 { 1 << rawValue }
    }

    @inline(__always) func isOn(_ f: Flag) -> Bool { on & f.bit != 0 }
    @inline(__always) func isOff(_ f: Flag) -> Bool { present & f.bit != 0 && on & f.bit == 0 }
    @inline(__always) func has(_ f: Flag) -> Bool { present & f.bit != 0 }

    /// The names the rules read, as keys (`PageTree.NameKey`), written out as numbers so that
    /// each compare is with constants (`NameKeyTests` checks each against its name).
    enum Names {
        /// `x`
        static var x: PageTree.NameKey { PageTree.NameKey(count: 1, first: 0x0000000000000078, last: 0x0000000000000000) }
        /// `y`
        static var y: PageTree.NameKey { PageTree.NameKey(count: 1, first: 0x0000000000000079, last: 0x0000000000000000) }
        /// `type`
        static var type: PageTree.NameKey { PageTree.NameKey(count: 4, first: 0x0000000065707974, last: 0x0000000000000000) }
        /// `name`
        static var name: PageTree.NameKey { PageTree.NameKey(count: 4, first: 0x00000000656D616E, last: 0x0000000000000000) }
        /// `label`
        static var label: PageTree.NameKey { PageTree.NameKey(count: 5, first: 0x0000006C6562616C, last: 0x0000000000000000) }
        /// `value`
        static var value: PageTree.NameKey { PageTree.NameKey(count: 5, first: 0x00000065756C6176, last: 0x0000000000000000) }
        /// `width`
        static var width: PageTree.NameKey { PageTree.NameKey(count: 5, first: 0x0000006874646977, last: 0x0000000000000000) }
        /// `height`
        static var height: PageTree.NameKey { PageTree.NameKey(count: 6, first: 0x0000746867696568, last: 0x0000000000000000) }
        /// `visible`
        static var visible: PageTree.NameKey { PageTree.NameKey(count: 7, first: 0x00656C6269736976, last: 0x0000000000000000) }
        /// `enabled`
        static var enabled: PageTree.NameKey { PageTree.NameKey(count: 7, first: 0x0064656C62616E65, last: 0x0000000000000000) }
        /// `selected`
        static var selected: PageTree.NameKey { PageTree.NameKey(count: 8, first: 0x64657463656C6573, last: 0x0000000000000000) }
        /// `accessible`
        static var accessible: PageTree.NameKey { PageTree.NameKey(count: 10, first: 0x6269737365636361, last: 0x656C626973736563) }
        /// `placeholderValue`
        static var placeholder: PageTree.NameKey { PageTree.NameKey(count: 16, first: 0x6C6F686563616C70, last: 0x65756C6156726564) }
        /// Every key with its name, for the test.
        static var all: [(PageTree.NameKey, StaticString)] { [(x, "x"), (y, "y"), (type, "type"), (name, "name"), (label, "label"), (value, "value"), (width, "width"), (height, "height"), (visible, "visible"), (enabled, "enabled"), (selected, "selected"), (accessible, "accessible"), (placeholder, "placeholderValue")] }
    }

    /// Where each attribute the rules read is among an element's attributes (its place from
    /// the first, -1 when not written), for the elements that follow with the same names in
    /// the same order (`PageTree.sameNames`: a row's cell, texts and switch each repeat theirs).
    struct Places {
        var type: Int32 = -1, name: Int32 = -1, label: Int32 = -1, value: Int32 = -1, placeholder: Int32 = -1
        var x: Int32 = -1, y: Int32 = -1, width: Int32 = -1, height: Int32 = -1
        var present: UInt8 = 0
        /// Where each flag is, by `Flag.rawValue` (-1: not written): four places in the struct,
        /// no array to copy a row (a tag's attribute names are all different, so each flag is
        /// written at most once).
        var flags: (Int32, Int32, Int32, Int32) = (-1, -1, -1, -1)
    }

    static var unplaced: Places { Places() }

    /// Element `i`, whose attribute names are those `places` was made from (the previous
    /// element of its tag's): the same places, only the flags' values read.
    @inline(__always)
    init(_ tree: PageTree, _ i: Int, _ d: UnsafeBufferPointer<UInt8>, places: Places) {
        let first = tree.attributes[i].lowerBound
        @inline(__always) func at(_ k: Int32) -> Int32 { k < 0 ? -1 : first + k }
        type = at(places.type); name = at(places.name); label = at(places.label); value = at(places.value)
        placeholder = at(places.placeholder)
        x = at(places.x); y = at(places.y); width = at(places.width); height = at(places.height)
        present = places.present
        guard present != 0 else { return }
        var on: UInt8 = 0
        @inline(__always) func read(_ k: Int32, _ flag: Flag) {
            guard k >= 0 else { return }
            let span = Int(first + k)
            if tree.isTrue(d, tree.spans[span], span) { on |= flag.bit }
        }
        read(places.flags.0, .visible); read(places.flags.1, .accessible); read(places.flags.2, .enabled); read(places.flags.3, .selected)
        self.on = on
    }

    /// Every attribute of element `i` of `tree` by name (`init(_:_:_:)`); where each was, in `places`.
    init(_ tree: PageTree, _ i: Int, _ d: UnsafeBufferPointer<UInt8>, places: inout Places) {
        self.init(tree, i, d)
        let first = tree.attributes[i].lowerBound
        @inline(__always) func place(_ k: Int32) -> Int32 { k < 0 ? -1 : k - first }
        places = Places(type: place(type), name: place(name), label: place(label), value: place(value), placeholder: place(placeholder),
                        x: place(x), y: place(y), width: place(width), height: place(height), present: present)
        guard present != 0 else { return }
        for (flag, at) in tree.flagPlaces(of: i, d, flag: Self.flag) {
            switch flag {
            case .visible: places.flags.0 = at
            case .accessible: places.flags.1 = at
            case .enabled: places.flags.2 = at
            case .selected: places.flags.3 = at
            }
        }
    }

    /// The flag an attribute name is, if it is one.
    static func flag(_ key: PageTree.NameKey) -> Flag? {
        switch key.count {
        case 7: return key == Names.visible ? .visible : key == Names.enabled ? .enabled : nil
        case 8: return key == Names.selected ? .selected : nil
        case 10: return key == Names.accessible ? .accessible : nil
        default: return nil
        }
    }

    /// Every attribute of element `i` of `tree`, each name compared once (by length, then its
    /// first and last eight bytes as words).
    init(_ tree: PageTree, _ i: Int, _ d: UnsafeBufferPointer<UInt8>) {
        for k in tree.attributes[i] {
            let s = tree.spans[Int(k)]
            let key = PageTree.NameKey(d, s)
            var flag: Flag?
            switch key.count {
            case 1:
                if key == Names.x { x = k } else if key == Names.y { y = k }
            case 4:
                if key == Names.type { type = k } else if key == Names.name { name = k }
            case 5:
                if key == Names.label { label = k } else if key == Names.value { value = k } else if key == Names.width { width = k }
            case 6:
                if key == Names.height { height = k }
            case 7:
                if key == Names.visible { flag = .visible } else if key == Names.enabled { flag = .enabled }
            case 8:
                if key == Names.selected { flag = .selected }
            case 10:
                if key == Names.accessible { flag = .accessible }
            case 16:
                if key == Names.placeholder { placeholder = k }
            default:
                break
            }
            if let flag {
                present |= flag.bit
                if tree.isTrue(d, s, Int(k)) { on |= flag.bit }
            }
        }
    }
}

/// WebDriverAgent's page source (`<AppiumAUT><XCUIElementTypeApplication …>`) to a screen: what
/// VoiceOver would reach on it (Docs/import.md#ios). Each element's attributes are read once
/// (`IOSFacts`) and its type looked up once a type a screen.
struct IOSRules {
    let file: String
    var warnings: [ImportError] = []
    private var unknown: Set<String> = []

    init(file: String) { self.file = file }

    /// The types the rules tell apart by name, each type's name compared once a screen.
    enum TypeName { case staticText, button, navigationBar, cell, image, other, activityIndicator, application, another }

    /// The types seen on the screen (without `XCUIElementType`), each with its role.
    struct TypeInfo {
        var name: String
        var role: IOSRole?
        /// Which of the types the rules tell apart by name it is (`.another` for the rest).
        var named: TypeName

        init(name: String) {
            self.name = name
            role = IOSRole.table[name]
            switch name {
            case "StaticText": named = .staticText
            case "Button": named = .button
            case "NavigationBar": named = .navigationBar
            case "Cell": named = .cell
            case "Image": named = .image
            case "Other": named = .other
            case "ActivityIndicator": named = .activityIndicator
            case "Application": named = .application
            default: named = .another
            }
        }
    }
    private var types: [TypeInfo] = []

    /// The page while `screen` walks it: the tree, and its bytes, spans, subtrees, each element's
    /// facts and type as pointers into memory that `screen` keeps for the walk.
    struct Page {
        let tree: PageTree
        let d: UnsafeBufferPointer<UInt8>
        let spans: UnsafeBufferPointer<AttributeSpan>
        let end: UnsafeBufferPointer<Int32>
        let facts: UnsafeBufferPointer<IOSFacts>
        let typeOf: UnsafeBufferPointer<Int32>

        /// The first child of `i` (`end[i]` when it has none); a child's next sibling is `end[child]`.
        @inline(__always) func firstChild(_ i: Int) -> Int { i + 1 }
        @inline(__always) func stop(_ i: Int) -> Int { Int(end[i]) }

        @inline(__always) func isEmpty(_ span: Int32) -> Bool {
            let s = spans[Int(span)]
            return s.valueTo == s.valueFrom
        }

        /// The value as XML means it (`PageTree.string`).
        @inline(__always) func string(_ span: Int32) -> String { tree.string(span, d) }

        /// Whether two values are the same text (`PageTree.same`): the same bytes, else asked of the tree.
        @inline(__always) func same(_ a: Int32, _ b: Int32) -> Bool {
            tree.sameBytes(a, b, d) || tree.same(Int(a), Int(b))
        }

        /// A number attribute as `Double(String)` reads it (`IOSRules.number(bytes:)`); one to
        /// eight plain digits (nearly every `x`, `y`, `width`, `height`) read as one word.
        @inline(__always) func number(_ span: Int32) -> Double? {
            guard span >= 0 else { return nil }
            let s = spans[Int(span)]
            if s.raw { return tree.withValue(Int(span), IOSRules.number(bytes:)) }
            let from = Int(s.valueFrom), count = Int(s.valueTo - s.valueFrom)
            if count > 0, count <= 8, from + 8 <= d.count, let v = IOSRules.digits(d.baseAddress! + from, count: count) { return Double(v) }
            return IOSRules.number(bytes: UnsafeBufferPointer(start: d.baseAddress! + from, count: count))
        }

        /// The element's frame as written; `nil` without all four numbers.
        func frame(_ i: Int) -> Frame? {
            let f = facts[i]
            guard let x = number(f.x), let y = number(f.y), let w = number(f.width), let h = number(f.height) else { return nil }
            return Frame(x: x, y: y, width: w, height: h)
        }

        /// Where `label(i)` comes from, when it is not `nil`: `label`, else `name`.
        func labelSpan(_ i: Int) -> Int32? {
            let f = facts[i]
            if f.label >= 0 { return f.label }
            return f.name >= 0 ? f.name : nil
        }

        /// `label`, else `name` when it is not an identifier; `nil` when empty.
        func label(_ i: Int) -> String? {
            let f = facts[i]
            if f.label >= 0 { return isEmpty(f.label) ? nil : string(f.label) }
            // WebDriverAgent writes `name` as the identifier, or the label when there is none.
            guard f.name >= 0, !isEmpty(f.name) else { return nil }
            let name = string(f.name)
            return IOSRules.looksLikeIdentifier(name) ? nil : name
        }

        /// `value`, `nil` when empty.
        func value(_ i: Int) -> String? {
            let f = facts[i]
            guard f.value >= 0, !isEmpty(f.value) else { return nil }
            return string(f.value)
        }
    }

    /// The screen's root element (the application) with everything VoiceOver reaches inside it, in `out`.
    mutating func screen(_ tree: PageTree, into out: inout ScreenBuilder) throws(ImportError) {
        let n = tree.count
        let facts = IOSFacts.all(tree)
        // Types: one string and one table lookup a distinct type.
        var typeOf = [Int32](repeating: 0, count: n)
        tree.bytes.withUnsafeBufferPointer { d in
            var seen: [UInt64: (span: Int, type: Int32)] = [:]
            var recent = RecentValues<Int32>()
            // The last type of each tag (WebDriverAgent writes the type as the tag): the same
            // bytes are the same type, found with one compare.
            var lastOfTag = [(span: Int32, type: Int32)](repeating: (-1, 0), count: tree.tagNames.count)
            for i in 0..<n {
                let f = facts[i]
                guard f.type >= 0 else { typeOf[i] = index(of: Self.type(tree, i, f)); continue }
                let tag = Int(tree.tagOf[i])
                let last = lastOfTag[tag]
                if last.span >= 0, tree.sameBytes(last.span, f.type, d) {
                    typeOf[i] = last.type
                    continue
                }
                defer { lastOfTag[tag] = (f.type, typeOf[i]) }
                if let type = recent.find(tree, d, Int(f.type)) { typeOf[i] = type; continue }
                let key = tree.hash(Int(f.type))
                if let hit = seen[key], tree.same(hit.span, Int(f.type)) { typeOf[i] = hit.type; continue }
                typeOf[i] = index(of: Self.type(tree, i, f))
                recent.add(tree, Int(f.type), typeOf[i])
                if seen[key] == nil { seen[key] = (Int(f.type), typeOf[i]) }
            }
        }
        var app = 0
        if tree.tag(0) == "AppiumAUT" {
            let kids = Array(tree.children(0))
            guard let first = kids.first(where: { types[Int(typeOf[$0])].named == .application }) ?? kids.first else {
                throw ImportError(tree.location(0), "<AppiumAUT> holds no application")
            }
            app = first
        }
        guard tree.tag(app).hasPrefix("XCUIElementType") || (facts[app].type >= 0 && tree.string(Int(facts[app].type)).hasPrefix("XCUIElementType")) else {
            let tag = tree.tag(app)
            let hint = tag == "hierarchy" ? " (a UiAutomator dump: import it with `tandem import android`)" : ""
            throw ImportError(tree.location(app), "not a WebDriverAgent page source: its root is <\(tag)>, not <AppiumAUT> or <XCUIElementTypeApplication>\(hint)")
        }
        out.page = tree
        tree.bytes.withUnsafeBufferPointer { d in
            facts.withUnsafeBufferPointer { facts in
                typeOf.withUnsafeBufferPointer { typeOf in
                    let p = Page(tree: tree, d: d, spans: tree.spans, end: tree.end, facts: facts, typeOf: typeOf)
                    var root = Element(id: "")
                    root.accessible = false
                    root.frame = placed(p.frame(app), app, p)
                    let me = out.add(root, id: .text("app"), source: tree.location(app), parent: nil)
                    var c = p.firstChild(app)
                    while c < p.stop(app) {
                        var bar: Bar?
                        node(c, bar: &bar, parent: me, into: &out, p)
                        c = p.stop(c)
                    }
                }
            }
        }
    }

    private mutating func index(of name: String) -> Int32 {
        if let k = types.firstIndex(where: { $0.name == name }) { return Int32(k) }
        types.append(TypeInfo(name: name))
        return Int32(types.count - 1)
    }

    /// `XCUIElementTypeButton` → `Button`: the `type` attribute, else the tag.
    static func type(_ tree: PageTree, _ i: Int, _ f: IOSFacts) -> String {
        if f.type >= 0 {
            return tree.withValue(Int(f.type)) { b -> String in
                let prefix = "XCUIElementType".utf8
                let start = b.count > prefix.count && b.starts(with: prefix) ? prefix.count : 0
                return String(decoding: UnsafeBufferPointer(rebasing: b[start...]), as: UTF8.self)
            }
        }
        let t = tree.tag(i)
        return t.hasPrefix("XCUIElementType") ? String(t.dropFirst("XCUIElementType".count)) : t
    }

    /// The bar an element is in, for the rules that depend on it.
    enum Bar { case navigation(title: String?, backTaken: Bool), tab }

    /// What element `i` becomes, added to `out` under `parent`: nothing, one element, or the
    /// elements inside it (a view passes through).
    mutating func node(_ i: Int, bar: inout Bar?, parent: Int, into out: inout ScreenBuilder, _ p: Page) {
        let t = Int(p.typeOf[i])
        let role: IOSRole
        if let known = types[t].role {
            role = known
        } else {
            // A type from a newer Xcode, or not WebDriverAgent's: a plain view, said once a file.
            if unknown.insert(types[t].name).inserted {
                let written = p.facts[i].type >= 0 ? p.tree.string(Int(p.facts[i].type)) : p.tree.tag(i)
                warnings.append(ImportError(p.tree.location(i), "unknown element type \(written): imported as a plain element (Docs/import.md#unknown-types)"))
            }
            role = IOSRole(kind: .view)
        }
        let type = types[t].named
        let f = p.facts[i]
        let written = p.frame(i)
        let frame = placed(written, i, p)
        // WebDriverAgent's `visible` is its own guess per element; zero or negative size is
        // never reached.
        let shown = !f.isOff(.visible) && (written.map { $0.width > 0 && $0.height > 0 } ?? true)
        let reachable = shown && !f.isOff(.accessible)

        switch role.kind {
        case .container:
            var inner: Bar? = bar
            let label = p.label(i)
            if type == .navigationBar { inner = .navigation(title: label, backTaken: false) }
            if role.traits.contains(.tabBar) { inner = .tab }
            var e = Element(id: "")
            e.accessible = false
            e.traits = role.traits
            e.modal = role.modal
            e.container = role.containerType
            e.frame = frame
            let me = out.add(e, id: idHint(i, t, label: label, p), source: p.tree.location(i), parent: parent)
            var c = p.firstChild(i)
            while c < p.stop(i) { node(c, bar: &inner, parent: me, into: &out, p); c = p.stop(c) }
            if out.count == me + 1 { out.removeLast() }   // nothing inside: no container
        case .view:
            // A page source saved without `accessible` (Appium's pageSourceExcludedAttributes,
            // older WebDriverAgents): a cell XCTest gives a label, with only texts and images
            // inside, is the accessibility element VoiceOver reads as one (Docs/import.md#ios-quirks).
            if type == .cell, !f.has(.accessible), shown, let label = p.label(i), holdsOnlyText(i, p) {
                let me = out.add(Element(id: ""), id: idHint(i, t, label: label, p), source: p.tree.location(i), parent: parent)
                stop(&out.elements[me], i, type: type, role: role, frame: frame, bar: &bar, label: label, p)
                return
            }
            let before = out.count
            var c = p.firstChild(i)
            while c < p.stop(i) { node(c, bar: &bar, parent: parent, into: &out, p); c = p.stop(c) }
            // "Other" nodes that only wrap: whatever label XCTest gives a wrapper (often its
            // content's, or a React Native testID's), VoiceOver stops on what is inside it.
            if out.count > before { return }
            guard reachable else { return }
            let label = p.label(i)
            guard f.isOn(.accessible) || label != nil else { return }
            let me = out.add(Element(id: ""), id: idHint(i, t, label: label, p), source: p.tree.location(i), parent: parent)
            stop(&out.elements[me], i, type: type, role: role, frame: frame, bar: &bar, label: label, p)
            if out.elements[me].label == nil, let joined = joinedLabel(i, p) { out.elements[me].label = .plain(joined) }
        case .element:
            // An accessibility element hides what is inside it (a button's StaticText child).
            guard reachable else {
                var c = p.firstChild(i)
                while c < p.stop(i) {
                    var copy = bar
                    node(c, bar: &copy, parent: parent, into: &out, p)
                    c = p.stop(c)
                }
                return
            }
            let label = p.label(i)
            let me = out.add(Element(id: ""), id: idHint(i, t, label: label, p), source: p.tree.location(i), parent: parent)
            stop(&out.elements[me], i, type: type, role: role, frame: frame, bar: &bar, label: label, p)
        }
    }

    /// Nothing inside but texts, images and the views around them.
    func holdsOnlyText(_ i: Int, _ p: Page) -> Bool {
        var c = p.firstChild(i)
        while c < p.stop(i) {
            switch types[Int(p.typeOf[c])].named {
            case .staticText, .image, .other: break
            default: return false
            }
            if !holdsOnlyText(c, p) { return false }
            c = p.stop(c)
        }
        return true
    }

    /// `label`, else `name` when it is not an identifier, for a node made by hand (tests, tools).
    func label(_ n: SourceNode) -> String? {
        if let l = n["label"] { return l.isEmpty ? nil : l }
        guard let name = n["name"], !name.isEmpty, !Self.looksLikeIdentifier(name) else { return nil }
        return name
    }

    /// `ic_close_24`, `login.button`, `closeButton`, `settings/back`: no spaces, and an
    /// underscore, dot, slash or colon, or a lower-case start with an upper-case letter inside.
    static func looksLikeIdentifier(_ s: String) -> Bool {
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: the same test on bytes (each byte is a character, CR LF aside, which is neither).
            var u = s.utf8.makeIterator()
            var punctuation = false, upperInside = false
            guard let first = u.next() else { return false }
            if first == UInt8(ascii: " ") { return false }
            if first == UInt8(ascii: "_") || first == UInt8(ascii: ".") || first == UInt8(ascii: "/") || first == UInt8(ascii: ":") { punctuation = true }
            while let b = u.next() {
                if b == UInt8(ascii: " ") { return false }
                if b == UInt8(ascii: "_") || b == UInt8(ascii: ".") || b == UInt8(ascii: "/") || b == UInt8(ascii: ":") { punctuation = true }
                if b >= UInt8(ascii: "A"), b <= UInt8(ascii: "Z") { upperInside = true }
            }
            if punctuation { return true }
            return first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") && upperInside
        }
        guard !s.contains(" ") else { return false }
        if s.contains(where: { "_./:".contains($0) }) { return true }
        guard let first = s.first, first.isLowercase else { return false }
        return s.dropFirst().contains(where: \.isUppercase)
    }


    /// The id's source: the identifier (`name` when it is not the label), else the label, else
    /// the value, else the type. `label` is `label(i)`, made once by the caller; the identifier
    /// and the value are taken from the page (`IDHint.value`), no string made for them here.
    func idHint(_ i: Int, _ t: Int, label: String?, _ p: Page) -> IDHint {
        let f = p.facts[i]
        if f.name >= 0, !p.isEmpty(f.name), f.label < 0 || !p.same(f.name, f.label) { return .value(f.name) }
        if let label { return .text(label) }
        if f.value >= 0, !p.isEmpty(f.value) { return .value(f.value) }
        return .text(types[t].name)
    }

    /// The element's frame as written (`Page.frame`); none, with a warning, when its width or height is negative (no
    /// frame can have that: the element is taken as not on screen, as inverted bounds on
    /// Android are; Docs/import.md#bad-input).
    mutating func placed(_ frame: Frame?, _ i: Int, _ p: Page) -> Frame? {
        guard let frame else { return nil }
        guard frame.width >= 0, frame.height >= 0 else {
            let f = p.facts[i]
            warnings.append(ImportError(p.tree.location(i), "width \(p.tree.string(Int(f.width))) and height \(p.tree.string(Int(f.height))): "
                                        + "a negative size, so the element is taken as not on screen"))
            return nil
        }
        return frame
    }

    /// A number attribute as `Double(String)` reads it.
    static func number(_ n: SourceNode, _ name: String) -> Double? {
        (n.withValueBytes(name, number(bytes:))) ?? nil
    }

    /// The number `count` (1 to 8) ASCII digits at `p` write, `nil` when any of them is not a
    /// digit; reads the 8 bytes from `p` (the caller checks they are in the page). What
    /// `number(bytes:)` makes of the digits, as an integer: the digits' values in one word,
    /// each byte checked to be under 10, then joined two, four and eight at a time.
    @inline(__always)
    static func digits(_ p: UnsafePointer<UInt8>, count: Int) -> UInt64? {
        let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
        let mask: UInt64 = count == 8 ? ~0 : (1 << UInt64(8 * count)) &- 1
        let x = (word ^ 0x3030_3030_3030_3030) & mask           // '0'…'9' → 0…9
        // A byte of 10 or more gets its high bit set by adding 0x76; one with its high bit set already is not a digit either.
        guard ((x &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080 & mask == 0 else { return nil }
        return number(digits: x, count: count)
    }

    /// The number whose `count` (1 to 8) decimal digits are the values (0 to 9) of the lowest
    /// `count` bytes of `x`, the first digit in the lowest byte; the bytes above are not read.
    @inline(__always)
    static func number(digits x: UInt64, count: Int) -> UInt64 {
        // Shifted up so that the missing digits are leading zeros (and the bytes above gone).
        var v = x << UInt64(8 * (8 - count))
        v = (v &* 2561) >> 8                                         // 10 × a + b, in each pair of bytes
        v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16          // 100 × ab + cd
        v = ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32 // 10,000 × abcd + efgh
        return v & 0xFFFF_FFFF
    }

    /// A number as `Double(String)` reads it. Plain decimals (`-12`, `20.5`; at most 15 digits)
    /// are read from the bytes: an exact integer over an exact power of ten, so the same
    /// correctly rounded value; anything else goes to `Double(String)`.
    static func number(bytes b: UnsafeBufferPointer<UInt8>) -> Double? {
        let n = b.count
        guard n > 0, let p = b.baseAddress else { return nil }   // Double("")
        var i = 0
        let negative = p[0] == UInt8(ascii: "-")
        if negative { i += 1 }
        // At most 15 digits: the integer is exact, as the product of powers of ten it is.
        var mantissa: UInt64 = 0, digits = 0, fraction = 0, point = false
        while i < n {
            let c = p[i]
            let digit = c &- UInt8(ascii: "0")
            if digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
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
        let v = fraction == 0 ? Double(mantissa) : Double(mantissa) / powers[fraction]
        return negative ? -v : v
    }

    private static let powers: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    /// A stop: label, value, traits and state by the rules of its type.
    /// `label` is `label(i)`, made once by the caller.
    /// Written into `e`, a new element already in the screen's table (built in place there, as
    /// the catalog decoder builds its elements: no copy of the element).
    mutating func stop(_ e: inout Element, _ i: Int, type: TypeName, role: IOSRole, frame: Frame?, bar: inout Bar?, label: String?, _ p: Page) {
        let f = p.facts[i]
        e.accessible = true
        e.frame = frame
        var traits = role.traits
        var label = label
        // A static text's value that is its label's bytes is said once, as the label (below):
        // no string made for it.
        let repeatsLabel = type == .staticText && label != nil && f.value >= 0 && p.labelSpan(i).map { p.same(f.value, $0) } == true
        var value = repeatsLabel ? nil : p.value(i)
        if role.isSwitch {
            value = value.map(Self.switchValue)
        }
        if type == .staticText {
            // XCTest gives a static text its text as value too: said once, as the label.
            if label == nil { label = value }
            if value == label { value = nil }
        }
        if role.traits.contains(.textField) || role.traits.contains(.searchField) {
            // An empty field's value is its placeholder (WebDriverAgent): the placeholder labels
            // a field that has no label, as VoiceOver reads it.
            if f.placeholder >= 0, !p.isEmpty(f.placeholder) {
                let placeholder = p.string(f.placeholder)
                if value == nil || value == placeholder {
                    if label == nil { label = placeholder }
                    value = nil
                }
            }
        }
        if role.isProgress {
            let fraction = value.flatMap(Self.percent)
            e.progress = Progress(label: nil, value: type == .activityIndicator ? nil : fraction)
            value = nil
        }
        if f.isOff(.enabled) { traits.insert(.notEnabled) }
        if f.isOn(.selected) { traits.insert(.selected) }
        switch bar {
        case .tab?:
            // A tab bar's buttons say "1" for the selected tab (WebDriverAgent's value).
            if role.traits.contains(.button), value == "1" || value == "0" {
                if value == "1" { traits.insert(.selected) }
                value = nil
            }
        case .navigation(let title, let backTaken)?:
            if type == .button, !backTaken {
                traits.insert(.backButton)
                bar = .navigation(title: title, backTaken: true)
            }
            if type == .staticText, let title, label == title { traits.insert(.header) }
        case nil:
            break
        }
        e.traits = traits
        e.label = label.map(LabelText.plain)
        e.value = value
    }

    /// A switch's value as VoiceOver's state: `1` on, `0` off (also `true`/`false`, `on`/`off`).
    static func switchValue(_ v: String) -> String {
        // What `v.lowercased()` is among the six words, from the bytes: only ASCII letters
        // lower-case to them (a text with anything over ASCII is none of them).
        var word: UInt64 = 0
        var count = 0
        for b in v.utf8 {
            guard count < 5, b < 0x80 else { return v }
            let lower = b &- UInt8(ascii: "A") < 26 ? b | 0x20 : b
            word |= UInt64(lower) << UInt64(8 * count)
            count += 1
        }
        switch (count, word) {
        case (1, 0x31), (4, 0x6575_7274), (2, 0x6E6F): return "1"               // "1", "true", "on"
        case (1, 0x30), (5, 0x65_736C_6166), (3, 0x66_666F): return "0"         // "0", "false", "off"
        default: return v
        }
    }

    /// `"40%"` → 0.4.
    static func percent(_ v: String) -> Double? {
        let t = v.trimmingCharacters(in: .whitespaces)
        guard t.hasSuffix("%"), let n = Double(t.dropLast().trimmingCharacters(in: .whitespaces)) else { return nil }
        return min(max(n / 100, 0), 1)
    }

    /// The labels of the texts inside element `i` (which has no label of its own), in document order.
    func joinedLabel(_ i: Int, _ p: Page) -> String? {
        var parts: [String] = []
        func walk(_ n: Int) {
            if !p.facts[n].isOff(.visible), let l = p.label(n) ?? p.value(n) {
                parts.append(l)
                return
            }
            var c = p.firstChild(n)
            while c < p.stop(n) { walk(c); c = p.stop(c) }
        }
        var c = p.firstChild(i)
        while c < p.stop(i) { walk(c); c = p.stop(c) }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
