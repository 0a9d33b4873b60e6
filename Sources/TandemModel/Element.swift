/// One node of a screen's accessibility tree, in UIAccessibility's terms (Docs/formats.md#catalog).
///
/// Elements live in a flat table per screen (`Screen.elements`); `parent` and `children` are
/// indices into it, so a 100k-element screen is one array, not 100k objects.
public struct Element: Sendable, Hashable {
    public var id: String
    public var label: LabelText?
    public var value: String?
    public var hint: String?
    public var traits: Traits = []
    public var frame: Frame?
    /// `isAccessibilityElement` when the catalog sets it; `nil` means the default rule (Docs/formats.md#accessible).
    public var accessible: Bool?
    public var children: [Int] = []
    public var parent: Int?
    /// `accessibilityElements`: ids of descendants in navigation order.
    public var order: [String]?
    public var group = false
    public var hidden = false
    public var modal = false
    /// Tandem extension: `accessibilityContainerType`.
    public var container: ContainerType?
    /// Tandem extension: the element's place in the `dataTable` container it is in.
    public var cell: TableCell? {
        get { cellBox?.cell }
        set { cellBox = newValue.map(TableCellBox.init) }
    }
    /// Few elements are table cells: a pointer keeps the flat table's stride small.
    private var cellBox: TableCellBox?
    public var actions: [CustomAction] = []
    public var adjust: Adjust?
    public var activate: [Effect]?
    public var magicTap: [Effect]?
    public var escape: [Effect]?
    /// Tandem extension: effects of a three-finger scroll, looked up outwards like `escape`.
    public var scrollUp: [Effect]?
    public var scrollDown: [Effect]?
    public var progress: Progress?
    public var brailleLabel: LabelText?
    /// The slot of an element a tree update removed (see `Screen.elements`).
    public internal(set) var isRemoved = false

    public init(id: String) { self.id = id }

    /// Whether the element has anything to present (the default `accessible` rule, Docs/formats.md#accessible).
    public var hasContent: Bool {
        label != nil || value != nil || hint != nil || !traits.isEmpty || !actions.isEmpty
            || adjust != nil || activate != nil || progress != nil
    }
}

/// A custom action (`UIAccessibilityCustomAction`), in rotor order.
public struct CustomAction: Sendable, Hashable {
    public var name: String
    public var effects: [Effect]
    public init(name: String, effects: [Effect]) { self.name = name; self.effects = effects }
}

/// An adjustable element's number, bounds and how it renders into `value`.
public struct Adjust: Sendable, Hashable {
    public var value: Double
    public var min: Double
    public var max: Double
    public var step: Double
    /// Renders the number into the element's value, `%@` standing for it.
    public var format: String?
    public var effects: [Effect]

    public init(value: Double, min: Double, max: Double, step: Double, format: String?, effects: [Effect]) {
        self.value = value; self.min = min; self.max = max; self.step = step; self.format = format; self.effects = effects
    }
}

/// A loading indicator's state: `value` in 0…1, or `nil` when indeterminate.
public struct Progress: Sendable, Hashable {
    public var label: String?
    public var value: Double?
    public init(label: String?, value: Double?) { self.label = label; self.value = value }
}
