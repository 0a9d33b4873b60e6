import CAtspi
import TandemModel

/// One AT-SPI accessible, held by a reference of its own. Every method must be called on the
/// `AtspiLoop`'s thread; any call may fail (the object went away, the app died): it then
/// returns nil, empty or false, as an object that is gone has nothing.
public final class Accessible: @unchecked Sendable, Hashable {  // only used on the AtspiLoop thread
    let pointer: UnsafeMutablePointer<AtspiAccessible>

    /// Takes over a reference the caller owns.
    init(owning pointer: UnsafeMutablePointer<AtspiAccessible>) { self.pointer = pointer }
    /// Adds a reference of its own.
    init(borrowing pointer: UnsafeMutablePointer<AtspiAccessible>) {
        self.pointer = tandem_ref(pointer).assumingMemoryBound(to: AtspiAccessible.self)
    }
    deinit { tandem_unref(pointer) }

    public static func == (a: Accessible, b: Accessible) -> Bool { a.pointer == b.pointer }
    public func hash(into h: inout Hasher) { h.combine(pointer) }

    /// The desktop: its children are the running applications.
    static func desktop() -> Accessible? {
        guard let d = atspi_get_desktop(0) else { return nil }
        return Accessible(owning: d)
    }

    private func string(_ call: (UnsafeMutablePointer<AtspiAccessible>, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> UnsafeMutablePointer<gchar>?) -> String? {
        var error: UnsafeMutablePointer<GError>?
        let s = call(pointer, &error)
        tandem_clear_error(&error)
        guard let s else { return nil }
        defer { g_free(s) }
        return String(cString: s)
    }

    public var name: String { string { atspi_accessible_get_name($0, $1) } ?? "" }
    public var descriptionText: String { string { atspi_accessible_get_description($0, $1) } ?? "" }
    public var roleName: String {
        var error: UnsafeMutablePointer<GError>?
        let role = atspi_accessible_get_role(pointer, &error)
        defer { tandem_clear_error(&error) }
        if error != nil { return "invalid" }
        guard let n = atspi_role_get_name(role) else { return "unknown" }
        defer { g_free(n) }
        return String(cString: n)
    }

    public var childCount: Int {
        var error: UnsafeMutablePointer<GError>?
        let n = atspi_accessible_get_child_count(pointer, &error)
        defer { tandem_clear_error(&error) }
        return error == nil ? max(0, Int(n)) : 0
    }

    /// Whether the object's application still answers a D-Bus call (its attributes, which
    /// libatspi's cache never holds under `ATSPI_CACHE_DEFAULT`, so the application is asked).
    public var answers: Bool {
        var error: UnsafeMutablePointer<GError>?
        let table = atspi_accessible_get_attributes(pointer, &error)
        defer { tandem_clear_error(&error) }
        if let table { g_hash_table_unref(table) }
        return error == nil
    }

    /// The toolkit behind the application (`gtk`, `Chromium`, `Gecko`, `Qt`).
    public var toolkitName: String { string { atspi_accessible_get_toolkit_name($0, $1) } ?? "" }

    /// Has libatspi keep this application's role, name, description, states, parent, children
    /// and interfaces (`ATSPI_CACHE_DEFAULT`): filled by the application's own cache at first
    /// contact (`org.a11y.atspi.Cache.GetItems`, one D-Bus call for the whole tree) and kept
    /// current by the events libatspi receives. Only on an application's root.
    func cacheFields() {
        atspi_accessible_set_cache_mask(pointer, ATSPI_CACHE_DEFAULT)
    }

    /// Whether libatspi's cache holds this object's children list (for an application's
    /// root: its cache has arrived). Reads libatspi's own struct, no D-Bus call.
    var childrenCached: Bool { pointer.pointee.cached_properties & ATSPI_CACHE_CHILDREN.rawValue != 0 }

    /// Drops what libatspi's cache holds for this object and everything under it, so the next
    /// read asks the application (an object an event said changed; Chromium changes some
    /// children lists without a children-changed event).
    func forgetCached() {
        atspi_accessible_clear_cache(pointer)
    }

    public func child(at i: Int) -> Accessible? {
        var error: UnsafeMutablePointer<GError>?
        let c = atspi_accessible_get_child_at_index(pointer, gint(i), &error)
        tandem_clear_error(&error)
        return c.map { Accessible(owning: $0) }
    }

    /// The children; `limit` bounds a list of 10,000 (the rest are left out, and said so by the caller).
    public func children(limit: Int = 10_000) -> [Accessible] {
        (0..<min(childCount, limit)).compactMap { child(at: $0) }
    }

    public var parent: Accessible? {
        var error: UnsafeMutablePointer<GError>?
        let p = atspi_accessible_get_parent(pointer, &error)
        tandem_clear_error(&error)
        return p.map { Accessible(owning: $0) }
    }

    public var processID: Int32 {
        var error: UnsafeMutablePointer<GError>?
        let pid = atspi_accessible_get_process_id(pointer, &error)
        defer { tandem_clear_error(&error) }
        return error == nil ? Int32(bitPattern: UInt32(pid)) : 0
    }

    public var application: Accessible? {
        var error: UnsafeMutablePointer<GError>?
        let a = atspi_accessible_get_application(pointer, &error)
        tandem_clear_error(&error)
        return a.map { Accessible(owning: $0) }
    }

    /// The states Tandem maps (Docs/atspi.md#states), by their AT-SPI names; empty when the
    /// object is gone (AT-SPI then says `defunct`).
    public var states: Set<String> {
        guard let set = atspi_accessible_get_state_set(pointer) else { return [] }
        defer { tandem_unref(set) }
        var out: Set<String> = []
        for (name, state) in Self.mappedStates where atspi_state_set_contains(set, state) != 0 { out.insert(name) }
        return out
    }

    /// The states as the application has them now: libatspi's cached states of this one
    /// object dropped first (`forgetCached` would drop what it holds for everything under it
    /// too: a whole page, for a window). For a state read while the loop is busy, when no event
    /// can have brought the change.
    public var freshStates: Set<String> {
        pointer.pointee.cached_properties &= ~ATSPI_CACHE_STATES.rawValue
        return states
    }

    /// The top-level window this object is in (the application's child it is under), or nil
    /// for an object under none (at most 64 levels up).
    public var topLevelWindow: Accessible? {
        var current = self
        for _ in 0..<64 {
            guard let parent = current.parent else { return nil }
            if parent.roleName == "application" { return current }
            current = parent
        }
        return nil
    }

    static let mappedStates: [(String, AtspiStateType)] = [
        ("focusable", ATSPI_STATE_FOCUSABLE), ("focused", ATSPI_STATE_FOCUSED), ("showing", ATSPI_STATE_SHOWING),
        ("visible", ATSPI_STATE_VISIBLE), ("checked", ATSPI_STATE_CHECKED), ("pressed", ATSPI_STATE_PRESSED),
        ("selected", ATSPI_STATE_SELECTED), ("expanded", ATSPI_STATE_EXPANDED), ("expandable", ATSPI_STATE_EXPANDABLE),
        ("collapsed", ATSPI_STATE_COLLAPSED), ("busy", ATSPI_STATE_BUSY), ("modal", ATSPI_STATE_MODAL),
        ("editable", ATSPI_STATE_EDITABLE), ("sensitive", ATSPI_STATE_SENSITIVE), ("enabled", ATSPI_STATE_ENABLED),
        ("indeterminate", ATSPI_STATE_INDETERMINATE), ("checkable", ATSPI_STATE_CHECKABLE), ("defunct", ATSPI_STATE_DEFUNCT),
        ("active", ATSPI_STATE_ACTIVE), ("read only", ATSPI_STATE_READ_ONLY),
    ]

    /// One object attribute (`container-live`, `tag`, `class`), or nil.
    public func attribute(_ key: String) -> String? {
        var error: UnsafeMutablePointer<GError>?
        let table = atspi_accessible_get_attributes(pointer, &error)
        tandem_clear_error(&error)
        guard let table else { return nil }
        defer { g_hash_table_unref(table) }
        return key.withCString { k in
            g_hash_table_lookup(table, k).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
        }
    }

    /// The extents in screen coordinates; nil without the Component interface or when AT-SPI
    /// does not know them (GTK answers -2^31 for a widget never shown).
    public var frame: Frame? {
        guard let component = atspi_accessible_get_component_iface(pointer) else { return nil }
        defer { tandem_unref(UnsafeMutableRawPointer(component)) }
        var error: UnsafeMutablePointer<GError>?
        let rect = atspi_component_get_extents(component, ATSPI_COORD_TYPE_SCREEN, &error)
        tandem_clear_error(&error)
        guard let rect else { return nil }
        defer { g_free(rect) }
        let r = rect.pointee
        if r.x == Int32.min || r.y == Int32.min || r.width < 0 || r.height < 0 { return nil }
        return Frame(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height))
    }

