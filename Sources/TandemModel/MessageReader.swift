/// Reads one JSON object — a control-protocol message (Docs/protocol.md) — with the catalog's
/// line-aware decoder, so that what an app sends is checked exactly as a catalog is and every
/// error names the message's line on its connection and the JSON path (`nodes[2].traits[0]`).
///
/// Elements are read in app mode: effects are not read (the app acts itself), only whether an
/// element handles an action. Use the reader only inside `read`'s closure.
public struct MessageReader {
    var reader: NodeReader
    let line: Int

    /// Parses `bytes` as one JSON object and runs `body` with a reader of it. `line` is the
    /// line number errors carry.
    public static func read<R>(_ bytes: [UInt8], line: Int, _ body: (inout MessageReader) throws(Diagnostic) -> R) throws(Diagnostic) -> R {
        let tape: JSONTape
        do { tape = try JSONParser.tape(bytes) } catch {
            throw Diagnostic(file: "", line: line, path: "", message: "not valid JSON: \(error.message)")
        }
        return try tape.read { (view) throws(Diagnostic) in
            guard view.tag(0) == .object else {
                throw Diagnostic(file: "", line: line, path: "", message: "a message is a JSON object, found \(view.typeName(0))")
            }
            var r = MessageReader(reader: NodeReader(file: "", tape: view, root: nil), line: line)
            r.reader.appMode = true
            do throws(Diagnostic) { return try body(&r) } catch {
                var d = error
                d.line = line
                throw d
            }
        }
    }

    /// The tape index of a top-level member's value.
    func member(_ key: String) -> Int? {
        let tape = reader.tape
        var k = 1
        for _ in 0..<tape.count(0) {
            if tape.string(k) == key { return k + 1 }
            k = tape.end(k + 1)
        }
        return nil
    }

    /// The top-level keys, in order.
    public var keys: [String] {
        let tape = reader.tape
        var out: [String] = []
        var k = 1
        for _ in 0..<tape.count(0) {
            out.append(tape.string(k))
            k = tape.end(k + 1)
        }
        return out
    }

    public func has(_ key: String) -> Bool { member(key) != nil }

    /// Whether the member is there and `null`.
    public func isNull(_ key: String) -> Bool { member(key).map { reader.tape.tag($0) == .null } ?? false }

    /// A member's value as a tree (for values echoed back as they came, such as a request `id`).
    public func value(_ key: String) -> JSONNode? { member(key).map { reader.tape.node($0) } }

    /// A string member; nil when absent; an error when it is not a string.
    public func string(_ key: String) throws(Diagnostic) -> String? {
        guard let x = member(key) else { return nil }
        return try reader.string(x)
    }

    public func number(_ key: String) throws(Diagnostic) -> Double? {
        guard let x = member(key) else { return nil }
        return try reader.number(x)
    }

    public func integer(_ key: String) throws(Diagnostic) -> Int? {
        guard let x = member(key) else { return nil }
        return try reader.integer(x)
    }

    public func bool(_ key: String) throws(Diagnostic) -> Bool? {
        guard let x = member(key) else { return nil }
        return try reader.bool(x)
    }

    public func strings(_ key: String) throws(Diagnostic) -> [String]? {
        guard let x = member(key) else { return nil }
        var out: [String] = []
        for n in try reader.array(x) { out.append(try reader.string(n)) }
        return out
    }

    /// An error about a member (or the whole message, for nil), with its path.
    public func failure(_ key: String?, _ message: String) -> Diagnostic {
        guard let key, let x = member(key) else { return Diagnostic(file: "", line: line, path: "", message: message) }
        return reader.fail(x, message)
    }

    /// The element fields a `set` can change, for its error naming a field it does not know.
    static let settableFields = NodeReader.ElementField.names.names.filter { $0 != "id" && $0 != "children" }

