import Foundation
import TandemModel

/// What an Android view class is, as TalkBack and a VoiceOver user hear it: one row a class
/// (Docs/import.md#android).
struct AndroidRole {
    enum Kind {
        case plain, button, text, image, textField, checkable, radio, adjustable, progress, spinner, tab
        /// Kept as a container: a tab bar (its tabs say "N of M") or a scrolling list.
        case tabBar, list
    }

    var kind: Kind

    /// The table, keyed by the class's simple name (after the last `.`).
    static let table: [String: Kind] = {
        var t: [String: Kind] = [:]
        func add(_ kind: Kind, _ names: [String]) { for n in names { t[n] = kind } }
        add(.button, ["Button", "ImageButton", "AppCompatButton", "AppCompatImageButton", "MaterialButton",
                      "FloatingActionButton", "ExtendedFloatingActionButton", "Chip"])
        add(.text, ["TextView", "AppCompatTextView", "MaterialTextView", "TextClock", "Chronometer"])
        add(.image, ["ImageView", "AppCompatImageView", "ShapeableImageView"])
        add(.textField, ["EditText", "AppCompatEditText", "AutoCompleteTextView", "AppCompatAutoCompleteTextView",
                         "MultiAutoCompleteTextView", "TextInputEditText"])
        add(.checkable, ["CheckBox", "AppCompatCheckBox", "MaterialCheckBox", "Switch", "SwitchCompat", "SwitchMaterial",
                         "MaterialSwitch", "ToggleButton", "CheckedTextView", "AppCompatCheckedTextView", "CompoundButton"])
        add(.radio, ["RadioButton", "AppCompatRadioButton", "MaterialRadioButton"])
        add(.adjustable, ["SeekBar", "AppCompatSeekBar", "RatingBar", "AppCompatRatingBar", "Slider", "NumberPicker"])
        add(.progress, ["ProgressBar", "LinearProgressIndicator", "CircularProgressIndicator"])
        add(.spinner, ["Spinner", "AppCompatSpinner"])
        add(.tab, ["TabView", "TabLayout$TabView", "ActionBar$Tab"])
        add(.tabBar, ["TabWidget", "TabLayout", "BottomNavigationView", "NavigationBarView", "BottomNavigationMenuView"])
        add(.list, ["ListView", "RecyclerView", "GridView", "ScrollView", "HorizontalScrollView", "NestedScrollView",
                    "ViewPager", "ViewPager2", "WebView", "ExpandableListView"])
        add(.plain, ["View", "ViewGroup", "FrameLayout", "LinearLayout", "RelativeLayout", "ConstraintLayout",
                     "CoordinatorLayout", "AppBarLayout", "CollapsingToolbarLayout", "CardView", "MaterialCardView",
                     "DrawerLayout", "TableLayout", "TableRow", "GridLayout", "Toolbar", "ActionBarContainer",
                     "ActionMenuView", "ActionBarOverlayLayout", "ContentFrameLayout", "FitWindowsLinearLayout",
                     "FitWindowsFrameLayout", "TextInputLayout", "RadioGroup", "SwipeRefreshLayout", "ComposeView",
                     "AndroidComposeView", "DecorView", "BottomNavigationItemView", "NavigationBarItemView"])
        return t
    }()

    /// Traits a stop of this kind has.
    var traits: Traits {
        switch kind {
        case .button, .spinner, .radio, .tab: return .button
        case .text: return .staticText
        case .image: return .image
        case .textField: return .textField
        case .checkable: return [.button, .switchButton]
        case .adjustable: return .adjustable
        case .plain, .progress, .tabBar, .list: return []
        }
    }
}

/// A UiAutomator dump (`adb shell uiautomator dump`, `<hierarchy><node class=…>`) or Appium
/// UiAutomator2's page source (`<hierarchy><android.widget.FrameLayout class=…>`) to a screen:
/// the stops TalkBack would reach, said as VoiceOver says them (Docs/import.md#android).
struct AndroidRules {
    let file: String
    /// Pixels a point; from `--density`, else the screen's width taken as 360 points.
    var density: Double?
    var warnings: [ImportError] = []
    private var unknown: Set<String> = []

    init(file: String, density: Double?) { self.file = file; self.density = density }

