import TandemModel

/// One element of an app's accessibility tree as the app publishes it: the element fields an
/// app uses (Docs/formats.md#element), with nested `children`. There are no effects: the app
/// acts itself when Tandem sends it an `action`, so `actions` are names only and `handles`
/// says which gestures the element answers.
///
///     AppElement("banana.stepper", label: "Banana quantity", traits: .adjustable,
///                frame: Frame(x: 276, y: 120, width: 98, height: 32),
///                adjust: AppAdjust(value: 0, min: 0, max: 20, format: "%@ in cart"))
public struct AppElement: Sendable, Hashable {
    public var id: String
    public var label: String?
    public var value: String?
    public var hint: String?
    public var traits: Traits
    public var frame: Frame?
    /// `isAccessibilityElement`; nil: Tandem's default rule (Docs/formats.md#accessible).
    public var accessible: Bool?
    /// Custom actions' names, in rotor order.
    public var actions: [String]
    public var adjust: AppAdjust?
    /// A loading indicator's state.
    public var progress: Progress?
    public var hidden: Bool
    public var modal: Bool
    /// `shouldGroupAccessibilityChildren`.
    public var group: Bool
    /// `accessibilityElements`: descendants' ids in navigation order.
    public var order: [String]?
    /// The gestures this element answers (magic tap, escape, scrolling), which Tandem then
    /// sends to it rather than to an ancestor or the screen's root.
    public var handles: Set<AppHandler>
    /// `accessibilityContainerType` (Docs/formats.md#element `container`).
    public var container: ContainerType?
    /// Its place in the `dataTable` it is in (Docs/formats.md#element `cell`).
    public var cell: TableCell?
    /// The element's children, in order. nil (the default): an `update` leaves the children
    /// the element has as they are; `[]`: it has none (an update removes them).
    public var children: [AppElement]?

    public init(_ id: String, label: String? = nil, value: String? = nil, hint: String? = nil, traits: Traits = [],
                frame: Frame? = nil, accessible: Bool? = nil, actions: [String] = [], adjust: AppAdjust? = nil,
                progress: Progress? = nil, hidden: Bool = false, modal: Bool = false, group: Bool = false,
                order: [String]? = nil, handles: Set<AppHandler> = [], container: ContainerType? = nil, children: [AppElement]? = nil) {
        self.id = id; self.label = label; self.value = value; self.hint = hint; self.traits = traits
        self.frame = frame; self.accessible = accessible; self.actions = actions; self.adjust = adjust
        self.progress = progress; self.hidden = hidden; self.modal = modal; self.group = group
        self.order = order; self.handles = handles; self.container = container; self.children = children
    }

    /// The element's own fields as JSON members, defaults left out (`id` first, no `children`).
    var fieldMembers: [JSONValue.Member] {
        var m: [JSONValue.Member] = [.init("id", .string(id))]
        if let label { m.append(.init("label", .string(label))) }
        if let value { m.append(.init("value", .string(value))) }
        if let hint { m.append(.init("hint", .string(hint))) }
        if !traits.isEmpty { m.append(.init("traits", ElementChange.encode(traits))) }
        if let frame { m.append(.init("frame", ElementChange.encode(frame))) }
        if let accessible { m.append(.init("accessible", .bool(accessible))) }
        if group { m.append(.init("group", true)) }
        if let container { m.append(.init("container", .string(container.rawValue))) }
        if let cell {
            m.append(.init("cell", .compact(["row": .number(Double(cell.row)), "column": .number(Double(cell.column)),
                                             "rowSpan": cell.rowSpan > 1 ? .number(Double(cell.rowSpan)) : nil,
                                             "columnSpan": cell.columnSpan > 1 ? .number(Double(cell.columnSpan)) : nil,
                                             "header": cell.header.map { .string($0.rawValue) }])))
        }
        if hidden { m.append(.init("hidden", true)) }
        if modal { m.append(.init("modal", true)) }
        if let order { m.append(.init("order", .array(order.map { .string($0) }))) }
        if !actions.isEmpty { m.append(.init("actions", ElementChange.encode(actions: actions))) }
        if let adjust { m.append(.init("adjust", adjust.json)) }
        if let progress { m.append(.init("progress", ElementChange.encode(progress))) }
        for h in AppHandler.allCases where handles.contains(h) { m.append(.init(h.rawValue, true)) }
        return m
    }

    /// The element with its subtree nested, as a `screen` carries it.
    public var json: JSONValue {
        .object(fieldMembers + ((children ?? []).isEmpty ? [] : [.init("children", .array(children!.map(\.json)))]))
    }

    /// The element and every element under it as the flat nodes of an `update`, parent before
    /// children in declaration order; each node's `children` is its children's ids when the
    /// element lists them (`[]` removes them all), and left out when `children` is nil, so the
    /// children stay as they are.
    public var nodes: [JSONValue] {
        var out: [JSONValue] = []
        var stack = [self]
        while let e = stack.popLast() {  // iterative: a deep tree cannot overflow the stack
            guard let kids = e.children else { out.append(.object(e.fieldMembers)); continue }
            out.append(.object(e.fieldMembers + [.init("children", .array(kids.map { .string($0.id) }))]))
            stack.append(contentsOf: kids.reversed())
        }
        return out
    }
}

/// A gesture an element may answer itself (`accessibilityPerformMagicTap`, …Escape, …Scroll).
public enum AppHandler: String, Sendable, Hashable, CaseIterable {
    case magicTap, escape, scrollUp, scrollDown
}

/// An adjustable element's number: Tandem renders `value` through `format` (`%@` stands for
/// the number) into the element's value, and sends `increment`/`decrement` actions for the
/// app to change it.
public struct AppAdjust: Sendable, Hashable {
    public var value: Double
    public var min: Double
    public var max: Double
    public var step: Double
    public var format: String?

    public init(value: Double, min: Double, max: Double, step: Double = 1, format: String? = nil) {
        self.value = value; self.min = min; self.max = max; self.step = step; self.format = format
    }

    var json: JSONValue {
        .compact(["value": .number(value), "min": .number(min), "max": .number(max), "step": .number(step),
                  "format": format.map { .string($0) }])
    }
}

/// An app's screen: a screen object (Docs/formats.md#catalog), its tree nested under `root`.
public struct AppScreen: Sendable, Hashable {
    public var id: String
    public var title: String?
    /// The element focused when the screen appears (as on `screenChanged`).
    public var focus: String?
    public var root: AppElement

    public init(id: String, title: String? = nil, focus: String? = nil, root: AppElement) {
        self.id = id; self.title = title; self.focus = focus; self.root = root
    }

    public var json: JSONValue {
        .compact(["id": .string(id), "title": title.map { .string($0) }, "focus": focus.map { .string($0) }, "root": root.json])
    }
}
