/// What an action does (Docs/formats.md#effects). Effects run in order; each takes effect before
/// the next.
public enum Effect: Sendable, Hashable {
    case set(id: String, changes: ElementChanges)
    case adjust(id: String, by: Double)
    case screen(String)
    case back
    case announcement(text: String, priority: AnnouncementPriority, delay: Int)
    case layoutChanged(focus: String?)
    case screenChanged(focus: String?)
    case pageScrolled(text: String)
    case load(id: String, ms: Int, steps: Int, then: [Effect])
}

/// `UIAccessibility.post(.announcement)` priority.
public enum AnnouncementPriority: String, Sendable, Hashable {
    case `default`, high
}

/// The fields a `set` effect changes; `nil` leaves a field as it is.
public struct ElementChanges: Sendable, Hashable {
    public var label: LabelText?
    /// `.some(nil)` clears the value.
    public var value: String??
    public var hint: String??
    public var traits: Traits?
    public var hidden: Bool?
    public var modal: Bool?

    public init(label: LabelText? = nil, value: String?? = nil, hint: String?? = nil, traits: Traits? = nil, hidden: Bool? = nil, modal: Bool? = nil) {
        self.label = label; self.value = value; self.hint = hint; self.traits = traits; self.hidden = hidden; self.modal = modal
    }

    /// Whether the change can alter which elements are reachable (and so the reading order).
    public var altersStructure: Bool { label != nil || hint != nil || traits != nil || hidden != nil || modal != nil }

    /// The fields it names, set on `element` (the navigator running an effect, and lint
    /// working out the state after one).
    public func apply(to element: inout Element) {
        if let x = label { element.label = x }
        if let x = value { element.value = x }
        if let x = hint { element.hint = x }
        if let x = traits { element.traits = x }
        if let x = hidden { element.hidden = x }
        if let x = modal { element.modal = x }
    }
}
