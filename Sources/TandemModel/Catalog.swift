/// An app's accessibility model: its screens and localized strings (Docs/formats.md#catalog).
public struct Catalog: Sendable {
    public static let format = "tandem.catalog/1"

    public var name: String?
    /// BCP 47 language of the app's text (`en`, `pt-BR`, `ru`).
    public var language: String
    /// language → key → format.
    public var strings: [String: [String: String]]
    public var start: String
    /// Phone or tablet: decides VoiceOver's row threshold in the reading order.
    public var device: Device
    public var screens: [Screen]
    /// Screen id → index in `screens`.
    public var screenIndex: [String: Int]

    public init(name: String?, language: String, strings: [String: [String: String]], start: String, device: Device = .phone,
                screens: [Screen]) {
        self.name = name; self.language = language; self.strings = strings; self.start = start; self.device = device
        self.screens = screens
        var index: [String: Int] = [:]
        for i in screens.indices { _ = index.insertIfAbsent(screens[i].id, i) }
        self.screenIndex = index
    }

    public func screen(_ id: String) -> Screen? { screenIndex[id].map { screens[$0] } }

    /// Where an element lives: (screen index, element index).
    public func locate(_ elementID: String) -> (screen: Int, element: Int)? {
        for (s, screen) in screens.enumerated() {
            if let e = screen.index[elementID] { return (s, e) }
        }
        return nil
    }

    /// Resolves a label in `language` (falling back to the catalog's own language, then the key).
    public func resolve(_ text: LabelText, language: String) -> String {
        switch text {
        case .plain(let s): return s
        case .localized(let key, let args):
            // The language itself, its base language ("en-US" → "en"), then the catalog's own.
            let base = language.split(separator: "-").first.map(String.init) ?? language
            let format = strings[language]?[key] ?? strings[base]?[key] ?? strings[self.language]?[key] ?? key
            return StringFormat.render(format, args)
        }
    }
}