    static let screenWidthPoints = 360.0

    mutating func screen(_ document: SourceNode) throws(ImportError) -> ImportedNode {
        guard document.tag == "hierarchy" else {
            let hint = document.tag.hasPrefix("XCUIElementType") || document.tag == "AppiumAUT"
                ? " (a WebDriverAgent page source: import it with `tandem import ios`)" : ""
            throw ImportError(at(document), "not a UiAutomator dump: its root is <\(document.tag)>, not <hierarchy>\(hint)")
        }
        // Bounds are checked first: a malformed one is an error wherever it is.
        var widest = 0.0
        try checkBounds(document, widest: &widest)
        if density == nil {
            let width = document["width"].flatMap(Double.init) ?? widest
            density = width > 0 ? width / Self.screenWidthPoints : 1
        }
        var root = ImportedNode(element: Element(id: ""), idHint: "app", source: at(document))
        root.element.accessible = false
        if let w = document["width"].flatMap(Double.init), let h = document["height"].flatMap(Double.init), let d = density {
            root.element.frame = Frame(x: 0, y: 0, width: Self.round(w / d), height: Self.round(h / d))
        }
        root.children = document.children.flatMap { node($0, taken: false) }
        return root
    }

    func at(_ n: SourceNode) -> SourceLocation { SourceLocation(file: file, line: n.line, column: n.column) }

    /// `android.widget.Button` → `Button`: the `class` attribute, else the tag (UiAutomator2
    /// names its tags after the class).
    static func className(_ n: SourceNode) -> String { n["class"] ?? n.tag }

