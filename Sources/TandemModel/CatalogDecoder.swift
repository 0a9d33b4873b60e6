/// Turns the JSON of a `*.catalog.json` into a `Catalog`, reporting every problem with its
/// file, line and JSON path. Unknown fields are warnings (SPEC §1).
public struct CatalogDecoder {
    public let file: String
    public private(set) var diagnostics = Diagnostics()

    public init(file: String) { self.file = file }

    /// Parses and decodes; throws the first error. Warnings are in `diagnostics` afterwards.
    public mutating func decode(_ bytes: [UInt8]) throws(Diagnostic) -> Catalog {
        let root: JSONNode
        do { root = try JSONParser.parse(bytes) } catch {
            throw Diagnostic(file: file, line: error.line, path: "", message: error.message)
        }
        var reader = NodeReader(file: file, diagnostics: Diagnostics(), validator: CatalogValidator(file: file))
        let catalog = try reader.catalog(root)
        diagnostics = reader.diagnostics
        diagnostics.errors = reader.validator.validate(catalog)
        if let first = diagnostics.errors.first { throw first }
        return catalog
    }
}

/// Walks JSON nodes with the path so far; one method per catalog concept.
struct NodeReader {
    let file: String
    var diagnostics: Diagnostics
    var validator: CatalogValidator
    /// Index of the screen being read, for references that must stay on it.
    var screenNumber = 0
    var screenIDs: [String: Int] = [:]

    func fail(_ node: JSONNode, _ path: JSONPath, _ message: String) -> Diagnostic {
        Diagnostic(file: file, line: node.line, path: path.description, message: message)
    }

    /// An object's known members, looked up by key (a linear scan: objects are small, and a
    /// dictionary per object cost more than the lookups).
    struct Fields {
        let members: [JSONNode.Member]
        let base: JSONPath.Node

        subscript(key: String) -> (node: JSONNode, path: JSONPath)? {
            for m in members where m.key == key { return (m.node, JSONPath(parent: base, step: .key(key))) }
            return nil
        }
    }

    mutating func object(_ node: JSONNode, _ path: JSONPath, known: Set<String>) throws(Diagnostic) -> Fields {
        guard let members = node.members else { throw fail(node, path, "expected an object, found \(node.typeName)") }
        let base = path.node()
        var unknown = false
        for m in members where !known.contains(m.key) {
            unknown = true
            let sub = JSONPath(parent: base, step: .key(m.key))
            diagnostics.warnings.append(Diagnostic(file: file, line: m.keyLine, path: sub.description, message: "unknown field \"\(m.key)\" ignored"))
        }
        return Fields(members: unknown ? members.filter { known.contains($0.key) } : members, base: base)
    }

    func string(_ node: JSONNode, _ path: JSONPath) throws(Diagnostic) -> String {
        guard case .string(let s) = node.kind else { throw fail(node, path, "expected a string, found \(node.typeName)") }
        return s
    }

    func number(_ node: JSONNode, _ path: JSONPath) throws(Diagnostic) -> Double {
        guard case .number(let n) = node.kind else { throw fail(node, path, "expected a number, found \(node.typeName)") }
        return n
    }

    func integer(_ node: JSONNode, _ path: JSONPath) throws(Diagnostic) -> Int {
        let n = try number(node, path)
        guard n == n.rounded(), abs(n) < 1e15 else { throw fail(node, path, "expected a whole number, found \(n)") }
        return Int(n)
    }

    func bool(_ node: JSONNode, _ path: JSONPath) throws(Diagnostic) -> Bool {
        guard case .bool(let b) = node.kind else { throw fail(node, path, "expected true or false, found \(node.typeName)") }
        return b
    }

    func array(_ node: JSONNode, _ path: JSONPath) throws(Diagnostic) -> [(node: JSONNode, path: JSONPath)] {
        guard case .array(let items) = node.kind else { throw fail(node, path, "expected an array, found \(node.typeName)") }
        let base = path.node()
        return items.enumerated().map { ($0.element, JSONPath(parent: base, step: .index($0.offset))) }
    }

    func optionalString(_ node: JSONNode, _ path: JSONPath) throws(Diagnostic) -> String? {
        if case .null = node.kind { return nil }
        return try string(node, path)
    }