    /// The Value interface's numbers, or nil without it.
    public var value: (current: Double, min: Double, max: Double, step: Double)? {
        guard let v = atspi_accessible_get_value_iface(pointer) else { return nil }
        defer { tandem_unref(UnsafeMutableRawPointer(v)) }
        var error: UnsafeMutablePointer<GError>?
        let current = atspi_value_get_current_value(v, &error)
        let lo = atspi_value_get_minimum_value(v, &error)
        let hi = atspi_value_get_maximum_value(v, &error)
        let step = atspi_value_get_minimum_increment(v, &error)
        defer { tandem_clear_error(&error) }
        if error != nil { return nil }
        return (current, lo, hi, step)
    }

    /// Sets the Value interface's current value; false when it cannot.
    public func setValue(_ number: Double) -> Bool {
        guard let v = atspi_accessible_get_value_iface(pointer) else { return false }
        defer { tandem_unref(UnsafeMutableRawPointer(v)) }
        var error: UnsafeMutablePointer<GError>?
        let ok = atspi_value_set_current_value(v, number, &error)
        defer { tandem_clear_error(&error) }
        return ok != 0 && error == nil
    }

    /// The Text interface's whole text, or nil without it.
    public var text: String? {
        guard let t = atspi_accessible_get_text_iface(pointer) else { return nil }
        defer { tandem_unref(UnsafeMutableRawPointer(t)) }
        var error: UnsafeMutablePointer<GError>?
        let s = atspi_text_get_text(t, 0, -1, &error)
        tandem_clear_error(&error)
        guard let s else { return nil }
        defer { g_free(s) }
        return String(cString: s)
    }

