extension NodeReader {
    enum ElementField: Int, FieldSet {
        case id, label, value, hint, traits, frame, accessible, children, order, group, hidden
        case modal, actions, adjust, activate, magicTap, escape, scrollUp, scrollDown, progress, brailleLabel, lint
        case container, cell, source
        static let names = FieldNames(Self.self, [
            "id", "label", "value", "hint", "traits", "frame", "accessible", "children", "order", "group", "hidden",
            "modal", "actions", "adjust", "activate", "magicTap", "escape", "scrollUp", "scrollDown", "progress", "brailleLabel",
            "lint", "container", "cell", "source",
        ])
    }

    /// A children-list edit of an `update` (Docs/protocol.md#edits).
    enum EditField: Int, FieldSet {
        case parent, remove, insert, after, before
        static let names = FieldNames(Self.self, ["parent", "remove", "insert", "after", "before"])
    }

    enum ActionField: Int, FieldSet {
        case name, `do`
        static let names = FieldNames(Self.self, ["name", "do"])
    }

    enum ProgressField: Int, FieldSet {
        case label, value
        static let names = FieldNames(Self.self, ["label", "value"])
    }

    /// Appends the element and its subtree to `elements` (pre-order) and returns its index.
    ///
    /// Fields are read in a fixed order, whatever their order in the file, so that the first
    /// error reported is always the same one.
    @discardableResult
    mutating func element(_ node: Int, parent: Int?, into elements: inout [Element]) throws(Diagnostic) -> Int {
        let f = try object(node, known: ElementField.self)
        let id = try elementID(node, f)
        // Built in place in the table (its children come after it, in pre-order).
        let me = elements.count
        elements.append(Element(id: id))
        elements[me].parent = parent
        try readFields(f, into: &elements[me])
        if let x = f[.lint] { elementLint[me] = try lintException(x) }
        if let x = f[.source] { elementSources[me] = try string(x) }
        if let x = f[.children] {
            let items = try array(x)
            var kids: [Int] = []
            kids.reserveCapacity(items.count)
            for n in items { kids.append(try element(n, parent: me, into: &elements)) }
            elements[me].children = kids
        }
        return me
    }

    enum LintField: Int, FieldSet {
        case allow, why
        static let names = FieldNames(Self.self, ["allow", "why"])
    }

    /// `{"allow": [rule ids], "why": "reason"}`: both required, so every exception says why.
    mutating func lintException(_ node: Int) throws(Diagnostic) -> LintException {
        let f = try object(node, known: LintField.self)
        guard let allow = f[.allow] else { throw fail(node, "missing field \"allow\" (the rule ids this exception allows)") }
        guard let why = f[.why] else { throw fail(node, "missing field \"why\" (a lint exception says why it is deliberate)") }
        var rules: [String] = []
        for n in try array(allow) { rules.append(try string(n)) }
        guard !rules.isEmpty else { throw fail(allow, "\"allow\" names no rule") }
        let reason = try string(why)
        guard !reason.allSatisfy(\.isWhitespace) else { throw fail(why, "\"why\" must say why") }
        return LintException(allow: rules, why: reason, line: tape.line(node - 1))
    }

    /// An element's `id`: present, a string, not empty; its place is remembered for duplicates.
    mutating func elementID(_ node: Int, _ f: Fields<ElementField>) throws(Diagnostic) -> String {
        guard let idField = f[.id] else { throw fail(node, "missing field \"id\"") }
        let id = try string(idField)
        guard !id.isEmpty else { throw fail(idField, "an id must not be empty") }
        idSites.append(CatalogValidator.IDSite(line: tape.line(idField), node: idField))
        return id
    }

