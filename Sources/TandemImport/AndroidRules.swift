import Foundation
import CByteScan
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

/// The attributes of one UiAutomator node the rules read, found once: where each value is
/// (an index into the page's spans, -1 when the node has no such attribute) and the booleans
/// as bits (`present`: written; `on`: written `"true"` or `"1"`), so that no rule looks an
/// attribute up by name.
struct AndroidFacts: Equatable, PlacedFacts {
    var className: Int32 = -1
    var text: Int32 = -1
    var description: Int32 = -1
    var resourceID: Int32 = -1
    var hint: Int32 = -1
    var bounds: Int32 = -1
    var present: UInt16 = 0
    var on: UInt16 = 0

    enum Flag: UInt16 {
        case checkable, checked, clickable, longClickable, focusable, enabled, selected, password, scrollable, displayed, visibleToUser
        var bit: UInt16 { 1 << rawValue }
    }

    /// `flag == true` as `SourceNode.flag` reads it.
    @inline(__always) func isOn(_ f: Flag) -> Bool { on & f.bit != 0 }
    /// `flag == false`: written, and not `"true"` or `"1"`.
    @inline(__always) func isOff(_ f: Flag) -> Bool { present & f.bit != 0 && on & f.bit == 0 }

    /// The names the rules read, as keys (`PageTree.NameKey`), written out as numbers so that
    /// each compare is with constants (`NameKeyTests` checks each against its name).
    enum Names {
        /// `text`
        static var text: PageTree.NameKey { PageTree.NameKey(count: 4, first: 0x0000000074786574, last: 0x0000000000000000) }
        /// `hint`
        static var hint: PageTree.NameKey { PageTree.NameKey(count: 4, first: 0x00000000746E6968, last: 0x0000000000000000) }
        /// `class`
        static var className: PageTree.NameKey { PageTree.NameKey(count: 5, first: 0x0000007373616C63, last: 0x0000000000000000) }
        /// `bounds`
        static var bounds: PageTree.NameKey { PageTree.NameKey(count: 6, first: 0x000073646E756F62, last: 0x0000000000000000) }
        /// `checked`
        static var checked: PageTree.NameKey { PageTree.NameKey(count: 7, first: 0x0064656B63656863, last: 0x0000000000000000) }
        /// `enabled`
        static var enabled: PageTree.NameKey { PageTree.NameKey(count: 7, first: 0x0064656C62616E65, last: 0x0000000000000000) }
        /// `selected`
        static var selected: PageTree.NameKey { PageTree.NameKey(count: 8, first: 0x64657463656C6573, last: 0x0000000000000000) }
        /// `password`
        static var password: PageTree.NameKey { PageTree.NameKey(count: 8, first: 0x64726F7773736170, last: 0x0000000000000000) }
        /// `checkable`
        static var checkable: PageTree.NameKey { PageTree.NameKey(count: 9, first: 0x6C62616B63656863, last: 0x656C62616B636568) }
        /// `clickable`
        static var clickable: PageTree.NameKey { PageTree.NameKey(count: 9, first: 0x6C62616B63696C63, last: 0x656C62616B63696C) }
        /// `focusable`
        static var focusable: PageTree.NameKey { PageTree.NameKey(count: 9, first: 0x6C62617375636F66, last: 0x656C62617375636F) }
        /// `displayed`
        static var displayed: PageTree.NameKey { PageTree.NameKey(count: 9, first: 0x6579616C70736964, last: 0x646579616C707369) }
        /// `scrollable`
        static var scrollable: PageTree.NameKey { PageTree.NameKey(count: 10, first: 0x62616C6C6F726373, last: 0x656C62616C6C6F72) }
        /// `resource-id`
        static var resourceID: PageTree.NameKey { PageTree.NameKey(count: 11, first: 0x656372756F736572, last: 0x64692D656372756F) }
        /// `content-desc`
        static var description: PageTree.NameKey { PageTree.NameKey(count: 12, first: 0x2D746E65746E6F63, last: 0x637365642D746E65) }
        /// `long-clickable`
        static var longClickable: PageTree.NameKey { PageTree.NameKey(count: 14, first: 0x696C632D676E6F6C, last: 0x656C62616B63696C) }
        /// `visible-to-user`
        static var visibleToUser: PageTree.NameKey { PageTree.NameKey(count: 15, first: 0x2D656C6269736976, last: 0x726573752D6F742D) }
        /// Every key with its name, for the test.
        static var all: [(PageTree.NameKey, StaticString)] { [(text, "text"), (hint, "hint"), (className, "class"), (bounds, "bounds"), (checked, "checked"), (enabled, "enabled"), (selected, "selected"), (password, "password"), (checkable, "checkable"), (clickable, "clickable"), (focusable, "focusable"), (displayed, "displayed"), (scrollable, "scrollable"), (resourceID, "resource-id"), (description, "content-desc"), (longClickable, "long-clickable"), (visibleToUser, "visible-to-user")] }
    }

