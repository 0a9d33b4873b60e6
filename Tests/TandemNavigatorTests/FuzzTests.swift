import Foundation
import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
import TandemTestSupport

// A seeded fuzz test of the whole model → navigator path. It lives with the navigator tests
// because it drives a Navigator, which TandemModelTests cannot import.
//
// Every case either decodes or throws a Diagnostic that points at a real line; a catalog that
// decodes is then driven with a few hundred random commands, posted effects and timers, and
// nothing may trap. Cases are deterministic: case N of a kind always gets the same input.
//
// TANDEM_FUZZ_CASES=200000 swift test --filter Fuzz    # the "nightly" run
// TANDEM_FUZZ_SEED=7 …                                 # another sequence of inputs
// TANDEM_FUZZ_VERBOSE=1 …                              # name each case before it runs, to find the one that trapped

/// How many cases, from the environment or the default that keeps a debug run well under 20 s.
enum FuzzSettings {
    static let cases: Int = ProcessInfo.processInfo.environment["TANDEM_FUZZ_CASES"].flatMap { Int($0) } ?? 3000
    static let seed: UInt64 = ProcessInfo.processInfo.environment["TANDEM_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x7A4D_E11A
    static let verbose = ProcessInfo.processInfo.environment["TANDEM_FUZZ_VERBOSE"] != nil
    /// Random commands, effects and timers per catalog that decodes.
    static let steps = 250

    static func rng(kind: UInt64, case index: Int) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed ^ (kind &* 0x1000_0000_01B3) ^ UInt64(index))
        return SplitMix64(seed: mixer.next())
    }
}

@Suite("Fuzz: decoding and navigating never trap")
struct FuzzTests {
    /// Every fixture catalog, sorted so the cases do not depend on directory order.
    static let fixtures: [[UInt8]] = {
        var out: [[UInt8]] = []
        for folder in [FixtureFolder.model, .navigator] {
            for name in folder.catalogFiles() {
                if let bytes = try? folder.bytes(name) { out.append(bytes) }
            }
        }
        return out
    }()

    @Test("random bytes either decode or give a diagnostic on a real line")
    func randomBytes() {
        var report = FuzzReport()
        for i in 0..<max(1, FuzzSettings.cases / 5) {
            var rng = FuzzSettings.rng(kind: 1, case: i)
            let bytes = RandomInput.bytes(&rng)
            report.run(bytes, case: "bytes #\(i)", rng: &rng)
        }
        report.check()
    }

    @Test("random JSON, shaped like a catalog or not, decodes or gives a diagnostic, and navigates")
    func randomJSON() {
        var report = FuzzReport()
        for i in 0..<max(1, FuzzSettings.cases * 3 / 10) {
            var rng = FuzzSettings.rng(kind: 2, case: i)
            let text = rng.chance(80) ? RandomInput.catalog(&rng) : RandomInput.value(&rng, depth: 0).text
            report.run(Array(text.utf8), case: "json #\(i)", rng: &rng)
        }
        report.check()
        #expect(report.decoded * 5 >= report.decoded + report.rejected, "only \(report.decoded) random catalogs decoded")
    }

    @Test("mutated fixture catalogs decode or give a diagnostic, and what decodes navigates")
    func mutatedFixtures() throws {
        try #require(Self.fixtures.count >= 4, "fixture catalogs not found")
        var report = FuzzReport()
        let count = max(1, FuzzSettings.cases / 2)
        for i in 0..<count {
            var rng = FuzzSettings.rng(kind: 3, case: i)
            let original = rng.pick(Self.fixtures)
            var bytes: [UInt8]
            if rng.chance(80), let node = try? JSONParser.parse(original) {
                var tree = Tree(node)
                let strings = tree.strings()
                for _ in 0..<rng.pick([1, 1, 1, 2, 2, 3]) { tree.mutate(&rng, strings: strings) }
                bytes = Array(tree.text.utf8)
                if rng.chance(10) { Mutation.bytes(&bytes, &rng) }
            } else {
                bytes = original
                for _ in 0...rng.below(3) { Mutation.bytes(&bytes, &rng) }
            }
            report.run(bytes, case: "mutation #\(i)", rng: &rng)
        }
        report.check()
        // Structural mutations keep many catalogs valid (about a third), so the navigator sees odd
        // but legal trees.
        #expect(report.decoded * 5 >= count, "only \(report.decoded) of \(count) mutated catalogs decoded")
    }
}

