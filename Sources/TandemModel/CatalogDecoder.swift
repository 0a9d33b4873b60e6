/// Turns the JSON of a `*.catalog.json` into a `Catalog`, reporting every problem with its
/// file, line and JSON path. Unknown fields are warnings (Docs/formats.md#catalog).
public struct CatalogDecoder {
    public let file: String
    public private(set) var diagnostics = Diagnostics()
    /// Where the last decoded catalog's screens and elements are written (for `tandem lint`).
    public private(set) var lines = CatalogLines()

    public init(file: String) { self.file = file }

    /// Parses and decodes; throws the first error. Warnings are in `diagnostics` afterwards.
    public mutating func decode(_ bytes: [UInt8]) throws(Diagnostic) -> Catalog {
        let tape: JSONTape
        do { tape = try JSONParser.tape(bytes) } catch {
            throw Diagnostic(file: file, line: error.line, path: "", message: error.message)
        }
        let file = self.file
        let (catalog, found, lines) = try tape.read { (view) throws(Diagnostic) in
            var reader = NodeReader(file: file, tape: view, root: nil)
            let catalog = try reader.catalog(0)
            var found = Diagnostics()
            found.warnings = reader.renderedWarnings()
            found.errors = reader.validator.validate(catalog) { view.paths($0, root: nil) }
            return (catalog, found, reader.lines)
        }
        diagnostics = found
        self.lines = lines
        if let first = diagnostics.errors.first { throw first }
        return catalog
    }
}