    static func simpleName(_ n: SourceNode) -> String {
        // On the attribute's bytes: every node's class is looked up, often more than once.
        let fromClass = n.withValueBytes("class") { b -> String in
            var start = b.count
            while start > 0, b[start - 1] != UInt8(ascii: ".") { start -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: b[start...]), as: UTF8.self)
        }
        if let fromClass { return fromClass }
        let c = n.tag
        guard let dot = c.lastIndex(of: ".") else { return c }
        return String(c[c.index(after: dot)...])
    }

    mutating func role(_ n: SourceNode) -> AndroidRole {
        let name = Self.simpleName(n)
        if let kind = AndroidRole.table[name] { return AndroidRole(kind: kind) }
        if unknown.insert(Self.className(n)).inserted {
            warnings.append(ImportError(at(n), "unknown class \(Self.className(n)): imported as a plain element (Docs/import.md#unknown-types)"))
        }
        return AndroidRole(kind: .plain)
    }

    /// `[x1,y1][x2,y2]` in pixels (integers or decimals, maybe negative; spaces allowed). Read
    /// byte by byte: every node's bounds are read several times on a screen.
    static func pixels(_ s: String) -> (Double, Double, Double, Double)? {
        var s = s
        return s.withUTF8 { pixels(bytes: $0) }
    }

    static func pixels(bytes: UnsafeBufferPointer<UInt8>) -> (Double, Double, Double, Double)? {
        var numbers = (0.0, 0.0, 0.0, 0.0)
        var count = 0
        let separators: [UInt8] = Array("[,][,]".utf8)
        var next = 0
        // The number being read: its digits, sign and place after a point.
        var value = 0.0, negative = false, digits = 0, scale = 0.0
        for b in bytes where b != UInt8(ascii: " ") {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let d = Double(b - UInt8(ascii: "0"))
                if scale > 0 { value += d / scale; scale *= 10 } else { value = value * 10 + d }
                digits += 1
            case UInt8(ascii: "-"):
                guard digits == 0, !negative, scale == 0 else { return nil }
                negative = true
            case UInt8(ascii: "."):
                guard scale == 0 else { return nil }
                scale = 10
            default:
                guard next < separators.count, b == separators[next] else { return nil }
                if b == UInt8(ascii: "[") {
                    guard digits == 0, !negative, scale == 0 else { return nil }
                } else {
                    guard digits > 0 else { return nil }
                    let n = negative ? -value : value
                    switch count {
                    case 0: numbers.0 = n
                    case 1: numbers.1 = n
                    case 2: numbers.2 = n
                    default: numbers.3 = n
                    }
                    count += 1
                    (value, negative, digits, scale) = (0, false, 0, 0)
                }
                next += 1
            }
        }
        guard next == separators.count, count == 4, digits == 0, !negative, scale == 0 else { return nil }
        return numbers
    }

    /// Malformed bounds are an error; inverted ones (`[10,10][5,5]`) a warning (the element is
    /// taken as not on screen).
    mutating func checkBounds(_ n: SourceNode, widest: inout Double) throws(ImportError) {
        if let b = n["bounds"] {
            guard let (x1, y1, x2, y2) = Self.pixels(b) else {
                throw ImportError(at(n), "bounds \"\(b)\" is not [x1,y1][x2,y2]")
            }
            if x2 < x1 || y2 < y1 {
                warnings.append(ImportError(at(n), "bounds \"\(b)\" end before they start: the element is taken as not on screen"))
            }
            widest = max(widest, x2 - x1)
        }
        for c in n.children { try checkBounds(c, widest: &widest) }
    }

    static func round(_ v: Double) -> Double { (v * 100).rounded() / 100 }

    /// The frame in points; `nil` without bounds; empty or inverted bounds are zero size.
    func frame(_ n: SourceNode) -> Frame? {
        guard let read = n.withValueBytes("bounds", Self.pixels(bytes:)), let (x1, y1, x2, y2) = read else { return nil }
        let d = density ?? 1
        return Frame(x: Self.round(x1 / d), y: Self.round(y1 / d),
                     width: Self.round(max(x2 - x1, 0) / d), height: Self.round(max(y2 - y1, 0) / d))
    }

    /// On screen: not `displayed="false"` nor `visible-to-user="false"`, and not zero size.
    func shown(_ n: SourceNode) -> Bool {
        guard n.flag("displayed") != false, n.flag("visible-to-user") != false else { return false }
        return frame(n).map { $0.width > 0 && $0.height > 0 } ?? true
    }

    static func text(_ n: SourceNode, _ name: String) -> String? {
        guard let t = n[name] else { return nil }
        // ASCII (most texts, and every empty one): whitespace is tab to carriage return and space.
        if t.utf8.allSatisfy({ $0 < 0x80 }) {
            return t.utf8.contains(where: { $0 != 0x20 && ($0 < 0x09 || $0 > 0x0D) }) ? t : nil
        }
        return t.contains(where: { !$0.isWhitespace }) ? t : nil
    }

    /// Takes TalkBack's focus itself: clickable, long-clickable or focusable, and on screen;
    /// a scrolling container with content is not (its items are).
    func isActionable(_ n: SourceNode, _ role: AndroidRole) -> Bool {
        guard shown(n), n.flag("clickable") == true || n.flag("long-clickable") == true || n.flag("focusable") == true else {
            return false
        }
        if role.kind == .list || role.kind == .tabBar || (n.flag("scrollable") == true && !n.children.isEmpty) { return false }
        return true
    }

    /// What node `n` becomes. `taken`: an actionable ancestor speaks for the non-actionable
    /// nodes under it (TalkBack's merge), so they are not stops.
    mutating func node(_ n: SourceNode, taken: Bool) -> [ImportedNode] {
        let role = self.role(n)
        if isActionable(n, role) {
            var stop = self.stop(n, role: role)
            merge(n.children, into: &stop)
            // TalkBack passes over a focusable node with nothing to say when it has children on
            // screen (only a leaf is a stop without words): a two-target row's widget frame,
            // Flutter's focusable root view (Docs/import.md#android-silent).
            if stop.element.label == nil, stop.element.value == nil, stop.element.hint == nil, n.flag("checkable") != true,
               n.children.contains(where: shown) {
                return n.children.flatMap { node($0, taken: taken) }
            }
            return [stop] + n.children.flatMap { node($0, taken: true) }
        }
        let speaks = Self.text(n, "content-desc") != nil || Self.text(n, "text") != nil || n.flag("checkable") == true
        if !taken, shown(n), speaks, role.kind != .list, role.kind != .tabBar {
            return [stop(n, role: role)] + n.children.flatMap { node($0, taken: false) }
        }
        let kids = n.children.flatMap { node($0, taken: taken) }
        if role.kind == .tabBar || role.kind == .list, !kids.isEmpty {
            var e = Element(id: "")
            e.accessible = false
            e.frame = frame(n)
            if role.kind == .tabBar { e.traits = .tabBar }
            return [ImportedNode(element: e, idHint: idHint(n), source: at(n), children: kids)]
        }
        return kids
    }

    /// The resource id's name (`com.example:id/save` → `save`), else the text, else the class.
    func idHint(_ n: SourceNode) -> String {
        if let r = n["resource-id"], !r.isEmpty {
            return r.range(of: ":id/").map { String(r[$0.upperBound...]) } ?? r
        }
        return Self.text(n, "content-desc") ?? Self.text(n, "text") ?? Self.simpleName(n)
    }

    /// A stop with what it says of itself.
    func stop(_ n: SourceNode, role: AndroidRole) -> ImportedNode {
        var e = Element(id: "")
        e.accessible = true
        e.frame = frame(n)
        e.traits = role.traits
        let description = Self.text(n, "content-desc")
        let text = Self.text(n, "text")
        let hint = Self.text(n, "hint")
        if role.kind == .textField || n.flag("password") == true {
            e.traits.insert(.textField)
            if n.flag("password") == true { e.traits.insert(.secureTextField) }
            // An empty field's text is its hint in a dump: the hint labels it, as the placeholder.
            e.label = (description ?? hint).map(LabelText.plain)
            if let text, text != hint { e.value = text }
            if e.label == nil, e.value == nil, let text { e.label = .plain(text) }
        } else {
            e.label = (description ?? text).map(LabelText.plain)
            e.hint = hint
        }
        if role.kind == .progress {
            e.progress = Progress(label: nil, value: nil)
        }
        if role.kind == .adjustable {
            // A seek bar's text is its position.
            e.label = description.map(LabelText.plain)
            e.value = text
        }
        // TalkBack's role for a clickable ImageView is an image button: it says "button".
        if role.kind == .image, n.flag("clickable") == true { e.traits = .button }
        if n.flag("checkable") == true || role.kind == .checkable {
            if role.kind == .radio {
                if n.flag("checked") == true { e.traits.insert(.selected) }
            } else {
                e.traits.formUnion([.button, .switchButton])
                e.value = n.flag("checked") == true ? "1" : "0"
            }
        }
        if n.flag("selected") == true { e.traits.insert(.selected) }
        if n.flag("enabled") == false { e.traits.insert(.notEnabled) }
        // Something happens on a double tap, though the dump cannot say what.
        if n.flag("clickable") == true || n.flag("long-clickable") == true, e.traits.isDisjoint(with: [.button, .link, .adjustable, .textField]) {
            e.activate = []
        }
        return ImportedNode(element: e, idHint: idHint(n), source: at(n))
    }

    /// TalkBack's merge: a focusable or clickable stop says the texts of the nodes inside it
    /// that do not take focus themselves, in document order, as one label; a checkable one
    /// among them gives the stop its state (Docs/import.md#android-merge).
    func merge(_ nodes: [SourceNode], into stop: inout ImportedNode) {
        var texts: [String] = []
        var checked: (Bool, radio: Bool)?
        var roles = self
        func walk(_ n: SourceNode) {
            let role = roles.role(n)
            guard !roles.isActionable(n, role), roles.shown(n) else { return }
            if n.flag("checkable") == true || role.kind == .checkable { checked = (n.flag("checked") == true, role.kind == .radio) }
            if let d = Self.text(n, "content-desc") {
                texts.append(d)
                return
            }
            if let t = Self.text(n, "text") { texts.append(t) }
            n.children.forEach(walk)
        }
        nodes.forEach(walk)
        if stop.element.label == nil, !texts.isEmpty, !stop.element.traits.contains(.textField) {
            stop.element.label = .plain(texts.joined(separator: ", "))
        }
        if let (on, radio) = checked, stop.element.value == nil {
            if radio {
                if on { stop.element.traits.insert(.selected) }
            } else {
                stop.element.traits.formUnion([.button, .switchButton])
                stop.element.value = on ? "1" : "0"
            }
            stop.element.activate = stop.element.traits.contains(.button) ? nil : stop.element.activate
        }
    }
}
