/// UIAccessibilityTraits as a set. The raw bits are Tandem's own; names are UIKit's.
public struct Traits: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let button = Traits(rawValue: 1 << 0)
    public static let link = Traits(rawValue: 1 << 1)
    public static let header = Traits(rawValue: 1 << 2)
    public static let searchField = Traits(rawValue: 1 << 3)
    public static let image = Traits(rawValue: 1 << 4)
    public static let selected = Traits(rawValue: 1 << 5)
    public static let playsSound = Traits(rawValue: 1 << 6)
    public static let keyboardKey = Traits(rawValue: 1 << 7)
    public static let staticText = Traits(rawValue: 1 << 8)
    public static let summaryElement = Traits(rawValue: 1 << 9)
    public static let notEnabled = Traits(rawValue: 1 << 10)
    public static let updatesFrequently = Traits(rawValue: 1 << 11)
    public static let startsMediaSession = Traits(rawValue: 1 << 12)
    public static let adjustable = Traits(rawValue: 1 << 13)
    public static let allowsDirectInteraction = Traits(rawValue: 1 << 14)
    public static let causesPageTurn = Traits(rawValue: 1 << 15)
    public static let tabBar = Traits(rawValue: 1 << 16)
    /// A `UISwitch` (with `button`): its value "1", "0" or "2" is said as on, off or mixed.
    public static let switchButton = Traits(rawValue: 1 << 17)
    /// A text field (`UITextField`): its hint is "double tap to edit".
    public static let textField = Traits(rawValue: 1 << 18)
    /// A text field whose text is never said (`isSecureTextEntry`); implies `textField`.
    public static let secureTextField = Traits(rawValue: 1 << 19)
    /// The navigation bar's back button: a label that only says "Back" is not said again.
    public static let backButton = Traits(rawValue: 1 << 20)
    /// Tandem extension: the text field is being edited (first responder, keyboard shown).
    public static let isEditing = Traits(rawValue: 1 << 21)

    /// The names a catalog uses (Docs/formats.md#element), in that table's order; `isEditing` is Tandem's.
    public static let named: [(name: String, trait: Traits)] = [
        ("button", .button), ("link", .link), ("header", .header), ("searchField", .searchField),
        ("image", .image), ("selected", .selected), ("playsSound", .playsSound), ("keyboardKey", .keyboardKey),
        ("staticText", .staticText), ("summaryElement", .summaryElement), ("notEnabled", .notEnabled),
        ("updatesFrequently", .updatesFrequently), ("startsMediaSession", .startsMediaSession),
        ("adjustable", .adjustable), ("allowsDirectInteraction", .allowsDirectInteraction),
        ("causesPageTurn", .causesPageTurn), ("tabBar", .tabBar), ("switchButton", .switchButton),
        ("textField", .textField), ("secureTextField", .secureTextField), ("backButton", .backButton),
        ("isEditing", .isEditing),
    ]

    /// Text typed into or held by an element with these traits, as it may be said or written
    /// down: a secure field's is one bullet a character, anything else's as it is.
    public func disclosed(_ text: String) -> String {
        contains(.secureTextField) ? String(repeating: "•", count: text.count) : text
    }

    public init?(name: String) {
        guard let t = Self.named.first(where: { $0.name == name }) else { return nil }
        self = t.trait
    }

    /// The catalog names of the traits in this set, in the contract's order.
    public var names: [String] { Self.named.filter { contains($0.trait) }.map(\.name) }
}