extension JSONTape {
    /// Runs `body` with a view of the tape (valid only inside `body`).
    func read<R>(_ body: (View) throws(Diagnostic) -> R) throws(Diagnostic) -> R {
        let result: Result<R, Diagnostic> = withView { view in
            do throws(Diagnostic) { return .success(try body(view)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

/// The names of an object's known fields, in the order of an enum's cases.
protocol FieldSet: CaseIterable, RawRepresentable where RawValue == Int {
    static var names: FieldNames { get }
}

extension FieldNames {
    /// The names of `F`'s cases, written out in the same order (no reflection at run time).
    init<F: FieldSet>(_: F.Type, _ names: [String]) {
        precondition(names.count == F.allCases.count && names.count <= 32, "one name per field")
        self.init(names)
    }
}

/// An object's known members: the tape index of each one's value, by field.
struct Fields<F: FieldSet> {
    var at = InlineArray<32, UInt32>(repeating: .max)

    @inline(__always) subscript(_ field: F) -> Int? {
        let i = at[field.rawValue]
        return i == .max ? nil : Int(i)
    }
}

/// Reads a catalog from a `JSONTape` by index: a value is its position on the tape, and its
/// JSON path is worked out from that position only when a message needs it.
struct NodeReader {
    let file: String
    let tape: JSONTape.View
    /// What the document's root is called in paths (`post` for a scenario's effect).
    let root: String?
    var validator: CatalogValidator
    /// Unknown-field warnings, in the order they were found, with the value their path leads to.
    var warnings: [(node: Int, warning: Diagnostic)] = []
    /// Each unknown field's value node and the names its object knows (the protocol refuses them).
    var unknownFields: [(node: Int, known: [String])] = []
    /// Index of the screen being read, for references that must stay on it.
    var screenNumber = 0
    var screenIDs: [String: Int] = [:]
    /// `StringFormat.argumentCount` of each adjust format seen (steppers share a few formats).
    var formatArguments: [String: Int] = [:]
    /// Where each element of the screen being read has its id, in table order.
    var idSites: [CatalogValidator.IDSite] = []
    /// The lines of every screen's and element's id, once the catalog is read.
    var lines = CatalogLines()
    /// Lint exceptions of the screen being read, by element index.
    var elementLint: [Int: LintException] = [:]
    /// `source` of the screen's elements (where `tandem import` found them), by element index.
    var elementSources: [Int: String] = [:]
    /// Reading what an app sends (Docs/protocol.md): effects are not read, only whether an
    /// element handles an action; `order` entries are not checked against the tree.
    var appMode = false

    init(file: String, tape: JSONTape.View, root: String?) {
        self.file = file; self.tape = tape; self.root = root
        validator = CatalogValidator(file: file)
    }

    func fail(_ node: Int, _ message: String) -> Diagnostic {
        Diagnostic(file: file, line: tape.line(node), path: tape.path(node, root: root), message: message)
    }

    /// The warnings with their paths filled in.
    func renderedWarnings() -> [Diagnostic] {
        let paths = tape.paths(warnings.map(\.node), root: root)
        return zip(warnings, paths).map { w, path in
            var d = w.warning
            d.path = path
            return d
        }
    }

    /// An object's known fields; an unknown one is a warning.
    mutating func object<F: FieldSet>(_ node: Int, known: F.Type) throws(Diagnostic) -> Fields<F> {
        guard tape.tag(node) == .object else { throw fail(node, "expected an object, found \(tape.typeName(node))") }
        var f = Fields<F>()
        var key = node + 1
        for _ in 0..<tape.count(node) {
            if let slot = F.names.slot(key, tape) {
                f.at[slot] = UInt32(truncatingIfNeeded: key + 1)
            } else {
                let message = "unknown field \"\(tape.string(key))\" ignored"
                warnings.append((key + 1, Diagnostic(file: file, line: tape.line(key), path: "", message: message)))
                unknownFields.append((key + 1, F.names.names))
            }
            key = tape.end(key + 1)
        }
        return f
    }

    /// Which of `F`'s fields an object has, without warning about the others.
    func fields<F: FieldSet>(_ node: Int, _: F.Type) -> Fields<F> {
        var f = Fields<F>()
        var key = node + 1
        for _ in 0..<tape.count(node) {
            if let slot = F.names.slot(key, tape) { f.at[slot] = UInt32(truncatingIfNeeded: key + 1) }
            key = tape.end(key + 1)
        }
        return f
    }

    func isString(_ node: Int) -> Bool { tape.tag(node) == .bytes || tape.tag(node) == .decoded }

    func string(_ node: Int) throws(Diagnostic) -> String {
        guard isString(node) else { throw fail(node, "expected a string, found \(tape.typeName(node))") }
        return tape.string(node)
    }

    /// A field's string, or `nil` when the field is absent.
    func stringField(_ node: Int?) throws(Diagnostic) -> String? {
        guard let node else { return nil }
        return try string(node)
    }

    func number(_ node: Int) throws(Diagnostic) -> Double {
        guard tape.tag(node) == .number else { throw fail(node, "expected a number, found \(tape.typeName(node))") }
        return tape.number(node)
    }

    func integer(_ node: Int) throws(Diagnostic) -> Int {
        let n = try number(node)
        guard n == n.rounded(), abs(n) < 1e15 else { throw fail(node, "expected a whole number, found \(n)") }
        return Int(n)
    }

    func bool(_ node: Int) throws(Diagnostic) -> Bool {
        switch tape.tag(node) {
        case .true: return true
        case .false: return false
        default: throw fail(node, "expected true or false, found \(tape.typeName(node))")
        }
    }

    /// The items of an array, as tape indices.
    func array(_ node: Int) throws(Diagnostic) -> Items {
        guard tape.tag(node) == .array else { throw fail(node, "expected an array, found \(tape.typeName(node))") }
        return Items(tape: tape, at: node + 1, remaining: tape.count(node))
    }

    struct Items: Sequence, IteratorProtocol {
        let tape: JSONTape.View
        var at: Int
        var remaining: Int
        var count: Int { remaining }

        mutating func next() -> Int? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            defer { at = tape.end(at) }
            return at
        }
    }

    func optionalString(_ node: Int) throws(Diagnostic) -> String? {
        if tape.tag(node) == .null { return nil }
        return try string(node)
    }

    enum ReferenceKind { case element, adjustable, indicator, screen }

    /// Reads an id and records that it must resolve to the kind of thing named.
    mutating func reference(_ kind: ReferenceKind, _ node: Int) throws(Diagnostic) -> String {
        let id = try string(node)
        let r: CatalogValidator.Reference = switch kind {
        case .element: .element(id)
        case .adjustable: .adjustable(id)
        case .indicator: .indicator(id)
        case .screen: .screen(id)
        }
        validator.expect(r, line: tape.line(node), node: node)
        return id
    }

    // MARK: catalog

    enum CatalogField: Int, FieldSet {
        case format, name, language, strings, start, screens, device
        static let names = FieldNames(Self.self, ["format", "name", "language", "strings", "start", "screens", "device"])
    }

    mutating func catalog(_ node: Int) throws(Diagnostic) -> Catalog {
        let f = try object(node, known: CatalogField.self)
        guard let format = f[.format] else { throw fail(node, "missing field \"format\" (expected \"\(Catalog.format)\")") }
        let formatName = try string(format)
        guard formatName == Catalog.format else {
            throw fail(format, "unsupported format \"\(formatName)\" (expected \"\(Catalog.format)\")")
        }
        let name = try stringField(f[.name])
        let language = try stringField(f[.language]) ?? "en"
        var strings: [String: [String: String]] = [:]
        if let s = f[.strings] {
            guard tape.tag(s) == .object else { throw fail(s, "expected an object, found \(tape.typeName(s))") }
            var lang = s + 1
            for _ in 0..<tape.count(s) {
                let entries = lang + 1
                guard tape.tag(entries) == .object else { throw fail(entries, "expected an object, found \(tape.typeName(entries))") }
                var table: [String: String] = [:]
                var key = entries + 1
                for _ in 0..<tape.count(entries) {
                    table[tape.string(key)] = try string(key + 1)
                    key = tape.end(key + 1)
                }
                strings[tape.string(lang)] = table
                lang = tape.end(entries)
            }
        }
        guard let screensField = f[.screens] else { throw fail(node, "missing field \"screens\"") }
        let sizes = screenSizes(screensField)
        var screens: [Screen] = []
        var within: [[(element: Int, first: Int)]] = []
        var sites: [[CatalogValidator.IDSite]] = []
        var sources: [[Int: String]] = []
        for (i, n) in try array(screensField).enumerated() {
            screenNumber = i
            idSites = []
            idSites.reserveCapacity(sizes[i])
            var duplicates: [(element: Int, first: Int)] = []
            screens.append(try screen(n, size: sizes[i], duplicates: &duplicates))
            within.append(duplicates)
            sites.append(idSites)
            sources.append(elementSources)
        }
        validator.findDuplicates(in: screens, within: within, sites: sites)
        lines = CatalogLines(screens: screens.map { screenIDs[$0.id] ?? 0 }, elements: sites.map { $0.map(\.line) },
                             sources: sources)
        guard !screens.isEmpty else { throw fail(screensField, "a catalog needs at least one screen") }
        var start = screens[0].id
        if let x = f[.start] {
            start = try string(x)
            validator.expect(.screen(start), line: tape.line(x), node: x)
        }
        var device = Device.phone
        if let x = f[.device] {
            let d = try string(x)
            guard let known = Device(rawValue: d) else {
                throw fail(x, "unknown device \"\(d)\" (known: \(Device.allCases.map(\.rawValue).joined(separator: " ")))")
            }
            device = known
        }
        return Catalog(name: name, language: language, strings: strings, start: start, device: device, screens: screens)
    }

    /// How many elements each screen of `screens` has, counted by following `root` and
    /// `children` without reading anything else (what is malformed counts as nothing: this
    /// only sizes tables, reading reports the errors).
    func screenSizes(_ screens: Int) -> [Int] {
        guard tape.tag(screens) == .array else { return [] }
        return Items(tape: tape, at: screens + 1, remaining: tape.count(screens)).map { screen in
            guard tape.tag(screen) == .object, let root = fields(screen, ScreenField.self)[.root] else { return 0 }
            return elementCount(root)
        }
    }

    private func elementCount(_ node: Int) -> Int {
        guard tape.tag(node) == .object else { return 0 }
        var n = 1
        var key = node + 1
        for _ in 0..<tape.count(node) {
            let value = key + 1
            if tape.isChildrenKey(key), tape.tag(value) == .array {
                for child in Items(tape: tape, at: value + 1, remaining: tape.count(value)) { n += elementCount(child) }
            }
            key = tape.end(value)
        }
        return n
    }

    enum ScreenField: Int, FieldSet {
        case id, title, focus, root, magicTap, escape, lint
        static let names = FieldNames(Self.self, ["id", "title", "focus", "root", "magicTap", "escape", "lint"])
    }

    /// `size`: how many elements it is expected to have, to reserve room for them;
    /// `duplicates`: its elements whose id an earlier one of the screen has.
    mutating func screen(_ node: Int, size: Int, duplicates: inout [(element: Int, first: Int)]) throws(Diagnostic) -> Screen {
        let f = try object(node, known: ScreenField.self)
        guard let id = f[.id] else { throw fail(node, "missing field \"id\"") }
        guard let rootField = f[.root] else { throw fail(node, "missing field \"root\"") }
        let screenID = try string(id)
        if let first = screenIDs[screenID] {
            throw fail(id, "duplicate screen id \"\(screenID)\" (first defined at line \(first))")
        }
        screenIDs[screenID] = tape.line(id)
        var focus: String?
        if let x = f[.focus] {
            focus = try string(x)
            validator.expect(.screenFocus(screen: screenNumber, id: focus!), line: tape.line(x), node: x)
        }
        var elements: [Element] = []
        elements.reserveCapacity(size)
        elementLint = [:]
        elementSources = [:]
        try element(rootField, parent: nil, into: &elements)
        var screen = Screen(
            id: screenID,
            title: try stringField(f[.title]),
            focus: focus,
            magicTap: try f[.magicTap].map { (x) throws(Diagnostic) in try handler(x) } ?? nil,
            escape: try f[.escape].map { (x) throws(Diagnostic) in try handler(x) } ?? nil,
            elements: elements,
            duplicates: &duplicates)
        if let x = f[.lint] { screen.lint = try lintException(x) }
        screen.elementLint = elementLint
        return screen
    }
}
