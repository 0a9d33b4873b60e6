import TandemModel

/// The tools whose page sources Tandem imports.
public enum Platform: String, Sendable, CaseIterable {
    /// WebDriverAgent (Appium's XCUITest driver): `<AppiumAUT><XCUIElementTypeApplication …>`.
    case ios
    /// UiAutomator (`adb shell uiautomator dump`) and Appium's UiAutomator2: `<hierarchy>`.
    case android
}

/// One page source to import: the name messages use, the screen's id, its bytes.
public struct PageSourceFile: Sendable {
    public var name: String
    public var screenID: String
    public var bytes: [UInt8]

    public init(name: String, screenID: String, bytes: [UInt8]) {
        self.name = name; self.screenID = screenID; self.bytes = bytes
    }
}

/// A catalog made from page sources, with where each element was written and what the rules
/// noticed on the way.
public struct ImportedCatalog: Sendable {
    public var catalog: Catalog
    /// `sources[screen][element]`: the XML start tag each element comes from.
    public var sources: [[SourceLocation]]
    /// Unknown types, inverted bounds: the screen is imported, the user is told.
    public var warnings: [ImportError]
}

/// `tandem import`: page sources to a catalog (Docs/import.md). Pure apart from the XML
/// parser: bytes in, catalog values out.
public struct PageSourceImporter: Sendable {
    public var platform: Platform
    /// The catalog's language (BCP 47).
    public var language: String
    /// Android: pixels a point (`--density`); without it the screen's width is taken as 360 points.
    public var density: Double?

    public init(platform: Platform, language: String = "en", density: Double? = nil) {
        self.platform = platform; self.language = language; self.density = density
    }

    /// One catalog with one screen a file, in the files' order. Throws for the first file that
    /// is malformed, is not the platform's page source, or has nothing VoiceOver would reach.
    public func importCatalog(_ files: [PageSourceFile], name: String? = nil) throws(ImportError) -> ImportedCatalog {
        var ids = IDMaker()
        var screens: [Screen] = []
        var sources: [[SourceLocation]] = []
        var warnings: [ImportError] = []
        var screenIDs = IDMaker()
        for file in files {
            let tree = try PageTree(file.bytes, file: file.name)
            var table = ScreenBuilder()
            table.reserve(tree.count)
            switch platform {
            case .ios:
                var rules = IOSRules(file: file.name)
                try rules.screen(tree, into: &table)
                warnings += rules.warnings
            case .android:
                var rules = AndroidRules(file: file.name, density: density)
                try rules.screen(tree, into: &table)
                warnings += rules.warnings
            }
            // The screen's id index, when its ids are the first made, comes with them.
            let index = table.makeIDs(&ids)
            let screenID = screenIDs.make(file.screenID)
            guard table.reachesAnything else {
                throw ImportError(at: table.sources[0], "nothing on this screen is reachable by VoiceOver (every element is hidden, zero size, not accessible or has nothing to say): no catalog written")
            }
            let screen = index.map { Screen(id: screenID, title: file.screenID, focus: nil, magicTap: nil, escape: nil, elements: table.elements, index: $0) }
                ?? Screen(id: screenID, title: file.screenID, focus: nil, magicTap: nil, escape: nil, elements: table.elements)
            screens.append(screen)
            sources.append(table.sources)
        }
        guard !screens.isEmpty else { throw ImportError(file: "", message: "no page source given") }
        let catalog = Catalog(name: name, language: language, strings: [:], start: screens[0].id, screens: screens)
        return ImportedCatalog(catalog: catalog, sources: sources, warnings: warnings)
    }
}

extension ImportError {
    init(at: SourceLocation, _ message: String) { self.init(at, message) }
}