    /// Where each attribute the rules read is among a node's attributes (its place from the
    /// first, -1 when not written), for the nodes that follow with the same names in the same
    /// order (`PageTree.sameNames`: UiAutomator writes every node's attributes alike).
    struct Places {
        var className: Int32 = -1, text: Int32 = -1, description: Int32 = -1, resourceID: Int32 = -1, hint: Int32 = -1, bounds: Int32 = -1
        var present: UInt16 = 0
        /// Each flag's place (lane: the flag's raw value) where `present` has its bit: in the
        /// struct, not an array, so taking the places for a node copies no reference.
        var flagAt = SIMD16<UInt8>(repeating: 0)
        /// A flag's place did not fit in a byte (a tag of 256 attributes or more): the nodes
        /// that follow are read by name.
        var byName = false
        /// The flags' places as bits (`PageTree.copied`'s), and whether a flag is past the
        /// first 64 (where no bit says it was copied).
        var flagPlaces: UInt64 = 0
        var flagsPast64 = false
    }

    static var unplaced: Places { Places() }

    /// Element `i`, whose attribute names are those `places` was made from (the previous
    /// element of its tag's): the same places, only the flags' values read.
    @inline(__always)
    init(_ tree: PageTree, _ i: Int, _ d: UnsafeBufferPointer<UInt8>, places: Places) {
        if places.byName { self = AndroidFacts(tree, i, d); return }
        let first = tree.attributes[i].lowerBound
        @inline(__always) func at(_ k: Int32) -> Int32 { k < 0 ? -1 : first + k }
        className = at(places.className); text = at(places.text); description = at(places.description)
        resourceID = at(places.resourceID); hint = at(places.hint); bounds = at(places.bounds)
        present = places.present
        // Each flag written: its value at its place.
        var written = places.present
        var on: UInt16 = 0
        while written != 0 {
            let f = written.trailingZeroBitCount
            let span = Int(first) + Int(places.flagAt[f])
            if tree.isTrue(d, tree.spans[span], span) { on |= 1 << UInt16(f) }
            written &= written &- 1
        }
        self.on = on
    }

    /// Element `i`, whose attribute names are those `places` was made from and whose flags'
    /// values are `on` (another element's, where the reader found the same texts): the places only.
    @inline(__always)
    init(_ tree: PageTree, _ i: Int, places: Places, on: UInt16) {
        let first = tree.attributes[i].lowerBound
        @inline(__always) func at(_ k: Int32) -> Int32 { k < 0 ? -1 : first + k }
        className = at(places.className); text = at(places.text); description = at(places.description)
        resourceID = at(places.resourceID); hint = at(places.hint); bounds = at(places.bounds)
        present = places.present
        self.on = on & places.present
    }

    /// Element `i`'s facts (`PlacedFacts.at`); when every flag's text, name and value, is the
    /// one the element `PageTree.template` names had at its place (`PageTree.copied`), its
    /// flags are that element's (`facts`, the elements before `i`), not read again.
    @inline(__always)
    static func at(_ i: Int, _ tree: PageTree, _ d: UnsafeBufferPointer<UInt8>, _ places: UnsafeMutablePointer<Places>,
                   copiedFrom facts: UnsafeMutableBufferPointer<AndroidFacts>) -> AndroidFacts {
        let slot = tree.slot(i)
        guard tree.sameNames[i] else { return AndroidFacts(tree, i, d, places: &places[slot]) }
        let t = Int(tree.template[i])
        if t >= 0, !places[slot].byName, !places[slot].flagsPast64, places[slot].flagPlaces & ~tree.copied[i] == 0 {
            return AndroidFacts(tree, i, places: places[slot], on: facts[t].on)
        }
        return AndroidFacts(tree, i, d, places: places[slot])
    }

