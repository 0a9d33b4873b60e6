import TandemModel

/// What the bridge makes of an AT-SPI role (Docs/atspi.md#roles).
public enum RoleHandling: Sendable, Hashable {
    /// A stop of its own with these traits; what is under it is folded into its label (when it
    /// has no name) and is not a stop.
    case stop(Traits)
    /// Text: a stop (`staticText` plus these traits) in a container; folded into the label of
    /// a stop it is inside.
    case text(Traits)
    /// Kept as a container of this type: it keeps its children together and says where they
    /// start and end.
    case container(ContainerType)
    /// Layout only: left out, its children take its place.
    case layout
    /// A window: one part of the screen (a dialog, modal while AT-SPI says so).
    case window
    /// A document (a web page): the screen, named after its title.
    case document
    /// Left out with everything under it.
    case ignored

    /// The table cell of Docs/atspi.md for this handling (`stop: button header`, `layout`, …).
    public var words: String {
        switch self {
        case .stop(let t): t.isEmpty ? "stop" : "stop: " + t.names.joined(separator: " ")
        case .text(let t): t.isEmpty ? "text" : "text: " + t.names.joined(separator: " ")
        case .container(let c): "container: " + c.rawValue
        case .layout: "layout"
        case .window: "window"
        case .document: "document"
        case .ignored: "ignored"
        }
    }
}

/// Every AT-SPI role (libatspi's `AtspiRole`, by `atspi_role_get_name`), each with what Tandem
/// does with it. Orca handles all of them; this table says how each becomes VoiceOver's model.
/// Docs/atspi.md#roles holds the same table (a test compares the two).
public enum RoleTable {
    public static let rows: [(role: String, handling: RoleHandling)] = [
        ("invalid", .ignored),
        ("accelerator label", .text([])),
        ("alert", .container(.semanticGroup)),
        ("animation", .stop(.image)),
        ("arrow", .stop(.image)),
        ("calendar", .container(.dataTable)),
        ("canvas", .stop(.image)),
        ("check box", .stop([.button, .switchButton])),
        ("check menu item", .stop([.button, .switchButton])),
        ("color chooser", .container(.semanticGroup)),
        ("column header", .stop(.header)),
        ("combo box", .stop(.button)),
        ("date editor", .stop(.textField)),
        ("desktop icon", .stop([.button, .image])),
        ("desktop frame", .layout),
        ("dial", .stop(.adjustable)),
        ("dialog", .window),
        ("directory pane", .container(.semanticGroup)),
        ("drawing area", .stop(.image)),
        ("file chooser", .window),
        ("filler", .layout),
        ("focus traversable", .layout),
        ("font chooser", .window),
        ("frame", .window),
        ("glass pane", .layout),
        ("html container", .layout),
        ("icon", .stop(.image)),
        ("image", .stop(.image)),
        ("internal frame", .container(.semanticGroup)),
        ("label", .text([])),
        ("layered pane", .layout),
        ("list", .container(.list)),
        ("list item", .stop([])),
        ("menu", .stop(.button)),
        ("menu bar", .container(.semanticGroup)),
        ("menu item", .stop(.button)),
        ("option pane", .container(.semanticGroup)),
        ("page tab", .stop(.button)),
        ("page tab list", .container(.semanticGroup)),
        ("panel", .layout),
        ("password text", .stop([.textField, .secureTextField])),
        ("popup menu", .container(.semanticGroup)),
        ("progress bar", .stop(.updatesFrequently)),
        ("push button", .stop(.button)),
        ("radio button", .stop(.button)),
        ("radio menu item", .stop(.button)),
        ("root pane", .layout),
        ("row header", .stop(.header)),
        ("scroll bar", .ignored),
        ("scroll pane", .layout),
        ("separator", .ignored),
        ("slider", .stop(.adjustable)),
        ("spin button", .stop(.adjustable)),
        ("split pane", .layout),
        ("status bar", .text(.updatesFrequently)),
        ("table", .container(.dataTable)),
        ("table cell", .stop([])),
        ("table column header", .stop(.header)),
        ("table row header", .stop(.header)),
        ("tearoff menu item", .ignored),
        ("terminal", .text(.updatesFrequently)),
        ("text", .text([])),
        ("toggle button", .stop(.button)),
        ("tool bar", .container(.semanticGroup)),
        ("tool tip", .ignored),
        ("tree", .container(.list)),
        ("tree table", .container(.dataTable)),
        ("unknown", .layout),
        ("viewport", .layout),
        ("window", .window),
        ("extended", .layout),
        ("header", .container(.landmark)),
        ("footer", .container(.landmark)),
        ("paragraph", .text([])),
        ("ruler", .ignored),
        ("application", .layout),
        ("autocomplete", .layout),
        ("editbar", .stop(.textField)),
        ("embedded", .layout),
        ("entry", .stop(.textField)),
        ("chart", .stop(.image)),
        ("caption", .text([])),
        ("document frame", .document),
        ("heading", .stop(.header)),
        ("page", .layout),
        ("section", .layout),
        ("redundant object", .ignored),
        ("form", .container(.landmark)),
        ("link", .stop(.link)),
        ("input method window", .ignored),
        ("table row", .layout),
        ("tree item", .stop([])),
        ("document spreadsheet", .document),
        ("document presentation", .document),
        ("document text", .document),
        ("document web", .document),
        ("document email", .document),
        ("comment", .text([])),
        ("list box", .container(.list)),
        ("grouping", .container(.semanticGroup)),
        ("image map", .stop(.image)),
        ("notification", .text([])),
        ("info bar", .container(.semanticGroup)),
        ("level bar", .stop(.updatesFrequently)),
        ("title bar", .ignored),
        ("block quote", .layout),
        ("audio", .stop(.startsMediaSession)),
        ("video", .stop(.startsMediaSession)),
        ("definition", .text([])),
        ("article", .container(.semanticGroup)),
        ("landmark", .container(.landmark)),
        ("log", .container(.semanticGroup)),
        ("marquee", .text(.updatesFrequently)),
        ("math", .stop([])),
        ("rating", .stop(.adjustable)),
        ("timer", .text(.updatesFrequently)),
        ("static", .text([])),
        ("math fraction", .text([])),
        ("math root", .text([])),
        ("subscript", .text([])),
        ("superscript", .text([])),
        ("description list", .container(.list)),
        ("description term", .text([])),
        ("description value", .text([])),
        ("footnote", .text([])),
        ("content deletion", .layout),
        ("content insertion", .layout),
        ("mark", .layout),
        ("suggestion", .layout),
        ("push button menu", .stop(.button)),
    ]

