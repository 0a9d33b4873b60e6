/// Checks what a catalog refers to once all of it is read: unique ids, every reference
/// (`order`, `focus`, effects, `start`), adjust bounds, string keys and argument counts.
///
/// The decoder records each reference with its line and its place in the document as it reads
/// (the JSON path is worked out from that place only for an error), so an error
/// can point at the exact place (`grocery.catalog.json:41: screens[0].root.children[2].order[1]: no element "x"`).
struct CatalogValidator {
    enum Reference {
        /// An `order` entry of element `owner` on screen `screen` must name one of its descendants.
        case orderEntry(owner: String, screen: Int, id: String)
        /// A screen's `focus` must name an element of that screen.
        case screenFocus(screen: Int, id: String)
        /// An element anywhere in the catalog.
        case element(String)
        /// An element that is adjustable.
        case adjustable(String)
        /// An element with a `progress` indicator.
        case indicator(String)
        case screen(String)
        case stringKey(key: String, args: Int)
    }

    struct Site {
        let reference: Reference
        let line: Int
        /// The tape index of the value, from which the JSON path is worked out if it fails.
        let node: Int
    }

    /// An element id defined a second time.
    struct Duplicate {
        let id: String
        let line: Int
        let node: Int
        let firstLine: Int
        let firstNode: Int
    }

    var sites: [Site] = []
    /// In the order the elements were read (`CatalogValidator+Duplicates.swift`).
    var duplicates: [Duplicate] = []
    let file: String

    init(file: String) { self.file = file }

    mutating func expect(_ reference: Reference, line: Int, node: Int) {
        sites.append(Site(reference: reference, line: line, node: node))
    }

    /// Runs every recorded check against the decoded catalog; returns the errors in file order.
    /// `paths` gives the JSON paths of tape indices (asked once, for the errors only).
    func validate(_ catalog: Catalog, paths: ([Int]) -> [String]) -> [Diagnostic] {
        var strings = StringChecks(catalog)
        var failed: [(site: Site, message: String)] = []
        for site in sites {
            if let message = check(site.reference, in: catalog, strings: &strings) { failed.append((site, message)) }
        }
        if duplicates.isEmpty && failed.isEmpty { return [] }
        let rendered = paths(duplicates.flatMap { [$0.node, $0.firstNode] } + failed.map(\.site.node))
        var out: [Diagnostic] = []
        for (i, d) in duplicates.enumerated() {
            out.append(Diagnostic(file: file, line: d.line, path: rendered[2 * i],
                                  message: "duplicate id \"\(d.id)\" (first defined at line \(d.firstLine), \(rendered[2 * i + 1]))"))
        }
        for (i, f) in failed.enumerated() {
            out.append(Diagnostic(file: file, line: f.site.line, path: rendered[2 * duplicates.count + i], message: f.message))
        }
        return out.sorted { ($0.line ?? 0) < ($1.line ?? 0) }
    }

    private func check(_ reference: Reference, in catalog: Catalog, strings: inout StringChecks) -> String? {
        switch reference {
        case .orderEntry(let owner, let s, let id):
            let screen = catalog.screens[s]
            guard let target = screen.index[id] else {
                return catalog.locate(id) == nil ? "no element \"\(id)\"" : "element \"\(id)\" is on another screen"
            }
            guard let ownerIndex = screen.index[owner] else { return nil }
            var p = screen.elements[target].parent
            while let i = p {
                if i == ownerIndex { return nil }
                p = screen.elements[i].parent
            }
            return "\"\(id)\" is not a descendant of \"\(owner)\""
        case .screenFocus(let s, let id):
            if catalog.screens[s].index[id] != nil { return nil }
            return catalog.locate(id) == nil ? "no element \"\(id)\"" : "element \"\(id)\" is on another screen"
        case .element(let id):
            return catalog.locate(id) == nil ? "no element \"\(id)\"" : nil
        case .adjustable(let id):
            guard let (s, e) = catalog.locate(id) else { return "no element \"\(id)\"" }
            return catalog.screens[s].elements[e].adjust == nil ? "element \"\(id)\" has no \"adjust\"" : nil
        case .indicator(let id):
            guard let (s, e) = catalog.locate(id) else { return "no element \"\(id)\"" }
            return catalog.screens[s].elements[e].progress == nil ? "element \"\(id)\" has no \"progress\" (a loading indicator needs one)" : nil
        case .screen(let id):
            return catalog.screenIndex[id] == nil ? "no screen \"\(id)\"" : nil
        case .stringKey(let key, let args):
            return strings.check(key: key, args: args)
        }
    }
}

/// The checks of a localized label's key, worked out once per key: the languages that define
/// it with the arguments each takes (in language order), and whether the catalog's own
/// language has it.
struct StringChecks {
    let catalog: Catalog
    let languages: [String]
    var known: [String: (formats: [(language: String, arguments: Int)], inOwnLanguage: Bool)] = [:]

    init(_ catalog: Catalog) {
        self.catalog = catalog
        languages = catalog.strings.keys.sorted()
    }

    mutating func check(key: String, args: Int) -> String? {
        let facts: (formats: [(language: String, arguments: Int)], inOwnLanguage: Bool)
        if let k = known[key] { facts = k } else {
            var formats: [(language: String, arguments: Int)] = []
            for lang in languages {
                guard let format = catalog.strings[lang]?[key] else { continue }
                formats.append((lang, StringFormat.argumentCount(format)))
            }
            facts = (formats, catalog.strings[catalog.language]?[key] != nil)
            known[key] = facts
        }
        for (lang, needed) in facts.formats where needed != args {
            return "string \"\(key)\" in \"\(lang)\" takes \(needed) argument\(needed == 1 ? "" : "s"), \(args) given"
        }
        if facts.formats.isEmpty { return "no string \"\(key)\" in \"strings\"" }
        if !facts.inOwnLanguage { return "string \"\(key)\" has no \"\(catalog.language)\" text (the catalog's language)" }
        return nil
    }
}