    /// Every attribute of element `i` of `tree`, each name compared once (by length, then its
    /// first and last eight bytes as words); where each was, in `places`.
    init(_ tree: PageTree, _ i: Int, _ d: UnsafeBufferPointer<UInt8>, places: inout Places) {
        self.init(tree, i, d)
        let first = tree.attributes[i].lowerBound
        @inline(__always) func place(_ k: Int32) -> Int32 { k < 0 ? -1 : k - first }
        places = Places(className: place(className), text: place(text), description: place(description), resourceID: place(resourceID),
                        hint: place(hint), bounds: place(bounds), present: present)
        guard present != 0 else { return }
        for (k, s) in tree.attributes[i].enumerated() {
            guard let flag = Self.flag(PageTree.NameKey(d, tree.spans[Int(s)])) else { continue }
            guard k < 256 else { places.byName = true; return }
            places.flagAt[Int(flag.rawValue)] = UInt8(k)
            if k < 64 { places.flagPlaces |= 1 << UInt64(k) } else { places.flagsPast64 = true }
        }
    }

    /// The flag an attribute name is, if it is one.
    static func flag(_ key: PageTree.NameKey) -> Flag? {
        switch key.count {
        case 7: return key == Names.checked ? .checked : key == Names.enabled ? .enabled : nil
        case 8: return key == Names.selected ? .selected : key == Names.password ? .password : nil
        case 9:
            return key == Names.checkable ? .checkable : key == Names.clickable ? .clickable
                : key == Names.focusable ? .focusable : key == Names.displayed ? .displayed : nil
        case 10: return key == Names.scrollable ? .scrollable : nil
        case 14: return key == Names.longClickable ? .longClickable : nil
        case 15: return key == Names.visibleToUser ? .visibleToUser : nil
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
            case 4:
                if key == Names.text { text = k } else if key == Names.hint { hint = k }
            case 5:
                if key == Names.className { className = k }
            case 6:
                if key == Names.bounds { bounds = k }
            case 7:
                if key == Names.checked { flag = .checked } else if key == Names.enabled { flag = .enabled }
            case 8:
                if key == Names.selected { flag = .selected } else if key == Names.password { flag = .password }
            case 9:
                if key == Names.checkable { flag = .checkable } else if key == Names.clickable { flag = .clickable }
                else if key == Names.focusable { flag = .focusable } else if key == Names.displayed { flag = .displayed }
            case 10:
                if key == Names.scrollable { flag = .scrollable }
            case 11:
                if key == Names.resourceID { resourceID = k }
            case 12:
                if key == Names.description { description = k }
            case 14:
                if key == Names.longClickable { flag = .longClickable }
            case 15:
                if key == Names.visibleToUser { flag = .visibleToUser }
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

/// A UiAutomator dump (`adb shell uiautomator dump`, `<hierarchy><node class=…>`) or Appium
/// UiAutomator2's page source (`<hierarchy><android.widget.FrameLayout class=…>`) to a screen:
/// the stops TalkBack would reach, said as VoiceOver says them (Docs/import.md#android).
///
/// Each node's attributes are read once (`AndroidFacts`), and what the rules ask of a node
/// more than once — its role, frame, whether it is on screen, whether it takes focus, whether
/// it speaks — is worked out once a node, in document order, before the walk.
struct AndroidRules {
    let file: String
    /// Pixels a point; from `--density`, else the screen's width taken as 360 points.
    var density: Double?
    var warnings: [ImportError] = []

    init(file: String, density: Double?) { self.file = file; self.density = density }

    static let screenWidthPoints = 360.0

    /// What the walk reads of a node besides its facts, worked out once a node before the walk.
    struct NodeInfo {
        var kind: AndroidRole.Kind = .plain
        /// On screen: displayed, visible to the user, not of zero size.
        var shown = false
        /// Takes TalkBack's focus: clickable, long-clickable or focusable, shown, and no scrolling container.
        var actionable = false
        /// `text` / `content-desc` with something that is not white space (`PageTree.hasText`).
        var speaksText = false
        var speaksDescription = false
        /// A node inside it is actionable: under a stop, only such a node is something of its
        /// own (the rest is merged into the stop), so the walk goes inside only then.
        var actionableInside = false
    }

    /// The screen's elements, root first, in `out`.
    mutating func screen(_ tree: PageTree, into out: inout ScreenBuilder) throws(ImportError) {
        guard tree.tag(0) == "hierarchy" else {
            let tag = tree.tag(0)
            let hint = tag.hasPrefix("XCUIElementType") || tag == "AppiumAUT"
                ? " (a WebDriverAgent page source: import it with `tandem import ios`)" : ""
            throw ImportError(tree.location(0), "not a UiAutomator dump: its root is <\(tag)>, not <hierarchy>\(hint)")
        }
        let n = tree.count
        let screenWidth = tree.span(0, named: "width").flatMap { Double(tree.string($0)) }
        let screenHeight = tree.span(0, named: "height").flatMap { Double(tree.string($0)) }
        // Pixels a point, known before the bounds are read when given or when the root says the
        // screen's width; else taken from the widest bounds once all are read.
        let known = density ?? screenWidth.map { $0 > 0 ? $0 / Self.screenWidthPoints : 1 }
        // What the walk reads of each node, in memory kept for the walk (written through
        // pointers: a subscript's write to an array checked its uniqueness, a call a node).
        let facts = UnsafeMutableBufferPointer<AndroidFacts>.allocate(capacity: n)
        let pixels = UnsafeMutableBufferPointer<(Double, Double, Double, Double)?>.allocate(capacity: n)
        let nodes = UnsafeMutableBufferPointer<NodeInfo>.allocate(capacity: n)
        defer { facts.deallocate(); pixels.deallocate(); nodes.deallocate() }
        var roles = RoleCache(tags: tree.tagNames.count)
        var points = Points(density: known ?? 1)
        defer { points.free() }
        // The unknown classes are named after every bounds warning, as when the bounds were read
        // in a pass of their own.
        var classWarnings: [ImportError] = []
        var widest = 0.0
        var places = [AndroidFacts.Places](repeating: AndroidFacts.unplaced, count: SpanTable.slots)
        // One pass: each node's facts, its bounds (a malformed one is an error wherever it is,
        // so none is left unread) and, when the density is known, what the walk reads of it,
        // while its lines are in the cache (Docs/benchmarks.md#import-stop-35).
        try tree.bytes.withUnsafeBufferPointer { (d) throws(ImportError) in
          try places.withUnsafeMutableBufferPointer { (places) throws(ImportError) in
            for i in 0..<n {
                // The bytes of the last attribute eight nodes on asked for (UiAutomator writes
                // bounds last): the page is out of the cache once the reader has passed it.
                if i + 8 < n {
                    let a = tree.attributes[i + 8]
                    if a.lowerBound < a.upperBound { cbytescan_prefetch(d.baseAddress! + Int(tree.spans[Int(a.upperBound) - 1].valueFrom)) }
                    // And its text's, where the last node of its tag had one (`hasText` reads it).
                    let text = places[tree.slot(i + 8)].text
                    if text >= 0, a.lowerBound + text < a.upperBound { cbytescan_prefetch(d.baseAddress! + Int(tree.spans[Int(a.lowerBound + text)].valueFrom)) }
                    // And the first flag the reader did not copy (a switch's `checked`), read by its value.
                    let read = places[tree.slot(i + 8)].flagPlaces & ~tree.copied[i + 8]
                    if read != 0, Int(a.lowerBound) + read.trailingZeroBitCount < Int(a.upperBound) {
                        cbytescan_prefetch(d.baseAddress! + Int(tree.spans[Int(a.lowerBound) + read.trailingZeroBitCount].valueFrom))
                    }
                }
                let f = AndroidFacts.at(i, tree, d, places.baseAddress!, copiedFrom: facts)
                facts.initializeElement(at: i, to: f)
                var p: (Double, Double, Double, Double)?
                if f.bounds >= 0 {
                    let span = Int(f.bounds)
                    guard let (x1, y1, x2, y2) = Self.pixels(tree, span, d) else {
                        throw ImportError(tree.location(i), "bounds \"\(tree.string(span))\" is not [x1,y1][x2,y2]")
                    }
                    if x2 < x1 || y2 < y1 {
                        warnings.append(ImportError(tree.location(i), "bounds \"\(tree.string(span))\" end before they start: the element is taken as not on screen"))
                    }
                    widest = max(widest, x2 - x1)
                    p = (x1, y1, x2, y2)
                }
                pixels.initializeElement(at: i, to: p)
                if known != nil {
                    nodes.initializeElement(at: i, to: Self.info(i, f, p, points: points, tree, d, &roles, &classWarnings, before: nodes))
                }
            }
          }
        }
        if known == nil {
            let width = screenWidth ?? widest
            density = width > 0 ? width / Self.screenWidthPoints : 1
            let d = density ?? 1
            points.free()
            points = Points(density: d)
            tree.bytes.withUnsafeBufferPointer { bytes in
                for i in 0..<n {
                    tree.prefetchValueAhead(i, of: n, bytes) { facts[$0].className }
                    tree.prefetchValueAhead(i, of: n, bytes) { facts[$0].text }
                    nodes.initializeElement(at: i, to: Self.info(i, facts[i], pixels[i], points: points, tree, bytes, &roles, &classWarnings, before: nodes))
                }
            }
        } else {
            density = known
        }
        warnings += classWarnings
        // From the last node back, each node's actionable nodes told to its parent (children
        // come after their parent in the table).
        for i in stride(from: n - 1, through: 1, by: -1) where nodes[i].actionable || nodes[i].actionableInside {
            nodes[Int(tree.parents[i])].actionableInside = true
        }
        var root = Element(id: "")
        root.accessible = false
        if let w = screenWidth, let h = screenHeight, let d = density {
            root.frame = Frame(x: 0, y: 0, width: Self.round(w / d), height: Self.round(h / d))
        }
        out.page = tree
        let me = out.add(root, id: .text("app"), source: tree.location(0), parent: nil)
        let lastResourceID = UnsafeMutablePointer<ResourceIDName>.allocate(capacity: 1)
        lastResourceID.initialize(to: ResourceIDName())
        defer { lastResourceID.deallocate() }
        tree.bytes.withUnsafeBufferPointer { d in
            let p = Page(tree: tree, d: d, spans: tree.spans, end: tree.end, facts: UnsafeBufferPointer(facts), nodes: UnsafeBufferPointer(nodes),
                         pixels: UnsafeBufferPointer(pixels), points: points, lastResourceID: lastResourceID)
            var c = 1
            while c < p.stop(0) { Self.node(c, taken: false, parent: me, into: &out, p); c = p.stop(c) }
        }
    }

    /// What the walk reads of node `i` besides its facts (its size in points, `density` pixels
    /// a point, for whether it is on screen): its role, whether it is on screen, takes focus,
    /// speaks. Its frame is worked out by the walk, for the nodes that become elements only
    /// (`Page.frame`): most nodes of a list are merged into their row's stop.
    @inline(__always)
    static func info(_ i: Int, _ f: AndroidFacts, _ pixels: (Double, Double, Double, Double)?, points: Points, _ tree: PageTree,
                     _ bytes: UnsafeBufferPointer<UInt8>, _ roles: inout RoleCache, _ warnings: inout [ImportError],
                     before nodes: UnsafeMutableBufferPointer<NodeInfo>) -> NodeInfo {
        var info = NodeInfo()
        if i > 0 {
            // The class's text where the reader found it in an element before (`PageTree.copied`):
            // that element's role (the root's is not its class's, so not from the root).
            let t = Int(tree.template[i])
            let place = Int(f.className) &- Int(tree.attributes[i].lowerBound)
            if t > 0, f.className >= 0, place < 64, tree.copied[i] >> UInt64(place) & 1 != 0 {
                info.kind = nodes[t].kind
            } else {
                info.kind = roles.kind(i, tree, bytes, f, warnings: &warnings)
            }
        }
        // On screen: the width and height its frame will have (`Page.frame`) above zero.
        var sized = true
        if let (x1, y1, x2, y2) = pixels {
            sized = points.of(max(x2 - x1, 0)) > 0 && points.of(max(y2 - y1, 0)) > 0
        }
        info.shown = !f.isOff(.displayed) && !f.isOff(.visibleToUser) && sized
        if info.shown, f.isOn(.clickable) || f.isOn(.longClickable) || f.isOn(.focusable) {
            let kind = info.kind
            info.actionable = !(kind == .list || kind == .tabBar || (f.isOn(.scrollable) && tree.hasChildren(i)))
        }
        info.speaksText = f.text >= 0 && tree.hasText(f.text, bytes)
        info.speaksDescription = f.description >= 0 && tree.hasText(f.description, bytes)
        return info
    }

    /// A node's frame in points (`density` pixels a point) from its bounds in pixels.
    @inline(__always)
    static func frame(_ pixels: (Double, Double, Double, Double)?, _ points: Points) -> Frame? {
        guard let (x1, y1, x2, y2) = pixels else { return nil }
        return Frame(x: points.of(x1), y: points.of(y1), width: points.of(max(x2 - x1, 0)), height: points.of(max(y2 - y1, 0)))
    }

    /// Pixels to points (`round(pixels / density)`), each value worked out once: a screen's
    /// nodes repeat their left and right edges, widths and heights (a list's rows), so most
    /// are found again by their bits in a small table (256 places, by the value's bits; a value
    /// found in its place is the same value, so the same points).
    struct Points {
        let density: Double
        private let keys: UnsafeMutablePointer<UInt64>
        private let values: UnsafeMutablePointer<Double>
        /// No value has these bits: a signalling NaN, which arithmetic never gives.
        private static let empty: UInt64 = 0x7FF4_DEAD_BEEF_0001

        init(density: Double) {
            self.density = density
            keys = .allocate(capacity: 256)
            keys.initialize(repeating: Self.empty, count: 256)
            values = .allocate(capacity: 256)
            values.initialize(repeating: 0, count: 256)
        }

        func free() { keys.deallocate(); values.deallocate() }

        /// `AndroidRules.round(pixels / density)`.
        @inline(__always)
        func of(_ pixels: Double) -> Double {
            let bits = pixels.bitPattern
            // Whole numbers differ in the high bits only: a multiply brings them to the top byte.
            let place = Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 56)
            if keys[place] == bits { return values[place] }
            let v = AndroidRules.round(pixels / density)
            keys[place] = bits
            values[place] = v
            return v
        }
    }

    /// Each class's role, looked up in `AndroidRole.table` once a class a screen; an unknown
    /// class is named once, at its first node (Docs/import.md#unknown-types).
    struct RoleCache {
        /// The class value's hash → its first span (to compare with) and what it is.
        var known: [UInt64: (span: Int32, kind: AndroidRole.Kind)] = [:]
        var unknown: Set<String> = []
        /// The first classes met, found again by their bytes before any hash.
        var recent = RecentValues<AndroidRole.Kind>()
        /// The class last met on each tag (by `PageTree.tagOf`) and what it is: UiAutomator2
        /// names a tag after its class, so it is found again with one compare.
        var lastOfTag: [(span: Int32, kind: AndroidRole.Kind)]

        /// A cache for a page of `tags` tag names.
        init(tags: Int) { lastOfTag = Array(repeating: (-1, .plain), count: tags) }

        mutating func kind(_ i: Int, _ tree: PageTree, _ d: UnsafeBufferPointer<UInt8>, _ f: AndroidFacts, warnings: inout [ImportError]) -> AndroidRole.Kind {
            if f.className >= 0 {
                let tag = Int(tree.tagOf[i])
                let last = lastOfTag[tag]
                if last.span >= 0, tree.sameBytes(last.span, f.className, d) { return last.kind }
                let kind = kindOfClass(i, tree, d, f, warnings: &warnings)
                lastOfTag[tag] = (f.className, kind)
                return kind
            }
            return kindOfClass(i, tree, d, f, warnings: &warnings)
        }

        /// `kind` without the tag's last class.
        private mutating func kindOfClass(_ i: Int, _ tree: PageTree, _ d: UnsafeBufferPointer<UInt8>, _ f: AndroidFacts, warnings: inout [ImportError]) -> AndroidRole.Kind {
            var key: UInt64 = 0
            if f.className >= 0 {
                if let kind = recent.find(tree, d, Int(f.className)) { return kind }
                key = tree.hash(Int(f.className))
                if let hit = known[key], tree.same(Int(hit.span), Int(f.className)) { return hit.kind }
            }
            let name = AndroidRules.simpleName(tree, i, f)
            let kind: AndroidRole.Kind
            if let k = AndroidRole.table[name] {
                kind = k
            } else {
                kind = .plain
                let className = f.className >= 0 ? tree.string(Int(f.className)) : tree.tag(i)
                if unknown.insert(className).inserted {
                    warnings.append(ImportError(tree.location(i), "unknown class \(className): imported as a plain element (Docs/import.md#unknown-types)"))
                }
            }
            if f.className >= 0 {
                recent.add(tree, Int(f.className), kind)
                if known[key] == nil { known[key] = (f.className, kind) }
            }
            return kind
        }
    }

    /// `android.widget.Button` → `Button`: after the last `.` of the `class` attribute, else of
    /// the tag (UiAutomator2 names its tags after the class).
    static func simpleName(_ tree: PageTree, _ i: Int, _ f: AndroidFacts) -> String {
        if f.className >= 0 {
            return tree.withValue(Int(f.className)) { b -> String in
                var start = b.count
                while start > 0, b[start - 1] != UInt8(ascii: ".") { start -= 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: b[start...]), as: UTF8.self)
            }
        }
        let c = tree.tag(i)
        guard let dot = c.lastIndex(of: ".") else { return c }
        return String(c[c.index(after: dot)...])
    }

    /// `[x1,y1][x2,y2]` in pixels (integers or decimals, maybe negative; spaces allowed).
    static func pixels(_ s: String) -> (Double, Double, Double, Double)? {
        var s = s
        return s.withUTF8 { pixels(bytes: $0) }
    }

    static func pixels(bytes: UnsafeBufferPointer<UInt8>) -> (Double, Double, Double, Double)? {
        if let whole = wholePixels(bytes) { return whole }
        return anyPixels(bytes)
    }

    /// The bounds at `span` of `tree` (`pixels(bytes:)`), read where they are in the page's
    /// bytes `d` when written plainly, so that a number's digits are read as one word.
    static func pixels(_ tree: PageTree, _ span: Int, _ d: UnsafeBufferPointer<UInt8>) -> (Double, Double, Double, Double)? {
        let s = tree.spans[span]
        if s.raw { return tree.withValue(span, pixels(bytes:)) }
        let from = Int(s.valueFrom)
        let b = UnsafeBufferPointer(start: d.baseAddress! + from, count: Int(s.valueTo) - from)
        if let whole = wholePixels(b, readable: d.count - from) { return whole }
        return anyPixels(b)
    }

    /// `[x1,y1][x2,y2]` written as UiAutomator writes it: whole numbers (at most 15 digits, maybe
    /// negative), no spaces; `nil` for anything else, which `anyPixels` reads. The same values
    /// `anyPixels` gives (a whole number of 15 digits is exact as a Double either way).
    /// `readable`: how many bytes from `b`'s start may be read (the rest of the page): where
    /// eight are, a number of one to seven digits is read as one word (`IOSRules.number(digits:count:)`).
    @inline(__always)
    static func wholePixels(_ b: UnsafeBufferPointer<UInt8>, readable: Int = 0) -> (Double, Double, Double, Double)? {
        let n = b.count
        guard n >= 10, let p = b.baseAddress, p[0] == UInt8(ascii: "["), p[n - 1] == UInt8(ascii: "]") else { return nil }
        // UiAutomator's own form, each number one word: what the steps below read, read at once.
        if n + 7 <= readable, let all = wordPixels(p, n) { return all }
        var k = 1
        // A number's digits end at a byte that is not one: at the latest the last, "]", so the
        // digits are read without a look at the end.
        @inline(__always) func number(_ k: inout Int) -> Double? {
            guard k < n else { return nil }
            let negative = p[k] == UInt8(ascii: "-")
            if negative { k += 1 }
            if k + 8 <= readable {
                // '0'…'9' → 0…9; the first byte that is not a digit gets its high bit set (a
                // byte of 10 or more by adding 0x76, one over 0x7F by itself; no carry reaches
                // it from the digits before it).
                let x = UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self).littleEndian ^ 0x3030_3030_3030_3030
                let stops = ((x &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
                if stops != 0 {
                    let count = stops.trailingZeroBitCount >> 3
                    guard count > 0 else { return nil }
                    k += count
                    let v = Double(IOSRules.number(digits: x, count: count))
                    return negative ? -v : v
                }
            }
            let from = k
            var v = 0
            while true {
                let digit = p[k] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                v = v &* 10 &+ Int(digit)
                k += 1
            }
            guard k > from, k - from <= 15 else { return nil }
            return negative ? -Double(v) : Double(v)
        }
        @inline(__always) func expect(_ c: UInt8, _ k: inout Int) -> Bool {
            guard k < n, p[k] == c else { return false }
            k += 1
            return true
        }
        guard let x1 = number(&k), expect(UInt8(ascii: ","), &k), let y1 = number(&k), expect(UInt8(ascii: "]"), &k), expect(UInt8(ascii: "["), &k),
              let x2 = number(&k), expect(UInt8(ascii: ","), &k), let y2 = number(&k), expect(UInt8(ascii: "]"), &k), k == n else { return nil }
        return (x1, y1, x2, y2)
    }

    /// `[x1,y1][x2,y2]` at `p` (`n` bytes, `[` first and `]` last, and 7 more readable after
    /// them) when each number is one to seven digits with no sign: each read as one word, its
    /// first byte that is not a digit the separator written after it. `nil` for anything else
    /// (`wholePixels` reads on).
    @inline(__always)
    static func wordPixels(_ p: UnsafePointer<UInt8>, _ n: Int) -> (Double, Double, Double, Double)? {
        var k = 1
        @inline(__always) func number(then separator: UInt8) -> Double? {
            guard k < n else { return nil }
            // '0'…'9' → 0…9; the first other byte has its high bit set (`wholePixels`).
            let x = UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self).littleEndian ^ 0x3030_3030_3030_3030
            let stops = ((x &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
            let count = stops.trailingZeroBitCount >> 3   // 8: no stop in the word
            guard count > 0, count < 8, UInt8(truncatingIfNeeded: x >> UInt64(count * 8)) == separator ^ 0x30 else { return nil }
            k += count + 1
            return Double(IOSRules.number(digits: x, count: count))
        }
        guard let x1 = number(then: UInt8(ascii: ",")), let y1 = number(then: UInt8(ascii: "]")), k < n, p[k] == UInt8(ascii: "[") else { return nil }
        k += 1
        guard let x2 = number(then: UInt8(ascii: ",")), let y2 = number(then: UInt8(ascii: "]")), k == n else { return nil }
        return (x1, y1, x2, y2)
    }

    /// `[x1,y1][x2,y2]` in any form `pixels` reads.
    static func anyPixels(_ bytes: UnsafeBufferPointer<UInt8>) -> (Double, Double, Double, Double)? {
        var numbers = (0.0, 0.0, 0.0, 0.0)
        var count = 0
        let separators: StaticString = "[,][,]"
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
                guard next < separators.utf8CodeUnitCount, b == separators.utf8Start[next] else { return nil }
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
        guard next == separators.utf8CodeUnitCount, count == 4, digits == 0, !negative, scale == 0 else { return nil }
        return numbers
    }

    /// `v` to two places, halves away from zero: `(v * 100).rounded() / 100`, with the rounding
    /// done here for the sizes a screen has (a whole part under 2⁵², where the fraction left
    /// after truncating is exact), not by a call into the C library four times a node.
    @inline(__always)
    static func round(_ v: Double) -> Double {
        let x = v * 100
        let a = abs(x)
        guard a < 4_503_599_627_370_496 else { return x.rounded() / 100 }   // 2⁵², and NaN
        let whole = Double(Int64(a))
        let r = a - whole >= 0.5 ? whole + 1 : whole
        return (x.sign == .minus ? -r : r) / 100
    }
}