    private static let byRole: [String: RoleHandling] = Dictionary(rows.map { ($0.role, $0.handling) }, uniquingKeysWith: { a, _ in a })

    /// The handling of a role by its AT-SPI name; a role this libatspi is newer than the
    /// table (a name not in it) is treated as layout: its children are kept.
    public static func handling(of role: String) -> RoleHandling { byRole[role] ?? .layout }

    /// The handling of one object: its role's, except that an editable `text` (GTK 3's
    /// GtkEntry, which has no `entry` role) is a text field, as Orca reads it.
    public static func handling(of role: String, states: Set<String>) -> RoleHandling {
        role == "text" && states.contains("editable") ? .stop([.textField]) : handling(of: role)
    }

    /// The handling of one of the application's own children (a top-level window): a role
    /// read as layout is a window there (Qt publishes a top-level `QWidget` as `filler`).
    public static func handling(of role: String, states: Set<String>, topLevel: Bool) -> RoleHandling {
        let h = handling(of: role, states: states)
        if topLevel, case .layout = h { return .window }
        return h
    }

    /// Roles announced when they become showing (a GTK notification, an alert, an info bar).
    public static let announcedWhenShown: Set<String> = ["notification", "alert", "info bar"]
    /// Actions a toolkit gives every node: not the app's own, left out (Chromium's
    /// `showContextMenu`, the browser's menu; Qt's `SetFocus`, what a focus move does).
    public static let toolkitActions: Set<String> = ["showContextMenu", "SetFocus"]
    /// Actions that are an adjustable's own increment and decrement (Qt's spin box and
    /// slider): left out of its custom actions, since `adjust` already offers them.
    public static let adjustActions: Set<String> = ["Increase", "Decrease", "increment", "decrement"]
    /// Roles whose checked/pressed state makes them `selected` (VoiceOver: "selected, Bold").
    public static let selectedWhenChecked: Set<String> = ["toggle button", "radio button", "radio menu item", "page tab"]
    /// Roles whose TableCell interface gives the element its `cell` (row, column, spans; a
    /// header's kind from its role).
    public static let tableCells: Set<String> = ["table cell", "column header", "row header", "table column header", "table row header"]
    /// Roles whose checked state is a switch's value (`1`, `0`, `2` for mixed).
    public static let switchValue: Set<String> = ["check box", "check menu item"]
}

import CAtspi

extension RoleTable {
    /// Every role name this libatspi knows (`atspi_role_get_name` for each `AtspiRole` up to
    /// `ATSPI_ROLE_LAST_DEFINED`): needs no bus.
    public static func libatspiRoleNames() -> [String] {
        (0..<Int(ATSPI_ROLE_LAST_DEFINED.rawValue)).compactMap { i in
            guard let n = atspi_role_get_name(AtspiRole(rawValue: UInt32(i))) else { return nil }
            defer { g_free(n) }
            return String(cString: n)
        }
    }
}