// MARK: - running one case

/// Counts and the first few broken invariants, reported once at the end of a test.
struct FuzzReport {
    var decoded = 0
    var rejected = 0
    var problems: [String] = []

    mutating func run(_ bytes: [UInt8], case name: String, rng: inout SplitMix64) {
        if FuzzSettings.verbose { print("fuzz case \(name)") }
        var decoder = CatalogDecoder(file: "fuzz.catalog.json")
        let catalog: Catalog
        do {
            catalog = try decoder.decode(bytes)
        } catch {
            rejected += 1
            let lines = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            if let line = error.line, !(1...lines).contains(line) {
                note("\(name): diagnostic on line \(line) of a \(lines)-line input: \(error)")
            }
            if error.message.isEmpty || error.file != "fuzz.catalog.json" { note("\(name): malformed diagnostic \(error)") }
            return
        }
        decoded += 1
        var driver = NavigatorDriver(catalog: catalog, rng: rng)
        driver.drive(steps: FuzzSettings.steps)
        for p in driver.problems { note("\(name): \(p)") }
        rng = driver.rng
    }

    mutating func note(_ problem: String) {
        if problems.count < 10 { problems.append(problem) }
    }

    func check(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))", sourceLocation: sourceLocation)
        #expect(decoded + rejected > 0, sourceLocation: sourceLocation)
    }
}

/// Drives a navigator the way a session would, with random commands, app notifications,
/// timers fired late, early or twice, and language switches; checks invariants after each step.
struct NavigatorDriver {
    var nav: Navigator
    var rng: SplitMix64
    var timers: [TandemNavigator.Timer] = []
    var fired: [TandemNavigator.Timer] = []
    var problems: [String] = []
    let elementIDs: [String]
    let screenIDs: [String]
    let indicatorIDs: [String]
    let adjustableIDs: [String]

    static let commands: [Command] = [
        .next, .previous, .first, .last, .activate, .increment, .decrement, .actionNext, .actionPrevious,
        .magicTap, .escape, .readAll, .stop, .repeat, .spell, .nextHeading, .previousHeading,
        .scrollUp, .scrollDown, .panLeft, .panRight, .route(0), .route(39),
    ]

    init(catalog: Catalog, rng: SplitMix64) {
        var rng = rng
        let all = catalog.screens.flatMap(\.elements)
        elementIDs = all.map(\.id)
        screenIDs = catalog.screens.map(\.id)
        indicatorIDs = all.filter { $0.progress != nil }.map(\.id)
        adjustableIDs = all.filter { $0.adjust != nil }.map(\.id)
        let languages: [String?] = [nil, "en", "ar", "pt-BR", "he"]
        let screens: [String?] = [nil, "no.such.screen"] + screenIDs.map { Optional($0) }
        nav = Navigator(catalog: catalog, language: rng.pick(languages), screen: rng.pick(screens))
        self.rng = rng
    }

    mutating func drive(steps: Int) {
        take(nav.start(), after: "start")
        for _ in 0..<steps {
            let roll = rng.below(100)
            switch roll {
            case 0..<62:
                let command = rng.pick(Self.commands)
                take(nav.perform(command), after: command.name)
            case 62..<76 where !timers.isEmpty:
                // Timers fire in any order, as a driver with several pending ones might.
                let timer = timers.remove(at: rng.below(timers.count))
                fired.append(timer)
                take(nav.fire(timer), after: "fire \(timer)")
            case 76..<78 where !fired.isEmpty:
                let timer = rng.pick(fired)
                take(nav.fire(timer), after: "fire again \(timer)")
            case 78..<92:
                let effect = randomEffect(depth: 0)
                take(nav.post(effect), after: "post \(effect)")
            case 92..<96:
                if let events = nav.advanceForReadAll() { take(events, after: "read-all") }
            case 96..<98:
                nav.setLanguage(rng.pick(["en", "ar", "pt-BR", "ru"]))
            default:
                let command = rng.pick([Command.next, .previous, .activate])
                take(nav.perform(command), after: command.name)
            }
        }
        // At the end the run lets time pass until everything pending has fired.
        while let timer = timers.popLast() { take(nav.fire(timer), after: "final fire") }
        // Every adjustable anywhere stayed within its bounds and still renders.
        for screen in nav.catalog.screens {
            for e in screen.elements {
                if let a = e.adjust, !(a.min...a.max).contains(a.value) { problem("\(e.id): adjust value \(a.value) outside \(a.min)...\(a.max)") }
                _ = e.displayValue(language: "pt-BR")
            }
        }
    }