    /// Reads every field but `id` and `children` into `e`. With `appMode`, effects are not read
    /// (an app acts itself): `activate`, `magicTap`, `escape`, `scrollUp`, `scrollDown` only say
    /// that the element handles them (`true` or any list), and actions are their names; with
    /// `nullClears`, a field set to `null` is left at its default (a `set` that clears it).
    mutating func readFields(_ f: Fields<ElementField>, into e: inout Element, nullClears: Bool = false) throws(Diagnostic) {
        func given(_ field: ElementField) -> Int? {
            guard let x = f[field] else { return nil }
            return nullClears && tape.tag(x) == .null ? nil : x
        }
        if let x = given(.label) { e.label = try labelText(x) }
        if let x = given(.brailleLabel) { e.brailleLabel = try labelText(x) }
        if let x = given(.value) { e.value = try optionalString(x) }
        if let x = given(.hint) { e.hint = try optionalString(x) }
        if let x = given(.traits) { e.traits = try traits(x) }
        if let x = given(.frame) { e.frame = try frame(x) }
        if let x = given(.accessible) { e.accessible = try bool(x) }
        if let x = given(.group) { e.group = try bool(x) }
        if let x = given(.hidden) { e.hidden = try bool(x) }
        if let x = given(.modal) { e.modal = try bool(x) }
        if let x = given(.container) { e.container = try containerType(x) }
        if let x = given(.cell) { e.cell = try tableCell(x) }
        if let x = given(.order) {
            let items = try array(x)
            var ids: [String] = []
            ids.reserveCapacity(items.count)
            for n in items {
                let entry = try string(n)
                if !appMode { validator.expect(.orderEntry(owner: e.id, screen: screenNumber, id: entry), line: tape.line(n), node: n) }
                ids.append(entry)
            }
            e.order = ids
        }
        if let x = given(.actions) {
            let items = try array(x)
            var actions: [CustomAction] = []
            actions.reserveCapacity(items.count)
            for n in items {
                let a = try object(n, known: ActionField.self)
                guard let name = a[.name] else { throw fail(n, "missing field \"name\"") }
                actions.append(CustomAction(name: try string(name), effects: appMode ? [] : try effectsField(a[.do]) ?? []))
            }
            e.actions = actions
        }
        if let x = given(.adjust) { e.adjust = try adjust(x) }
        if let x = given(.activate) { e.activate = try handler(x) }
        if let x = given(.magicTap) { e.magicTap = try handler(x) }
        if let x = given(.escape) { e.escape = try handler(x) }
        if let x = given(.scrollUp) { e.scrollUp = try handler(x) }
        if let x = given(.scrollDown) { e.scrollDown = try handler(x) }
        if let x = given(.progress) {
            let p = try object(x, known: ProgressField.self)
            var value: Double?
            if let v = p[.value], tape.tag(v) != .null {
                let n = try number(v)
                guard (0...1).contains(n) else { throw fail(v, "progress must be between 0 and 1, found \(n)") }
                value = n
            }
            e.progress = Progress(label: try stringField(p[.label]), value: value)
        }
    }

    /// Effects of a handler field; for an app, only whether it handles it: `true` or a list
    /// (its effects unread) is an empty list, `false` is none.
    mutating func handler(_ node: Int) throws(Diagnostic) -> [Effect]? {
        guard appMode else { return try effects(node) }
        switch tape.tag(node) {
        case .true, .array: return []
        case .false: return nil
        default: throw fail(node, "expected true, false or a list of effects, found \(tape.typeName(node))")
        }
    }

    enum LabelField: Int, FieldSet {
        case key, args
        static let names = FieldNames(Self.self, ["key", "args"])
    }

    mutating func labelText(_ node: Int) throws(Diagnostic) -> LabelText {
        if isString(node) { return .plain(tape.string(node)) }
        guard tape.tag(node) == .object else {
            throw fail(node, "expected a string or {\"key\", \"args\"}, found \(tape.typeName(node))")
        }
        let f = try object(node, known: LabelField.self)
        guard let key = f[.key] else { throw fail(node, "missing field \"key\"") }
        var args: [String] = []
        if let a = f[.args] {
            let items = try array(a)
            args.reserveCapacity(items.count)
            for n in items { args.append(try string(n)) }
        }
        let k = try string(key)
        validator.expect(.stringKey(key: k, args: args.count), line: tape.line(key), node: key)
        return .localized(key: k, args: args)
    }

    /// Trait names matched without making strings (as `Traits(name:)` would match them).
    static let traitNames = FieldNames(Traits.named.map(\.name))