    /// An unknown field inside an element (or an edit) is refused, not ignored as a catalog's
    /// is: a node replaces its element whole, so a dropped "lable" would clear the label.
    func refuseUnknownFields() throws(Diagnostic) {
        guard let (node, known) = reader.unknownFields.first else { return }
        throw reader.fail(node, FieldSuggestion.unknownField(reader.tape.string(node - 1), known: known))
    }

    /// A screen object (Docs/formats.md#catalog), its elements read as an app sends them;
    /// ids must be unique and the screen's `focus` on it.
    public mutating func screen(_ key: String) throws(Diagnostic) -> Screen {
        guard let x = member(key) else { throw failure(nil, "missing field \"\(key)\"") }
        var duplicates: [(element: Int, first: Int)] = []
        reader.idSites = []
        let screen = try reader.screen(x, size: 16, duplicates: &duplicates)
        if let d = duplicates.first {
            let site = reader.idSites[d.element]
            throw Diagnostic(file: "", line: line, path: reader.tape.path(site.node, root: nil),
                             message: "duplicate element id \"\(screen.elements[d.element].id)\"")
        }
        if let f = screen.focus, screen.index[f] == nil {
            throw failure(key, "the screen's focus \"\(f)\" is not one of its elements")
        }
        try refuseUnknownFields()
        return screen
    }

    /// What an `update` message carries against `Screen.maxUpdateNodes` — its `nodes` plus the
    /// ids its `edits` remove or insert — counted from the parsed JSON alone, before any
    /// element is read, so an update over the limit costs only its parsing. Members of another
    /// type count nothing here (reading them names the mistake).
    public func updateSize() -> Int {
        let tape = reader.tape
        var size = 0
        if let n = member("nodes"), tape.tag(n) == .array { size += tape.count(n) }
        guard let e = member("edits"), tape.tag(e) == .array else { return size }
        var at = e + 1
        for _ in 0..<tape.count(e) {
            if tape.tag(at) == .object {
                let f = reader.fields(at, NodeReader.EditField.self)
                if let a = f[.remove], tape.tag(a) == .array { size += tape.count(a) }
                if let a = f[.insert], tape.tag(a) == .array { size += tape.count(a) }
            }
            at = tape.end(at)
        }
        return size
    }

    /// Tree-update nodes: elements whose `children` are lists of ids.
    public mutating func nodes(_ key: String) throws(Diagnostic) -> [TreeUpdate.Node] {
        guard let x = member(key) else { throw failure(nil, "missing field \"\(key)\"") }
        let items = try reader.array(x)
        // A node is an element's size: reserved, so a large update is not moved as it grows.
        var out: [TreeUpdate.Node] = []
        out.reserveCapacity(items.remaining)
        for n in items {
            let f = try reader.object(n, known: NodeReader.ElementField.self)
            var e = Element(id: try reader.elementID(n, f))
            try reader.readFields(f, into: &e)
            var childIDs: [String]?
            if let c = f[.children] {
                var ids: [String] = []
                for item in try reader.array(c) { ids.append(try reader.string(item)) }
                childIDs = ids
            }
            out.append(TreeUpdate.Node(element: e, childIDs: childIDs))
        }
        try refuseUnknownFields()
        return out
    }

    /// The children-list edits of an `update` (Docs/protocol.md#edits); nil when absent.
    public mutating func edits(_ key: String) throws(Diagnostic) -> [TreeUpdate.ChildrenEdit]? {
        guard let x = member(key) else { return nil }
        var out: [TreeUpdate.ChildrenEdit] = []
        for n in try reader.array(x) {
            let f = try reader.object(n, known: NodeReader.EditField.self)
            guard let p = f[.parent] else { throw reader.fail(n, "an edit needs its \"parent\" (the element whose children it changes)") }
            let parent = try reader.string(p)
            func ids(_ field: NodeReader.EditField) throws(Diagnostic) -> [String] {
                guard let a = f[field] else { return [] }
                var ids: [String] = []
                for item in try reader.array(a) { ids.append(try reader.string(item)) }
                return ids
            }
            let remove = try ids(.remove), insert = try ids(.insert)
            var place = TreeUpdate.ChildrenEdit.Place.end
            switch (f[.after], f[.before]) {
            case (let a?, nil): place = .after(try reader.string(a))
            case (nil, let b?): place = .before(try reader.string(b))
            case (_?, let b?): throw reader.fail(b, "an edit has \"after\" or \"before\", not both")
            case (nil, nil): break
            }
            if place != .end && insert.isEmpty {
                throw reader.fail(f[.after] ?? f[.before]!, "\"after\" and \"before\" place what an edit inserts; this one inserts nothing")
            }
            out.append(TreeUpdate.ChildrenEdit(parent: parent, remove: remove, insert: insert, place: place))
        }
        try refuseUnknownFields()
        return out
    }