    mutating func take(_ events: [NavigatorEvent], after what: String) {
        for e in events {
            if case .schedule(let timer, let ms) = e {
                if ms < 0 { problem("negative delay \(ms) after \(what)") }
                timers.append(timer)
            }
        }
        // Timers pile up only as fast as effects schedule them; keep the run bounded.
        if timers.count > 500 { timers.removeFirst(timers.count - 500) }
        checkInvariants(events, after: what)
    }

    mutating func checkInvariants(_ events: [NavigatorEvent], after what: String) {
        let order = nav.readingOrder()
        if let f = nav.focusIndex {
            if f >= nav.screen.elements.count { problem("focus index \(f) out of range after \(what)"); return }
            if !order.contains(f) { problem("focus on unreachable \(nav.screen.elements[f].id) after \(what)") }
        }
        let lastFocus = events.last { if case .focused = $0 { true } else { false } }
        if case .focused(let screen, let element, _)? = lastFocus, screen != nav.screen.id || element != nav.focusedID {
            problem("reported focus \(screen)/\(element) but focus is \(nav.screen.id)/\(nav.focusedID ?? "none") after \(what)")
        }
        if let adjust = nav.focusedElement?.adjust, !(adjust.min...adjust.max).contains(adjust.value) {
            problem("adjust value \(adjust.value) outside \(adjust.min)...\(adjust.max) after \(what)")
        }
        _ = nav.focusedElement?.displayValue(language: nav.language)
    }

    mutating func problem(_ text: String) {
        if problems.count < 3 { problems.append(text) }
    }

    /// An effect as the decoder could produce it: references resolve (ids of this catalog, or
    /// a stray one the navigator must ignore), counts and delays within the decoder's bounds.
    mutating func randomEffect(depth: Int) -> Effect {
        func anyID(_ rng: inout SplitMix64, _ ids: [String]) -> String {
            ids.isEmpty || rng.chance(5) ? "stray.id" : rng.pick(ids)
        }
        switch rng.below(depth > 1 ? 9 : 10) {
        case 0:
            var c = ElementChanges()
            if rng.chance(50) { c.hidden = rng.chance(50) }
            if rng.chance(30) { c.modal = rng.chance(50) }
            if rng.chance(20) { c.label = .plain(rng.pick(["", "Changed", "Новое"])) }
            if rng.chance(20) { c.value = .some(rng.chance(30) ? nil : "v\(rng.below(9))") }
            if rng.chance(10) { c.traits = rng.pick([[], .header, [.button, .selected], .adjustable]) }
            return .set(id: anyID(&rng, elementIDs), changes: c)
        case 1: return .adjust(id: anyID(&rng, adjustableIDs), by: rng.pick([1, -1, 3, -7, 0.5, 1e300, -1e300]))
        case 2: return .screen(anyID(&rng, screenIDs))
        case 3: return .back
        case 4: return .announcement(text: "a\(rng.below(5))", priority: rng.chance(20) ? .high : .default, delay: rng.pick([0, 0, 100, 3000]))
        case 5: return .layoutChanged(focus: rng.chance(20) ? nil : anyID(&rng, elementIDs))
        case 6: return .screenChanged(focus: rng.chance(40) ? nil : anyID(&rng, elementIDs))
        case 7: return .pageScrolled(text: "Page \(rng.below(5))")
        case 8: return .set(id: anyID(&rng, elementIDs), changes: ElementChanges(hidden: rng.chance(50)))
        default:
            var then: [Effect] = []
            for _ in 0..<rng.below(3) { then.append(randomEffect(depth: depth + 1)) }
            return .load(id: anyID(&rng, indicatorIDs), ms: rng.pick([0, 1, 1000, 3_600_000]), steps: rng.pick([1, 2, 5, 10_000]), then: then)
        }
    }
}