    func traits(_ node: Int) throws(Diagnostic) -> Traits {
        var t: Traits = []
        for n in try array(node) {
            guard isString(n) else { throw fail(n, "expected a string, found \(tape.typeName(n))") }
            guard let slot = Self.traitNames.slot(n, tape) else {
                let name = tape.string(n)
                throw fail(n, "unknown trait \"\(name)\" (known: \(Traits.named.map(\.name).joined(separator: " ")))")
            }
            t.insert(Traits.named[slot].trait)
        }
        return t
    }

    func containerType(_ node: Int) throws(Diagnostic) -> ContainerType? {
        let name = try string(node)
        if name == "none" { return nil }
        guard let type = ContainerType(rawValue: name) else {
            let known = (["none"] + ContainerType.allCases.map(\.rawValue)).joined(separator: " ")
            throw fail(node, "unknown container type \"\(name)\" (known: \(known))")
        }
        return type
    }

    enum CellField: Int, FieldSet {
        case row, column, rowSpan, columnSpan, header
        static let names = FieldNames(Self.self, ["row", "column", "rowSpan", "columnSpan", "header"])
    }

    mutating func tableCell(_ node: Int) throws(Diagnostic) -> TableCell {
        let f = try object(node, known: CellField.self)
        func whole(_ k: CellField, _ lowest: Int, default d: Int?) throws(Diagnostic) -> Int {
            guard let x = f[k] else {
                if let d { return d }
                throw fail(node, "missing field \"\(CellField.names.names[k.rawValue])\"")
            }
            let n = try integer(x)
            guard n >= lowest else { throw fail(x, "expected a whole number of at least \(lowest), found \(n)") }
            return n
        }
        var header: TableCell.Header?
        if let x = f[.header] {
            let name = try string(x)
            guard let h = TableCell.Header(rawValue: name) else {
                throw fail(x, "unknown header kind \"\(name)\" (known: row column)")
            }
            header = h
        }
        return TableCell(row: try whole(.row, 0, default: nil), column: try whole(.column, 0, default: nil),
                         rowSpan: try whole(.rowSpan, 1, default: 1), columnSpan: try whole(.columnSpan, 1, default: 1),
                         header: header)
    }

    func frame(_ node: Int) throws(Diagnostic) -> Frame {
        let items = try array(node)
        guard items.count == 4 else { throw fail(node, "a frame is [x, y, width, height], found \(items.count) numbers") }
        let x = node + 1, y = tape.end(x), w = tape.end(y), h = tape.end(w)
        let frame = Frame(x: try number(x), y: try number(y), width: try number(w), height: try number(h))
        guard frame.width >= 0, frame.height >= 0 else { throw fail(node, "a frame's width and height must not be negative") }
        return frame
    }

    enum AdjustField: Int, FieldSet {
        case value, min, max, step, format, `do`
        static let names = FieldNames(Self.self, ["value", "min", "max", "step", "format", "do"])
    }

    mutating func adjust(_ node: Int) throws(Diagnostic) -> Adjust {
        let f = try object(node, known: AdjustField.self)
        func num(_ k: AdjustField, _ d: Double) throws(Diagnostic) -> Double {
            guard let x = f[k] else { return d }
            return try number(x)
        }
        let value = try num(.value, 0), lo = try num(.min, 0), hi = try num(.max, 100), step = try num(.step, 1)
        guard lo <= hi else { throw fail(node, "min \(lo) is greater than max \(hi)") }
        guard step > 0 else { throw fail(f[.step] ?? node, "step must be greater than 0") }
        guard (lo...hi).contains(value) else { throw fail(f[.value] ?? node, "value \(value) is outside \(lo)...\(hi)") }
        var format: String?
        if let fmt = f[.format] {
            guard isString(fmt) else { throw fail(fmt, "expected a string, found \(tape.typeName(fmt))") }
            let s = tape.string(fmt)
            let count: Int
            if let known = formatArguments[s] { count = known } else {
                count = StringFormat.argumentCount(s)
                formatArguments[s] = count
            }
            if count > 1 { throw fail(fmt, "a format takes one number (%@), found \(count) placeholders") }
            format = s
        }
        return Adjust(value: value, min: lo, max: hi, step: step, format: format, effects: appMode ? [] : try effectsField(f[.do]) ?? [])
    }
}