    enum ReferenceKind { case element, adjustable, indicator, screen }

    /// Reads an id and records that it must resolve to the kind of thing named.
    mutating func reference(_ kind: ReferenceKind, _ x: (node: JSONNode, path: JSONPath)) throws(Diagnostic) -> String {
        let id = try string(x.node, x.path)
        let r: CatalogValidator.Reference = switch kind {
        case .element: .element(id)
        case .adjustable: .adjustable(id)
        case .indicator: .indicator(id)
        case .screen: .screen(id)
        }
        validator.expect(r, line: x.node.line, path: x.path)
        return id
    }

    // MARK: catalog

    mutating func catalog(_ node: JSONNode) throws(Diagnostic) -> Catalog {
        let f = try object(node, .root, known: ["format", "name", "language", "strings", "start", "screens"])
        guard let format = f["format"] else { throw fail(node, .root, "missing field \"format\" (expected \"\(Catalog.format)\")") }
        let formatName = try string(format.node, format.path)
        guard formatName == Catalog.format else {
            throw fail(format.node, format.path, "unsupported format \"\(formatName)\" (expected \"\(Catalog.format)\")")
        }
        let name = try f["name"].map { x throws(Diagnostic) in try string(x.node, x.path) }
        let language = try f["language"].map { x throws(Diagnostic) in try string(x.node, x.path) } ?? "en"
        var strings: [String: [String: String]] = [:]
        if let s = f["strings"] {
            guard let langs = s.node.members else { throw fail(s.node, s.path, "expected an object, found \(s.node.typeName)") }
            for lang in langs {
                let lpath = s.path.key(lang.key)
                guard let entries = lang.node.members else { throw fail(lang.node, lpath, "expected an object, found \(lang.node.typeName)") }
                var table: [String: String] = [:]
                for e in entries { table[e.key] = try string(e.node, lpath.key(e.key)) }
                strings[lang.key] = table
            }
        }
        guard let screensField = f["screens"] else { throw fail(node, .root, "missing field \"screens\"") }
        var screens: [Screen] = []
        for (i, (n, p)) in try array(screensField.node, screensField.path).enumerated() {
            screenNumber = i
            screens.append(try screen(n, p))
        }
        guard !screens.isEmpty else { throw fail(screensField.node, screensField.path, "a catalog needs at least one screen") }
        var start = screens[0].id
        if let x = f["start"] {
            start = try string(x.node, x.path)
            validator.expect(.screen(start), line: x.node.line, path: x.path)
        }
        return Catalog(name: name, language: language, strings: strings, start: start, screens: screens)
    }

    mutating func screen(_ node: JSONNode, _ path: JSONPath) throws(Diagnostic) -> Screen {
        let f = try object(node, path, known: ["id", "title", "focus", "root", "magicTap", "escape"])
        guard let id = f["id"] else { throw fail(node, path, "missing field \"id\"") }
        guard let rootField = f["root"] else { throw fail(node, path, "missing field \"root\"") }
        let screenID = try string(id.node, id.path)
        if let first = screenIDs[screenID] {
            throw fail(id.node, id.path, "duplicate screen id \"\(screenID)\" (first defined at line \(first))")
        }
        screenIDs[screenID] = id.node.line
        if let x = f["focus"] { validator.expect(.screenFocus(screen: screenNumber, id: try string(x.node, x.path)), line: x.node.line, path: x.path) }
        var elements: [Element] = []
        try element(rootField.node, rootField.path, parent: nil, into: &elements)
        return Screen(
            id: screenID,
            title: try f["title"].map { x throws(Diagnostic) in try string(x.node, x.path) },
            focus: try f["focus"].map { x throws(Diagnostic) in try string(x.node, x.path) },
            magicTap: try f["magicTap"].map { x throws(Diagnostic) in try effects(x.node, x.path) },
            escape: try f["escape"].map { x throws(Diagnostic) in try effects(x.node, x.path) },
            elements: elements)
    }

    static let elementFields: Set<String> = [
        "id", "label", "value", "hint", "traits", "frame", "accessible", "children", "order", "group", "hidden",
        "modal", "actions", "adjust", "activate", "magicTap", "escape", "scrollUp", "scrollDown", "progress", "brailleLabel",
    ]

