extension NodeReader {
    /// A field's effects, or `nil` when the field is absent.
    mutating func effectsField(_ node: Int?) throws(Diagnostic) -> [Effect]? {
        guard let node else { return nil }
        return try effects(node)
    }

    mutating func effects(_ node: Int) throws(Diagnostic) -> [Effect] {
        let items = try array(node)
        var out: [Effect] = []
        out.reserveCapacity(items.count)
        for n in items { out.append(try effect(n)) }
        return out
    }

    /// The keys that say which effect an object is, in the order they are tried.
    enum EffectKind: Int, FieldSet {
        case set, adjust, show, hide, screen, back, load, post
        static let names = FieldNames(Self.self, ["set", "adjust", "show", "hide", "screen", "back", "load", "post"])
    }

    enum SetField: Int, FieldSet {
        case set, label, value, hint, traits, hidden, modal
        static let names = FieldNames(Self.self, ["set", "label", "value", "hint", "traits", "hidden", "modal"])
    }

    enum AdjustByField: Int, FieldSet {
        case adjust, by
        static let names = FieldNames(Self.self, ["adjust", "by"])
    }

    enum ShowField: Int, FieldSet {
        case show
        static let names = FieldNames(Self.self, ["show"])
    }

    enum HideField: Int, FieldSet {
        case hide
        static let names = FieldNames(Self.self, ["hide"])
    }

    enum ScreenChangeField: Int, FieldSet {
        case screen
        static let names = FieldNames(Self.self, ["screen"])
    }

    enum BackField: Int, FieldSet {
        case back
        static let names = FieldNames(Self.self, ["back"])
    }

    enum LoadField: Int, FieldSet {
        case load, ms, steps, then
        static let names = FieldNames(Self.self, ["load", "ms", "steps", "then"])
    }

    enum AnnouncementField: Int, FieldSet {
        case post, text, priority, delay
        static let names = FieldNames(Self.self, ["post", "text", "priority", "delay"])
    }

    enum FocusChangeField: Int, FieldSet {
        case post, focus
        static let names = FieldNames(Self.self, ["post", "focus"])
    }

    enum PageScrolledField: Int, FieldSet {
        case post, text
        static let names = FieldNames(Self.self, ["post", "text"])
    }

    mutating func effect(_ node: Int) throws(Diagnostic) -> Effect {
        guard tape.tag(node) == .object else { throw fail(node, "expected an effect object, found \(tape.typeName(node))") }
        let kind = fields(node, EffectKind.self)
        func field<F>(_ f: Fields<F>, _ k: F) throws(Diagnostic) -> Int {
            guard let x = f[k] else { throw fail(node, "missing field \"\(F.names.names[k.rawValue])\"") }
            return x
        }
        if kind[.set] != nil {
            let f = try object(node, known: SetField.self)
            var c = ElementChanges()
            if let x = f[.label] { c.label = try labelText(x) }
            if let x = f[.value] { c.value = .some(try optionalString(x)) }
            if let x = f[.hint] { c.hint = .some(try optionalString(x)) }
            if let x = f[.traits] { c.traits = try traits(x) }
            if let x = f[.hidden] { c.hidden = try bool(x) }
            if let x = f[.modal] { c.modal = try bool(x) }
            let id = try field(f, .set)
            return .set(id: try reference(.element, id), changes: c)
        }
        if kind[.adjust] != nil {
            let f = try object(node, known: AdjustByField.self)
            var by = 1.0
            if let x = f[.by] { by = try number(x) }
            let id = try field(f, .adjust)
            return .adjust(id: try reference(.adjustable, id), by: by)
        }
        if kind[.show] != nil {
            let id = try field(try object(node, known: ShowField.self), .show)
            return .set(id: try reference(.element, id), changes: ElementChanges(hidden: false))
        }
        if kind[.hide] != nil {
            let id = try field(try object(node, known: HideField.self), .hide)
            return .set(id: try reference(.element, id), changes: ElementChanges(hidden: true))
        }
        if kind[.screen] != nil {
            let id = try field(try object(node, known: ScreenChangeField.self), .screen)
            return .screen(try reference(.screen, id))
        }
        if kind[.back] != nil {
            let b = try field(try object(node, known: BackField.self), .back)
            guard try bool(b) else { throw fail(b, "\"back\" must be true") }
            return .back
        }
        if kind[.load] != nil {
            let f = try object(node, known: LoadField.self)
            let id = try field(f, .load)
            var ms = 1000, steps = 1
            if let x = f[.ms] { ms = try integer(x) }
            if let x = f[.steps] { steps = try integer(x) }
            guard ms >= 0, ms <= 3_600_000 else { throw fail(f[.ms]!, "ms must be between 0 and 3600000") }
            guard steps >= 1, steps <= 10_000 else { throw fail(f[.steps]!, "steps must be between 1 and 10000") }
            let target = try reference(.indicator, id)
            return .load(id: target, ms: ms, steps: steps, then: try effectsField(f[.then]) ?? [])
        }
        if let post = kind[.post] {
            // The kind is read directly; going through `object` here warned about every unknown
            // field a second time when the notification's own fields were read below.
            let name = try string(post)
            switch name {
            case "announcement":
                let f = try object(node, known: AnnouncementField.self)
                let text = try field(f, .text)
                var priority = AnnouncementPriority.default
                if let p = f[.priority] {
                    let s = try string(p)
                    guard let v = AnnouncementPriority(rawValue: s) else { throw fail(p, "priority is \"high\" or \"default\", found \"\(s)\"") }
                    priority = v
                }
                var delay = 0
                if let x = f[.delay] { delay = try integer(x) }
                guard delay >= 0, delay <= 3_600_000 else { throw fail(f[.delay]!, "delay must be between 0 and 3600000 ms") }
                return .announcement(text: try string(text), priority: priority, delay: delay)
            case "layoutChanged", "screenChanged":
                let f = try object(node, known: FocusChangeField.self)
                var focus: String?
                if let x = f[.focus] { focus = try reference(.element, x) }
                return name == "layoutChanged" ? .layoutChanged(focus: focus) : .screenChanged(focus: focus)
            case "pageScrolled":
                let f = try object(node, known: PageScrolledField.self)
                let text = try field(f, .text)
                return .pageScrolled(text: try string(text))
            default:
                throw fail(post, "unknown notification \"\(name)\" (known: announcement layoutChanged screenChanged pageScrolled)")
            }
        }
        throw fail(node, "unknown effect (expected one of: set adjust show hide screen back post load)")
    }
}

extension CatalogDecoder {
    /// Decodes one effect written as JSON on line `line` of `file` (a scenario's `post {…}`),
    /// checking its references against `catalog`.
    public static func effect(json: String, file: String, line: Int, catalog: Catalog) throws(Diagnostic) -> Effect {
        let tape: JSONTape
        do { tape = try JSONParser.tape(Array(json.utf8)) } catch {
            throw Diagnostic(file: file, line: line, path: "", message: error.message)
        }
        return try tape.read { (view) throws(Diagnostic) in
            var reader = NodeReader(file: file, tape: view, root: "post")
            let effect: Effect
            do throws(Diagnostic) { effect = try reader.effect(0) } catch {
                var e = error
                e.line = line
                throw e
            }
            if var first = reader.validator.validate(catalog, paths: { view.paths($0, root: "post") }).first {
                first.line = line
                throw first
            }
            return effect
        }
    }
}
