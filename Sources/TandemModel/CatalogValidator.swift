/// Checks what a catalog refers to once all of it is read: unique ids, every reference
/// (`order`, `focus`, effects, `start`), adjust bounds, string keys and argument counts.
///
/// The decoder records each reference with its line and JSON path as it reads, so an error
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
        let path: JSONPath
    }

    var sites: [Site] = []
    /// First place each element id was defined, to report duplicates.
    var definitions: [String: (line: Int, path: JSONPath)] = [:]
    var errors: [Diagnostic] = []
    let file: String

    init(file: String) { self.file = file }

    mutating func define(id: String, line: Int, path: JSONPath) {
        if let first = definitions[id] {
            errors.append(Diagnostic(file: file, line: line, path: path.description, message: "duplicate id \"\(id)\" (first defined at line \(first.line), \(first.path))"))
        } else {
            definitions[id] = (line, path)
        }
    }

    mutating func expect(_ reference: Reference, line: Int, path: JSONPath) {
        sites.append(Site(reference: reference, line: line, path: path))
    }

    /// Runs every recorded check against the decoded catalog; returns the errors in file order.
    func validate(_ catalog: Catalog) -> [Diagnostic] {
        var out = errors
        for site in sites {
            if let message = check(site.reference, in: catalog) {
                out.append(Diagnostic(file: file, line: site.line, path: site.path.description, message: message))
            }
        }
        return out.sorted { ($0.line ?? 0) < ($1.line ?? 0) }
    }

    private func check(_ reference: Reference, in catalog: Catalog) -> String? {
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
            var defined = false
            for lang in catalog.strings.keys.sorted() {
                guard let format = catalog.strings[lang]?[key] else { continue }
                defined = true
                let needed = StringFormat.argumentCount(format)
                if needed != args {
                    return "string \"\(key)\" in \"\(lang)\" takes \(needed) argument\(needed == 1 ? "" : "s"), \(args) given"
                }
            }
            if !defined { return "no string \"\(key)\" in \"strings\"" }
            if catalog.strings[catalog.language]?[key] == nil { return "string \"\(key)\" has no \"\(catalog.language)\" text (the catalog's language)" }
            return nil
        }
    }
}