    /// Appends the element and its subtree to `elements` (pre-order) and returns its index.
    @discardableResult
    mutating func element(_ node: JSONNode, _ path: JSONPath, parent: Int?, into elements: inout [Element]) throws(Diagnostic) -> Int {
        let f = try object(node, path, known: Self.elementFields)
        guard let idField = f["id"] else { throw fail(node, path, "missing field \"id\"") }
        var e = Element(id: try string(idField.node, idField.path))
        guard !e.id.isEmpty else { throw fail(idField.node, idField.path, "an id must not be empty") }
        validator.define(id: e.id, line: idField.node.line, path: idField.path)
        e.parent = parent
        if let x = f["label"] { e.label = try labelText(x.node, x.path) }
        if let x = f["brailleLabel"] { e.brailleLabel = try labelText(x.node, x.path) }
        if let x = f["value"] { e.value = try optionalString(x.node, x.path) }
        if let x = f["hint"] { e.hint = try optionalString(x.node, x.path) }
        if let x = f["traits"] { e.traits = try traits(x.node, x.path) }
        if let x = f["frame"] { e.frame = try frame(x.node, x.path) }
        if let x = f["accessible"] { e.accessible = try bool(x.node, x.path) }
        if let x = f["group"] { e.group = try bool(x.node, x.path) }
        if let x = f["hidden"] { e.hidden = try bool(x.node, x.path) }
        if let x = f["modal"] { e.modal = try bool(x.node, x.path) }
        if let x = f["order"] {
            var ids: [String] = []
            for (n, p) in try array(x.node, x.path) {
                let id = try string(n, p)
                validator.expect(.orderEntry(owner: e.id, screen: screenNumber, id: id), line: n.line, path: p)
                ids.append(id)
            }
            e.order = ids
        }
        if let x = f["actions"] {
            for (n, p) in try array(x.node, x.path) {
                let a = try object(n, p, known: ["name", "do"])
                guard let name = a["name"] else { throw fail(n, p, "missing field \"name\"") }
                e.actions.append(CustomAction(
                    name: try string(name.node, name.path),
                    effects: try a["do"].map { y throws(Diagnostic) in try effects(y.node, y.path) } ?? []))
            }
        }
        if let x = f["adjust"] { e.adjust = try adjust(x.node, x.path) }
        if let x = f["activate"] { e.activate = try effects(x.node, x.path) }
        if let x = f["magicTap"] { e.magicTap = try effects(x.node, x.path) }
        if let x = f["escape"] { e.escape = try effects(x.node, x.path) }
        if let x = f["scrollUp"] { e.scrollUp = try effects(x.node, x.path) }
        if let x = f["scrollDown"] { e.scrollDown = try effects(x.node, x.path) }
        if let x = f["progress"] {
            let p = try object(x.node, x.path, known: ["label", "value"])
            var value: Double?
            if let v = p["value"], v.node.kind != JSONNode.Kind.null {
                value = try number(v.node, v.path)
                guard (0...1).contains(value!) else { throw fail(v.node, v.path, "progress must be between 0 and 1, found \(value!)") }
            }
            e.progress = Progress(label: try p["label"].map { y throws(Diagnostic) in try string(y.node, y.path) }, value: value)
        }
        let me = elements.count
        elements.append(e)
        if let x = f["children"] {
            var kids: [Int] = []
            for (n, p) in try array(x.node, x.path) { kids.append(try element(n, p, parent: me, into: &elements)) }
            elements[me].children = kids
        }
        return me
    }

    mutating func labelText(_ node: JSONNode, _ path: JSONPath) throws(Diagnostic) -> LabelText {
        if case .string(let s) = node.kind { return .plain(s) }
        guard node.members != nil else { throw fail(node, path, "expected a string or {\"key\", \"args\"}, found \(node.typeName)") }
        let f = try object(node, path, known: ["key", "args"])
        guard let key = f["key"] else { throw fail(node, path, "missing field \"key\"") }
        var args: [String] = []
        if let a = f["args"] { for (n, p) in try array(a.node, a.path) { args.append(try string(n, p)) } }
        let k = try string(key.node, key.path)
        validator.expect(.stringKey(key: k, args: args.count), line: key.node.line, path: key.path)
        return .localized(key: k, args: args)
    }