    /// Replaces the EditableText interface's text; false without it.
    public func setText(_ text: String) -> Bool {
        guard let e = atspi_accessible_get_editable_text_iface(pointer) else { return false }
        defer { tandem_unref(UnsafeMutableRawPointer(e)) }
        var error: UnsafeMutablePointer<GError>?
        let ok = atspi_editable_text_set_text_contents(e, text, &error)
        defer { tandem_clear_error(&error) }
        return ok != 0 && error == nil
    }

    /// The Action interface's actions' names, in its order (the first is the default).
    public var actionNames: [String] {
        guard let a = atspi_accessible_get_action_iface(pointer) else { return [] }
        defer { tandem_unref(UnsafeMutableRawPointer(a)) }
        var error: UnsafeMutablePointer<GError>?
        let n = atspi_action_get_n_actions(a, &error)
        tandem_clear_error(&error)
        guard n > 0 else { return [] }
        return (0..<n).map { i in
            let s = atspi_action_get_action_name(a, i, &error)
            tandem_clear_error(&error)
            defer { g_free(s) }
            return s.map { String(cString: $0) } ?? ""
        }
    }

    /// The names of the actions after the first (the first is the default, `activate`): one
    /// D-Bus call fewer a node than `actionNames` (Chromium gives every node an action).
    public var otherActionNames: [String] {
        guard let a = atspi_accessible_get_action_iface(pointer) else { return [] }
        defer { tandem_unref(UnsafeMutableRawPointer(a)) }
        var error: UnsafeMutablePointer<GError>?
        let n = atspi_action_get_n_actions(a, &error)
        tandem_clear_error(&error)
        guard n > 1 else { return [] }
        return (1..<n).map { i in
            let s = atspi_action_get_action_name(a, i, &error)
            tandem_clear_error(&error)
            defer { g_free(s) }
            return s.map { String(cString: $0) } ?? ""
        }
    }

    /// Performs the action at `index`; false when it cannot.
    public func doAction(_ index: Int) -> Bool {
        guard let a = atspi_accessible_get_action_iface(pointer) else { return false }
        defer { tandem_unref(UnsafeMutableRawPointer(a)) }
        var error: UnsafeMutablePointer<GError>?
        let ok = atspi_action_do_action(a, gint(index), &error)
        defer { tandem_clear_error(&error) }
        return ok != 0 && error == nil
    }

    /// `Component.grabFocus`; false when it cannot.
    public func grabFocus() -> Bool {
        guard let component = atspi_accessible_get_component_iface(pointer) else { return false }
        defer { tandem_unref(UnsafeMutableRawPointer(component)) }
        var error: UnsafeMutablePointer<GError>?
        let ok = atspi_component_grab_focus(component, &error)
        defer { tandem_clear_error(&error) }
        return ok != 0 && error == nil
    }

    /// Whether it has the EditableText interface (GTK's entries; Chromium's web fields do not).
    public var hasEditableText: Bool {
        guard let e = atspi_accessible_get_editable_text_iface(pointer) else { return false }
        tandem_unref(UnsafeMutableRawPointer(e))
        return true
    }