    /// The element fields of the message itself (a `set`): which are given, and their values
    /// (`null` clears). `id` and `children` cannot be set.
    public mutating func patch() throws(Diagnostic) -> ElementPatch {
        let f = reader.fields(0, NodeReader.ElementField.self)
        // Every member is `type` or an element field (`id` among them) unless the counts differ:
        // only then are the keys read, to name the one that is not (a set is the hot message).
        let known = NodeReader.ElementField.allCases.reduce(has("type") ? 1 : 0) { $0 + (f[$1] == nil ? 0 : 1) }
        if reader.tape.count(0) > known {
            for key in keys where key != "type" && !NodeReader.ElementField.names.names.contains(key) {
                throw failure(key, FieldSuggestion.unknownField(key, known: Self.settableFields))
            }
        }
        if let c = f[.children] { throw reader.fail(c, "children cannot be set; send an update with the element's children") }
        var values = Element(id: "")
        try reader.readFields(f, into: &values, nullClears: true)
        var given: Set<ElementPatch.Field> = []
        for field in ElementPatch.Field.allCases where f[field.readerField] != nil { given.insert(field) }
        return ElementPatch(given: given, values: values)
    }
}

/// The fields a `set` message changes on one element, and their new values.
public struct ElementPatch: Sendable, Hashable {
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case label, value, hint, traits, frame, accessible, order, group, hidden, modal, actions, adjust
        case activate, magicTap, escape, scrollUp, scrollDown, progress, brailleLabel

        var readerField: NodeReader.ElementField {
            switch self {
            case .label: .label
            case .value: .value
            case .hint: .hint
            case .traits: .traits
            case .frame: .frame
            case .accessible: .accessible
            case .order: .order
            case .group: .group
            case .hidden: .hidden
            case .modal: .modal
            case .actions: .actions
            case .adjust: .adjust
            case .activate: .activate
            case .magicTap: .magicTap
            case .escape: .escape
            case .scrollUp: .scrollUp
            case .scrollDown: .scrollDown
            case .progress: .progress
            case .brailleLabel: .brailleLabel
            }
        }
    }

    public var given: Set<Field>
    /// The new values of the given fields (a cleared field has its default).
    public var values: Element

    public init(given: Set<Field>, values: Element) { self.given = given; self.values = values }

    /// Copies the given fields onto `e`.
    public func apply(to e: inout Element) {
        for f in given {
            switch f {
            case .label: e.label = values.label
            case .value: e.value = values.value
            case .hint: e.hint = values.hint
            case .traits: e.traits = values.traits
            case .frame: e.frame = values.frame
            case .accessible: e.accessible = values.accessible
            case .order: e.order = values.order
            case .group: e.group = values.group
            case .hidden: e.hidden = values.hidden
            case .modal: e.modal = values.modal
            case .actions: e.actions = values.actions
            case .adjust: e.adjust = values.adjust
            case .activate: e.activate = values.activate
            case .magicTap: e.magicTap = values.magicTap
            case .escape: e.escape = values.escape
            case .scrollUp: e.scrollUp = values.scrollUp
            case .scrollDown: e.scrollDown = values.scrollDown
            case .progress: e.progress = values.progress
            case .brailleLabel: e.brailleLabel = values.brailleLabel
            }
        }
    }
}