    func traits(_ node: JSONNode, _ path: JSONPath) throws(Diagnostic) -> Traits {
        var t: Traits = []
        for (n, p) in try array(node, path) {
            let name = try string(n, p)
            guard let trait = Traits(name: name) else {
                throw fail(n, p, "unknown trait \"\(name)\" (known: \(Traits.named.map(\.name).joined(separator: " ")))")
            }
            t.insert(trait)
        }
        return t
    }

    func frame(_ node: JSONNode, _ path: JSONPath) throws(Diagnostic) -> Frame {
        let items = try array(node, path)
        guard items.count == 4 else { throw fail(node, path, "a frame is [x, y, width, height], found \(items.count) numbers") }
        var v: [Double] = []
        for (n, p) in items { v.append(try number(n, p)) }
        guard v[2] >= 0, v[3] >= 0 else { throw fail(node, path, "a frame's width and height must not be negative") }
        return Frame(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    mutating func adjust(_ node: JSONNode, _ path: JSONPath) throws(Diagnostic) -> Adjust {
        let f = try object(node, path, known: ["value", "min", "max", "step", "format", "do"])
        func num(_ k: String, _ d: Double) throws(Diagnostic) -> Double {
            guard let x = f[k] else { return d }
            return try number(x.node, x.path)
        }
        let value = try num("value", 0), lo = try num("min", 0), hi = try num("max", 100), step = try num("step", 1)
        guard lo <= hi else { throw fail(node, path, "min \(lo) is greater than max \(hi)") }
        guard step > 0 else { throw fail(f["step"]?.node ?? node, f["step"]?.path ?? path, "step must be greater than 0") }
        guard (lo...hi).contains(value) else { throw fail(f["value"]?.node ?? node, f["value"]?.path ?? path, "value \(value) is outside \(lo)...\(hi)") }
        if let fmt = f["format"], case .string(let s) = fmt.node.kind, StringFormat.argumentCount(s) > 1 {
            throw fail(fmt.node, fmt.path, "a format takes one number (%@), found \(StringFormat.argumentCount(s)) placeholders")
        }
        return Adjust(
            value: value, min: lo, max: hi, step: step,
            format: try f["format"].map { x throws(Diagnostic) in try string(x.node, x.path) },
            effects: try f["do"].map { x throws(Diagnostic) in try effects(x.node, x.path) } ?? [])
    }

    mutating func effects(_ node: JSONNode, _ path: JSONPath) throws(Diagnostic) -> [Effect] {
        var out: [Effect] = []
        for (n, p) in try array(node, path) { out.append(try effect(n, p)) }
        return out
    }

    mutating func effect(_ node: JSONNode, _ path: JSONPath) throws(Diagnostic) -> Effect {
        guard let members = node.members else { throw fail(node, path, "expected an effect object, found \(node.typeName)") }
        let keys = Set(members.map(\.key))
        func field(_ f: Fields, _ k: String) throws(Diagnostic) -> (node: JSONNode, path: JSONPath) {
            guard let x = f[k] else { throw fail(node, path, "missing field \"\(k)\"") }
            return x
        }
        if keys.contains("set") {
            let f = try object(node, path, known: ["set", "label", "value", "hint", "traits", "hidden", "modal"])
            var c = ElementChanges()
            if let x = f["label"] { c.label = try labelText(x.node, x.path) }
            if let x = f["value"] { c.value = .some(try optionalString(x.node, x.path)) }
            if let x = f["hint"] { c.hint = .some(try optionalString(x.node, x.path)) }
            if let x = f["traits"] { c.traits = try traits(x.node, x.path) }
            if let x = f["hidden"] { c.hidden = try bool(x.node, x.path) }
            if let x = f["modal"] { c.modal = try bool(x.node, x.path) }
            let id = try field(f, "set")
            return .set(id: try reference(.element, id), changes: c)
        }
        if keys.contains("adjust") {
            let f = try object(node, path, known: ["adjust", "by"])
            let by = try f["by"].map { x throws(Diagnostic) in try number(x.node, x.path) } ?? 1
            let id = try field(f, "adjust")
            return .adjust(id: try reference(.adjustable, id), by: by)
        }
        if keys.contains("show") || keys.contains("hide") {
            let k = keys.contains("show") ? "show" : "hide"
            let f = try object(node, path, known: [k])
            let id = try field(f, k)
            return .set(id: try reference(.element, id), changes: ElementChanges(hidden: k == "hide"))
        }
        if keys.contains("screen") {
            let f = try object(node, path, known: ["screen"])
            let id = try field(f, "screen")
            return .screen(try reference(.screen, id))
        }
        if keys.contains("back") {
            let f = try object(node, path, known: ["back"])
            let b = try field(f, "back")
            guard try bool(b.node, b.path) else { throw fail(b.node, b.path, "\"back\" must be true") }
            return .back
        }
        if keys.contains("load") {
            let f = try object(node, path, known: ["load", "ms", "steps", "then"])
            let id = try field(f, "load")
            let ms = try f["ms"].map { x throws(Diagnostic) in try integer(x.node, x.path) } ?? 1000
            let steps = try f["steps"].map { x throws(Diagnostic) in try integer(x.node, x.path) } ?? 1
            guard ms >= 0, ms <= 3_600_000 else { throw fail(f["ms"]!.node, f["ms"]!.path, "ms must be between 0 and 3600000") }
            guard steps >= 1, steps <= 10_000 else { throw fail(f["steps"]!.node, f["steps"]!.path, "steps must be between 1 and 10000") }
            return .load(id: try reference(.indicator, id), ms: ms, steps: steps,
                         then: try f["then"].map { x throws(Diagnostic) in try effects(x.node, x.path) } ?? [])
        }
        if keys.contains("post") {
            // Fix: the kind is read directly; going through `object` here warned about every
            // unknown field a second time when the notification's own fields were read below.
            let kind = (node: node["post"]!, path: path.key("post"))
            let name = try string(kind.node, kind.path)
            switch name {
            case "announcement":
                let f = try object(node, path, known: ["post", "text", "priority", "delay"])
                let text = try field(f, "text")
                var priority = AnnouncementPriority.default
                if let p = f["priority"] {
                    let s = try string(p.node, p.path)
                    guard let v = AnnouncementPriority(rawValue: s) else { throw fail(p.node, p.path, "priority is \"high\" or \"default\", found \"\(s)\"") }
                    priority = v
                }
                let delay = try f["delay"].map { x throws(Diagnostic) in try integer(x.node, x.path) } ?? 0
                guard delay >= 0, delay <= 3_600_000 else { throw fail(f["delay"]!.node, f["delay"]!.path, "delay must be between 0 and 3600000 ms") }
                return .announcement(text: try string(text.node, text.path), priority: priority, delay: delay)
            case "layoutChanged", "screenChanged":
                let f = try object(node, path, known: ["post", "focus"])
                let focus = try f["focus"].map { x throws(Diagnostic) in try reference(.element, x) }
                return name == "layoutChanged" ? .layoutChanged(focus: focus) : .screenChanged(focus: focus)
            case "pageScrolled":
                let f = try object(node, path, known: ["post", "text"])
                let text = try field(f, "text")
                return .pageScrolled(text: try string(text.node, text.path))
            default:
                throw fail(kind.node, kind.path, "unknown notification \"\(name)\" (known: announcement layoutChanged screenChanged pageScrolled)")
            }
        }
        throw fail(node, path, "unknown effect (expected one of: set adjust show hide screen back post load)")
    }
}

extension CatalogDecoder {
    /// Decodes one effect written as JSON on line `line` of `file` (a scenario's `post {…}`),
    /// checking its references against `catalog`.
    public static func effect(json: String, file: String, line: Int, catalog: Catalog) throws(Diagnostic) -> Effect {
        let node: JSONNode
        do { node = try JSONParser.parse(json) } catch {
            throw Diagnostic(file: file, line: line, path: "", message: error.message)
        }
        var reader = NodeReader(file: file, diagnostics: Diagnostics(), validator: CatalogValidator(file: file))
        let effect: Effect
        do { effect = try reader.effect(node, JSONPath.root.key("post")) } catch {
            var e = error
            e.line = line
            throw e
        }
        if var first = reader.validator.validate(catalog).first {
            first.line = line
            throw first
        }
        return effect
    }
}