// MARK: - random inputs

enum RandomInput {
    /// Bytes from anywhere, or from JSON's alphabet so that the parser gets further.
    static func bytes(_ rng: inout SplitMix64) -> [UInt8] {
        let length = rng.below(rng.chance(10) ? 2000 : 120)
        if rng.chance(40) { return (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }
        let alphabet = Array("{}[]\":,.-+eE0123456789 \n\\utrfalsn\"\"{\"id\":".utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
        return (0..<length).map { _ in rng.pick(alphabet) }
    }

    static let strings = ["", "a", "id", "%@", "%1$@ %2$@", "%9$@", "%%", "\\", "\u{0}", "é", "🍌", "\u{202E}", "x\ny", String(repeating: "w", count: 300)]
    static let numbers: [Double] = [0, -0.0, 1, -1, 0.5, 2, 100, 1e15, -1e300, 1e300, .leastNonzeroMagnitude, 9.3e18, 1.5]

    /// Any JSON value, with its text.
    static func value(_ rng: inout SplitMix64, depth: Int) -> Tree {
        switch rng.below(depth > 4 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(rng.chance(50))
        case 2: return .number(rng.pick(numbers))
        case 3: return .string(rng.pick(strings))
        case 4: return .array((0..<rng.below(5)).map { _ in value(&rng, depth: depth + 1) })
        default:
            let keys = ["id", "label", "children", "x", "format", "screens", "root", "order"]
            var seen: Set<String> = []
            var members: [(String, Tree)] = []
            for _ in 0..<rng.below(5) {
                let k = rng.pick(keys)
                if seen.insert(k).inserted { members.append((k, value(&rng, depth: depth + 1))) }
            }
            return .object(members)
        }
    }

    /// A catalog-shaped document: real field names, ids and screen names from small pools.
    /// Half are strict, every value legal, so that they decode and the navigator meets odd trees
    /// (modals in groups, orders, hidden roots, effects everywhere); the other half let small
    /// mistakes in (wrong types, dangling or duplicate ids, bad bounds) for the validator.
    static func catalog(_ rng: inout SplitMix64) -> String {
        var ids = Pool(prefix: "e", strict: rng.chance(50))
        let strict = ids.strict
        let screenCount = 1 + rng.below(3)
        var screens: [Tree] = []
        for s in 0..<screenCount {
            let first = ids.made
            var fields: [(String, Tree)] = [("id", .string("s\(s)")), ("root", element(&rng, &ids, depth: 0, screens: screenCount))]
            if rng.chance(40) {
                fields.append(("focus", .string(strict ? "e\(first + rng.below(ids.made - first))" : ids.reference(&rng))))
            }
            if rng.chance(15) { fields.append(("escape", effects(&rng, &ids, screens: screenCount))) }
            if rng.chance(15) { fields.append(("magicTap", effects(&rng, &ids, screens: screenCount))) }
            screens.append(.object(fields))
        }
        var top: [(String, Tree)] = [("format", .string(strict || rng.chance(97) ? Catalog.format : "tandem.catalog/0"))]
        if rng.chance(50) { top.append(("language", .string(rng.pick(strict ? ["en", "ar"] : ["en", "ar", "pt-BR", "ru", "he", ""])))) }
        if strict || rng.chance(40) {
            top.append(("strings", .object([
                ("en", .object([("k1", .string("%@ one")), ("k2", .string("%1$@ at %2$@")), ("k0", .string("zero"))])),
                ("ar", .object([("k1", .string("%@ واحد")), ("k2", .string("%2$@ %1$@")), ("k0", .string("صفر"))])),
            ])))
        }
        if rng.chance(50) { top.append(("start", .string("s\(rng.below(strict ? screenCount : screenCount + 1))"))) }
        top.append(("screens", .array(screens)))
        return Tree.object(top).text
    }

    struct Pool {
        let prefix: String
        let strict: Bool
        var made = 0
        mutating func fresh(_ rng: inout SplitMix64) -> String {
            made += 1
            // Now and then a duplicate, which the validator must catch.
            return !strict && rng.chance(3) && made > 1 ? "\(prefix)\(rng.below(made - 1))" : "\(prefix)\(made - 1)"
        }
        /// An id made so far (strict), or one that may not exist yet or ever.
        func reference(_ rng: inout SplitMix64) -> String {
            "\(prefix)\(strict ? rng.below(max(1, made)) : rng.below(max(1, made + 1)))"
        }
        func legal(_ rng: inout SplitMix64, percent: Int) -> Bool { strict || rng.chance(percent) }
    }

    static let traitNames = Traits.named.map(\.name) + ["bold"]

    static func element(_ rng: inout SplitMix64, _ ids: inout Pool, depth: Int, screens: Int) -> Tree {
        var f: [(String, Tree)] = [("id", .string(ids.fresh(&rng)))]
        if rng.chance(60) {
            if rng.chance(85) {
                f.append(("label", .string(rng.pick(["Play", "", "Café", "%@"]))))
            } else {
                let n = rng.below(3)
                let key = ids.legal(&rng, percent: 80) ? "k\(n)" : rng.pick(["k0", "k1", "k2", "kx"])
                f.append(("label", .object([("key", .string(key)), ("args", .array((0..<n).map { _ in .string("a") }))])))
            }
        }
        if rng.chance(20) { f.append(("value", rng.chance(90) ? .string("v") : .null)) }
        if rng.chance(15) { f.append(("hint", .string("h"))) }
        if rng.chance(40) {
            let names = ids.strict ? Traits.named.map(\.name) : traitNames
            f.append(("traits", .array((0..<rng.below(3)).map { _ in .string(rng.pick(names)) })))
        }
        if rng.chance(60) {
            let n = ids.legal(&rng, percent: 95) ? 4 : 3
            f.append(("frame", .array((0..<n).map { i in .number(i < 2 ? Double(rng.below(800)) - 100 : Double(rng.below(200))) })))
        }
        if rng.chance(10) { f.append(("accessible", .bool(rng.chance(50)))) }
        if rng.chance(15) { f.append(("group", .bool(true))) }
        if rng.chance(12) { f.append(("hidden", .bool(true))) }
        if rng.chance(8) { f.append(("modal", .bool(true))) }
        if rng.chance(12) { f.append(("activate", effects(&rng, &ids, screens: screens))) }
        if rng.chance(8) { f.append(("escape", effects(&rng, &ids, screens: screens))) }
        if rng.chance(5) { f.append(("magicTap", effects(&rng, &ids, screens: screens))) }
        if rng.chance(8) {
            f.append(("actions", .array((0..<1 + rng.below(3)).map { i in
                .object([("name", .string("Action \(i)")), ("do", effects(&rng, &ids, screens: screens))])
            })))
        }
        if rng.chance(10) {
            // Now and then bounds at the ends of Double's range, where stepping and rendering
            // the number are easiest to get wrong.
            let extreme = rng.chance(30)
            let lo = extreme ? rng.pick([-1.7e308, -1e300, 1e16, 0.5]) : Double(rng.below(5))
            let hi = extreme ? rng.pick([lo, lo + 10, 1e300, 1.7e308]) : lo + Double(rng.below(10))
            let legal = ids.legal(&rng, percent: 80)
            f.append(("adjust", .object([("value", .number(lo)), ("min", .number(lo)), ("max", .number(hi)),
                                         ("step", .number(legal ? rng.pick(extreme ? [1, 1e299, 1e307] : [1, 0.25, 3]) : 0)),
                                         ("format", .string(legal ? rng.pick(["%@ items", "%@"]) : "%@ of %@"))])))
        }
        if rng.chance(8) {
            f.append(("progress", .object(rng.chance(50) ? [] : [("value", .number(ids.legal(&rng, percent: 80) ? rng.pick([0, 0.5, 1]) : 2))])))
        }
        var childIDs: [String] = []
        if depth < 5, rng.chance(depth == 0 ? 95 : 35) {
            var children: [Tree] = []
            for _ in 0..<1 + rng.below(depth == 0 ? 8 : 4) {
                let child = element(&rng, &ids, depth: depth + 1, screens: screens)
                if case .object(let m) = child, case .string(let id)? = m.first?.1 { childIDs.append(id) }
                children.append(child)
            }
            f.append(("children", .array(children)))
        }
        if rng.chance(12), !childIDs.isEmpty {
            f.append(("order", .array((0..<1 + rng.below(3)).map { _ in
                .string(ids.legal(&rng, percent: 85) ? rng.pick(childIDs) : ids.reference(&rng))
            })))
        }
        return .object(f)
    }

    static func effects(_ rng: inout SplitMix64, _ ids: inout Pool, screens: Int) -> Tree {
        .array((0..<1 + rng.below(3)).map { _ in
            let id = Tree.string(ids.reference(&rng))
            // Strict catalogs leave out adjust and load, whose targets must be of a kind.
            switch ids.strict ? rng.pick([0, 1, 2, 4, 5, 6, 7, 9]) : rng.below(10) {
            case 0: return .object([("set", id), ("hidden", .bool(rng.chance(50)))])
            case 1: return .object([("show", id)])
            case 2: return .object([("hide", id)])
            case 3: return .object([("adjust", id), ("by", .number(rng.pick([1, -1, 100])))])
            case 4: return .object([("screen", .string("s\(rng.below(screens))"))])
            case 5: return .object([("back", .bool(true))])
            case 6: return .object([("post", .string("announcement")), ("text", .string("Hi")), ("delay", .number(Double(rng.pick([0, 50, 2000]))))])
            case 7: return .object([("post", .string(rng.pick(["layoutChanged", "screenChanged"]))), ("focus", id)])
            case 8: return .object([("load", id), ("ms", .number(1000)), ("steps", .number(Double(1 + rng.below(4)))),
                                    ("then", .array([.object([("post", .string("pageScrolled")), ("text", .string("Done"))])]))])
            default: return .object([("set", id), ("modal", .bool(rng.chance(50))), ("label", .string("L"))])
            }
        })
    }
}

// MARK: - mutations

enum Mutation {
    static let interesting = Array("{}[]\",:0-9eE.\\u \n".utf8) + [0x00, 0x7F, 0x80, 0xFF, 0xC3]

    /// Deletes, duplicates, replaces, inserts or truncates bytes.
    static func bytes(_ b: inout [UInt8], _ rng: inout SplitMix64) {
        guard !b.isEmpty else { b = [rng.pick(interesting)]; return }
        let at = rng.below(b.count)
        let length = min(b.count - at, 1 + rng.below(rng.chance(80) ? 4 : 64))
        switch rng.below(5) {
        case 0: b.removeSubrange(at..<at + length)
        case 1: b.insert(contentsOf: b[at..<at + length], at: rng.below(b.count + 1))
        case 2: b[at] = rng.pick(interesting)
        case 3: b.insert(rng.pick(interesting), at: at)
        default: b.removeSubrange(at...)
        }
    }
}

/// A mutable JSON tree to mutate and print back.
indirect enum Tree {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([Tree])
    case object([(String, Tree)])

    init(_ node: JSONNode) {
        switch node.kind {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(Tree.init))
        case .object(let members): self = .object(members.map { ($0.key, Tree($0.node)) })
        }
    }

    var text: String {
        var out = ""
        write(into: &out, indent: 0)
        return out
    }

    func write(into out: inout String, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : "\(n)"
        case .string(let s): Tree.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                item.write(into: &out, indent: indent)
            }
            out += "]"
        case .object(let members):
            // One member a line, so that diagnostics have lines to point at.
            out += "{"
            for (i, (k, v)) in members.enumerated() {
                out += i > 0 ? ",\n" : "\n"
                out += String(repeating: " ", count: indent + 2)
                Tree.quote(k, into: &out)
                out += ": "
                v.write(into: &out, indent: indent + 2)
            }
            out += members.isEmpty ? "}" : "\n" + String(repeating: " ", count: indent) + "}"
        }
    }

    static func quote(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where u.value < 0x20: out += "\\u" + String(repeating: "0", count: 4 - String(u.value, radix: 16).count) + String(u.value, radix: 16)
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }

    /// Every string value, to swap ids and keys between places.
    func strings() -> [String] {
        switch self {
        case .string(let s): [s]
        case .array(let items): items.flatMap { $0.strings() }
        case .object(let members): members.flatMap { $0.1.strings() }
        default: []
        }
    }

    var size: Int {
        switch self {
        case .array(let items): 1 + items.reduce(0) { $0 + $1.size }
        case .object(let members): 1 + members.reduce(0) { $0 + $1.1.size }
        default: 1
        }
    }

    /// The node at pre-order position `k`.
    func node(at k: Int) -> Tree? {
        var k = k
        return find(&k)
    }

    private func find(_ k: inout Int) -> Tree? {
        if k == 0 { return self }
        k -= 1
        switch self {
        case .array(let items): for item in items { if let t = item.find(&k) { return t } }
        case .object(let members): for (_, v) in members { if let t = v.find(&k) { return t } }
        default: break
        }
        return nil
    }

    /// Applies `change` to the node at pre-order position `k`.
    mutating func modify(at k: Int, _ change: (inout Tree) -> Void) {
        var k = k
        _ = apply(&k, change)
    }

    private mutating func apply(_ k: inout Int, _ change: (inout Tree) -> Void) -> Bool {
        if k == 0 { change(&self); return true }
        k -= 1
        switch self {
        case .array(var items):
            for i in items.indices where items[i].apply(&k, change) { self = .array(items); return true }
        case .object(var members):
            for i in members.indices where members[i].1.apply(&k, change) { self = .object(members); return true }
        default: break
        }
        return false
    }

    static let fieldNames = [
        "hidden", "modal", "group", "accessible", "order", "label", "value", "hint", "traits", "frame", "adjust",
        "activate", "children", "progress", "focus", "start", "escape", "magicTap", "actions", "id", "steps", "ms",
    ]

    /// One random change, chosen to fit the node it lands on: a value of another type, a
    /// dropped, added or renamed field, two fields' values swapped, a flag that changes what is
    /// reachable, a shuffled array, a string swapped for another string of the document (ids,
    /// mostly), a toggled boolean, an extreme number, or another node copied over it.
    mutating func mutate(_ rng: inout SplitMix64, strings: [String]) {
        let target = rng.below(size)
        let donor = node(at: rng.below(size)) ?? .null
        modify(at: target) { t in
            // Rarely something destructive, whatever the node.
            if rng.chance(6) {
                t = [Tree.null, .bool(true), .number(1), .string("x"), .array([]), .object([])][rng.below(6)]
                return
            }
            if rng.chance(4) { t = donor; return }
            switch t {
            case .object(var m):
                switch rng.below(8) {
                case 0 where !m.isEmpty:
                    m.remove(at: rng.below(m.count))
                case 1:
                    let name = rng.pick(Tree.fieldNames)
                    if !m.contains(where: { $0.0 == name }) || rng.chance(10) {
                        let value: Tree = rng.pick([.bool(true), .bool(false), .string(strings.isEmpty ? "x" : rng.pick(strings)),
                                                    .array([.string(strings.isEmpty ? "x" : rng.pick(strings))]), .number(2), .object([])])
                        m.insert((name, value), at: rng.below(m.count + 1))
                    }
                case 2 where m.count >= 2:
                    let i = rng.below(m.count), j = rng.below(m.count)
                    (m[i].1, m[j].1) = (m[j].1, m[i].1)
                case 3 where !m.isEmpty:
                    m[rng.below(m.count)].0 = rng.pick(Tree.fieldNames)
                default:
                    // A flag that changes what is reachable: hidden, modal, group, accessible.
                    let flag = rng.pick(["hidden", "modal", "group", "accessible"])
                    m.removeAll { $0.0 == flag }
                    m.append((flag, .bool(rng.chance(60))))
                }
                t = .object(m)
            case .array(var a) where !a.isEmpty:
                switch rng.below(4) {
                case 0: a.remove(at: rng.below(a.count))
                case 1: a.insert(a[rng.below(a.count)], at: rng.below(a.count + 1))
                case 2: a.swapAt(rng.below(a.count), rng.below(a.count))
                default: a.reverse()
                }
                t = .array(a)
            case .string:
                t = .string(rng.chance(85) && !strings.isEmpty ? rng.pick(strings) : rng.pick(RandomInput.strings))
            case .bool(let b):
                t = .bool(!b)
            case .number:
                t = .number(rng.pick(RandomInput.numbers + [-5, 3, 0.25, 10_000, 3_600_001]))
            case .array, .null:
                t = donor
            }
        }
    }
}