    /// The Text interface's length in characters, or nil without it.
    public var characterCount: Int? {
        guard let t = atspi_accessible_get_text_iface(pointer) else { return nil }
        defer { tandem_unref(UnsafeMutableRawPointer(t)) }
        var error: UnsafeMutablePointer<GError>?
        let n = atspi_text_get_character_count(t, &error)
        defer { tandem_clear_error(&error) }
        return error == nil ? Int(n) : nil
    }

    /// Puts the Text interface's caret at `offset`; false when it cannot.
    public func setCaret(_ offset: Int) -> Bool {
        guard let t = atspi_accessible_get_text_iface(pointer) else { return false }
        defer { tandem_unref(UnsafeMutableRawPointer(t)) }
        var error: UnsafeMutablePointer<GError>?
        let ok = atspi_text_set_caret_offset(t, gint(offset), &error)
        defer { tandem_clear_error(&error) }
        return ok != 0 && error == nil
    }

    /// Selects the Text interface's characters `start..<end` (the first selection, or a new
    /// one); false when it cannot.
    public func select(_ start: Int, _ end: Int) -> Bool {
        guard let t = atspi_accessible_get_text_iface(pointer) else { return false }
        defer { tandem_unref(UnsafeMutableRawPointer(t)) }
        var error: UnsafeMutablePointer<GError>?
        let n = atspi_text_get_n_selections(t, &error)
        tandem_clear_error(&error)
        let ok = n > 0 ? atspi_text_set_selection(t, 0, gint(start), gint(end), &error) : atspi_text_add_selection(t, gint(start), gint(end), &error)
        defer { tandem_clear_error(&error) }
        return ok != 0 && error == nil
    }

    /// The Text interface's caret offset as the application has it now; nil without Text.
    public var caretOffset: Int? {
        guard let t = atspi_accessible_get_text_iface(pointer) else { return nil }
        defer { tandem_unref(UnsafeMutableRawPointer(t)) }
        var error: UnsafeMutablePointer<GError>?
        let offset = atspi_text_get_caret_offset(t, &error)
        defer { tandem_clear_error(&error) }
        return error == nil ? Int(offset) : nil
    }

    /// The Text interface's first selection (`start..<end`) as the application has it now;
    /// nil without Text or without a selection.
    public var firstSelection: Range<Int>? {
        guard let t = atspi_accessible_get_text_iface(pointer) else { return nil }
        defer { tandem_unref(UnsafeMutableRawPointer(t)) }
        var error: UnsafeMutablePointer<GError>?
        let n = atspi_text_get_n_selections(t, &error)
        tandem_clear_error(&error)
        guard n > 0, let range = atspi_text_get_selection(t, 0, &error) else {
            tandem_clear_error(&error)
            return nil
        }
        defer { g_free(range); tandem_clear_error(&error) }
        let start = Int(range.pointee.start_offset), end = Int(range.pointee.end_offset)
        return error == nil && start <= end ? start..<end : nil
    }

    /// The TableCell interface's place: 0-based row and column and their spans; nil without it.
    public var tableCellPlace: (row: Int, column: Int, rowSpan: Int, columnSpan: Int)? {
        guard let c = atspi_accessible_get_table_cell(pointer) else { return nil }
        defer { tandem_unref(UnsafeMutableRawPointer(c)) }
        var error: UnsafeMutablePointer<GError>?
        var row: gint = -1, column: gint = -1, rowSpan: gint = 1, columnSpan: gint = 1
        atspi_table_cell_get_row_column_span(c, &row, &column, &rowSpan, &columnSpan, &error)
        defer { tandem_clear_error(&error) }
        guard error == nil, row >= 0, column >= 0 else { return nil }
        return (Int(row), Int(column), max(1, Int(rowSpan)), max(1, Int(columnSpan)))
    }
}

/// Keys typed as if at the keyboard, through the AT-SPI registry's device event controller (on
/// X11: the XTEST extension), into whatever has keyboard focus.
enum SyntheticKeys {
    /// X keysyms (X11/keysymdef.h).
    static let backSpace = 0xff08

    /// Types `text` (ATSPI_KEY_STRING); false when the registry refused.
    static func type(_ text: String) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let ok = atspi_generate_keyboard_event(0, text, ATSPI_KEY_STRING, &error)
        defer { tandem_clear_error(&error) }
        return ok != 0 && error == nil
    }

    /// Presses and releases the key of `keysym` (ATSPI_KEY_SYM).
    static func press(_ keysym: Int) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let ok = atspi_generate_keyboard_event(glong(keysym), nil, ATSPI_KEY_SYM, &error)
        defer { tandem_clear_error(&error) }
        return ok != 0 && error == nil
    }
}
