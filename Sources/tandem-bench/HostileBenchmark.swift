import Foundation
import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemProtocol
import TandemService
import TandemSession
import TandemVocabulary
import TandemPOSIX

/// `tandem-bench hostile`: what one buggy or hostile app can make the service do (issue 27;
/// Docs/reliability.md#hostile-clients), in-process through the service as `tandem serve`'s
/// session thread runs it, with liblouis:
///
/// - the largest `update` allowed (`maxUpdateNodes`, 8,192): 32 chains 249 deep (the deepest
///   allowed; 7,969 nodes), against 8,192 nodes as a flat list, and relabelling that list:
///   the time the session thread is held (median of 5), the chains' split into decoding and
///   the navigator; the same elements as one `screen`, for comparison;
/// - what refusing a whole 1 MiB line of 17,431 nodes costs (`maxUpdateNodes`), and an
///   8,000-deep chain (`maxDepth`);
/// - the longest liblouis takes over one line cut for braille (the most a translation costs);
/// - a 900 KiB announcement and a 900 KiB value on the focused element (braille cut);
/// - one round of one client's reading (64 KiB) as 32 announcements of 2,000 characters,
///   each an instant: what a key behind them waits for (Docs/reliability.md#done-when);
/// - one round of 256 small lines on a screen at the element limit (50,000), each a change
///   that used to make the reading order be built again whole (a modal shown or closed, the
///   modal hidden and shown, a big container hidden and shown, `layoutChanged`, a modal shown
///   and closed with a row hidden or shown between, two big containers hidden and shown in
///   turn, and both hidden then both shown, a modal shown and closed with a row removed or
///   put back under it, the first and the last row moved in one update, alone and between a
///   modal shown and closed; `tandem-bench hostile modal` runs only these);
/// - 20,000 screen switches and 10,000 announcements: the largest speech backlog and the
///   process's resident memory before and after;
/// - 5,000 apps connecting and leaving: the largest number of "closed" statuses waiting.
enum HostileBenchmark {
    static func run() -> String {
        var lines = ["hostile: what one app can make the service do (median of 5 runs where timed)"]
        let chain = median((0..<5).map { _ in time(chains: cappedChains, depth: 249) })
        let wide = median((0..<5).map { _ in time(chains: Screen.maxUpdateNodes - 1, depth: 1) })
        lines.append("  update, \(cappedChains) chains × 249 deep  \(ms(chain)) ms held (\(cappedChains * 249 + 1) nodes)")
        lines.append("  update, flat list            \(ms(wide)) ms held (\(Screen.maxUpdateNodes) nodes, maxUpdateNodes)")
        lines.append("  update, the list relabelled  \(ms(median((0..<5).map { _ in relabel(Screen.maxUpdateNodes) }))) ms held (\(Screen.maxUpdateNodes) nodes, each a new label)")
        lines.append("  screen, \(cappedChains) chains × 249 deep  \(ms(median((0..<5).map { _ in screen(chains: cappedChains, depth: 249) }))) ms held (\(cappedChains * 249 + 1) elements)")
        lines.append("  screen, flat list            \(ms(median((0..<5).map { _ in screen(chains: Screen.maxUpdateNodes - 1, depth: 1) }))) ms held (\(Screen.maxUpdateNodes) elements)")
        let p = phases(chains: cappedChains, depth: 249)
        lines.append("    of the chains: decode \(ms(p.decode)), Navigator.apply \(ms(p.navigator)) (Screen.apply alone \(ms(p.tree))) ms")
        lines.append("  update, 70 chains × 249 (a 1 MiB line, 17,431 nodes)  \(ms(median((0..<5).map { _ in time(chains: 70, depth: 249, refused: true) }))) ms to refuse (maxUpdateNodes)")
        lines.append("  update, one 8,000-deep chain \(ms(median((0..<5).map { _ in time(chains: 1, depth: 8_000, refused: true) }))) ms to refuse (maxDepth)")
        lines.append("  900 KiB announcement         \(ms(median((0..<5).map { _ in hugeText(value: false) }))) ms held")
        lines.append("  900 KiB focused value        \(ms(median((0..<5).map { _ in hugeText(value: true) }))) ms held")
        lines.append("  a 64 KiB round of 2,000-character announcements  \(ms(median((0..<5).map { _ in round() }))) ms held (32 lines, each an instant)")
        for shape in ModalShape.allCases {
            let held = median((0..<3).map { _ in modalRound(shape) })
            lines.append("  a round of 256 \(shape.rawValue) on 50,000 elements  \(ms(held)) ms held")
        }
        let louis = worstTranslation()
        lines.append("  liblouis, a line at the cut  \(ms(louis.ns)) ms at most (\(louis.what); \(BrailleText.maxCharacters + 2) characters)")

        let before = PolicyFloodBenchmark.residentBytes()
        var app = App()
        app.send(#"{"type":"screen","screen":{"id":"a","root":{"id":"r","children":[{"id":"t","label":"Screen A","traits":["header"]}]}}}"#)
        var largest = 0
        for k in 0..<20_000 {
            let id = k % 2 == 0 ? "b" : "a"
            app.send(#"{"type":"screen","screen":{"id":"\#(id)","root":{"id":"r","children":[{"id":"t","label":"Screen \#(id)","traits":["header"]}]}}}"#)
            largest = max(largest, app.session.speechQueue.count)
        }
        lines.append("  20,000 screen switches       largest speech queue \(largest)")
        largest = 0
        for k in 0..<5_000 {
            let client = ClientID("x\(k)")
            app.core.apply(.clientConnected(client), at: app.now)
            app.core.apply(.clientLine(client, line: 1, bytes: Array(#"{"type":"hello","v":1,"role":"app","name":"Bank"}"#.utf8)), at: app.now)
            app.core.apply(.clientDisconnected(client), at: app.now)
            largest = max(largest, app.session.speechQueue.filter(\.utterance.isStatus).count)
        }
        lines.append("  5,000 apps closing           largest number of closed statuses waiting \(largest)")
        largest = 0
        for k in 0..<10_000 {
            app.send(#"{"type":"notify","notification":"announcement","text":"Item \#(k) added"}"#)
            largest = max(largest, app.session.speechQueue.count)
        }
        lines.append("  10,000 announcements         largest speech queue \(largest) (the rest merged or dropped, in the transcript)")
        let after = PolicyFloodBenchmark.residentBytes()
        lines.append("  resident memory              \(PolicyFloodBenchmark.mebibytes(before)) before the floods, \(PolicyFloodBenchmark.mebibytes(after)) after")
        return lines.joined(separator: "\n")
    }

    /// A service with one app, its session on the virtual clock, fed through the one entry
    /// `tandem serve` uses (`SessionCore.apply`).
    struct App {
        var core: SessionCore
        var now = 0
        var line = 1
        var session: Session { core.session }

        init() {
            let (session, service) = Service.start(profile: Profile(), catalog: nil, sink: NullSink(), timing: .virtual,
                                                   makeTranslator: SizeBenchmark.translator)
            core = SessionCore(session: session, service: service)
            core.apply(.open(), at: 0)
            core.apply(.clientConnected("app"), at: 0)
            send(#"{"type":"hello","v":1,"role":"app","name":"Flood"}"#)
        }

        /// One line, as the runner hands it over; the ns the session thread was held.
        @discardableResult
        mutating func send(_ json: String) -> UInt64 {
            line += 1
            let bytes = Array(json.utf8)
            let start = Monotonic.now()
            core.apply(.clientLine("app", line: line, bytes: bytes), at: now)
            let held = Monotonic.now() - start
            _ = core.takeOutbox()
            now += 1
            return held
        }
    }

    /// The most chains 249 deep (the deepest allowed under "top") one update may carry with
    /// "top" itself: 32 (7,969 nodes of `Screen.maxUpdateNodes`' 8,192).
    static let cappedChains = (Screen.maxUpdateNodes - 1) / 249

    /// An update adding `chains` chains of `depth` under "top": the ns it held the session
    /// thread. `refused`: the update is over a limit, and the time is its refusal's.
    static func time(chains: Int, depth: Int, refused: Bool = false) -> UInt64 {
        var app = App()
        app.send(#"{"type":"screen","screen":{"id":"deep","root":{"id":"root","children":[{"id":"top","label":"T"}]}}}"#)
        let held = app.send(updateLine(chains: chains, depth: depth))
        precondition(app.session.navigator.screen.liveCount == (refused ? 2 : chains * depth + 2),
                     refused ? "the benchmark's update was not refused" : "the benchmark's update was refused")
        return held
    }

    /// An update giving each of `count` elements already on the screen a new label.
    static func relabel(_ count: Int) -> UInt64 {
        var app = App()
        app.send(#"{"type":"screen","screen":{"id":"deep","root":{"id":"root","children":[{"id":"top","label":"T"}]}}}"#)
        // "top" and the list in chunks within maxUpdateNodes
        for start in stride(from: 0, to: count, by: 4_096) {
            let kids = (0..<min(count, start + 4_096)).map { "\"c\($0)x0\"" }.joined(separator: ",")
            let nodes = (start..<min(count, start + 4_096)).map { #"{"id":"c\#($0)x0","label":"D 0"}"# }.joined(separator: ",")
            app.send(#"{"type":"update","nodes":[{"id":"top","label":"T","children":[\#(kids)]},\#(nodes)]}"#)
        }
        precondition(app.session.navigator.screen.liveCount == count + 2, "the benchmark's list was refused")
        let nodes = (0..<count).map { #"{"id":"c\#($0)x0","label":"Renamed \#($0)"}"# }
        let held = app.send(#"{"type":"update","nodes":["# + nodes.joined(separator: ",") + "]}")
        let last = app.session.navigator.screen.index["c\(count - 1)x0"].map { app.session.navigator.screen.elements[$0].label }
        precondition(last == .some(.some(.plain("Renamed \(count - 1)"))), "the benchmark's relabelling was refused")
        return held
    }

    /// A `screen` of `chains` chains of `depth` elements under the root, replacing a small one.
    static func screen(chains: Int, depth: Int) -> UInt64 {
        var app = App()
        app.send(#"{"type":"screen","screen":{"id":"deep","root":{"id":"root","children":[{"id":"top","label":"T"}]}}}"#)
        var kids: [String] = []
        for c in 0..<chains {
            var node = ""
            for i in (0..<depth).reversed() {
                node = #"{"id":"c\#(c)x\#(i)","label":"D \#(i)""# + (node.isEmpty ? "" : #","children":["# + node + "]") + "}"
            }
            kids.append(node)
        }
        let held = app.send(#"{"type":"screen","screen":{"id":"deep","root":{"id":"root","children":["# + kids.joined(separator: ",") + "]}}}")
        // Shown, not refused: the time is the screen's.
        precondition(app.session.navigator.screen.liveCount == chains * depth + 1, "the benchmark's screen was refused")
        return held
    }

    /// One `update` adding `chains` chains of `depth` elements under "top".
    static func updateLine(chains: Int, depth: Int) -> String {
        var kids: [String] = []
        var nodes: [String] = []
        for c in 0..<chains {
            kids.append("\"c\(c)x0\"")
            for i in 0..<depth {
                let k = i < depth - 1 ? #","children":["c\#(c)x\#(i + 1)"]"# : ""
                nodes.append(#"{"id":"c\#(c)x\#(i)","label":"D \#(i)"\#(k)}"#)
            }
        }
        return #"{"type":"update","nodes":[{"id":"top","label":"T","children":["# + kids.joined(separator: ",") + "]}," + nodes.joined(separator: ",") + "]}"
    }

    /// The update of `time(chains:depth:)` split into its phases (median of 5 each): the
    /// line decoded, the whole `Navigator.apply` (the tree, the reading order, focus), and
    /// `Screen.apply` alone on a copy of the screen.
    static func phases(chains: Int, depth: Int) -> (decode: UInt64, navigator: UInt64, tree: UInt64) {
        var d: [UInt64] = [], t: [UInt64] = [], n: [UInt64] = []
        for _ in 0..<5 {
            var app = App()
            app.send(#"{"type":"screen","screen":{"id":"deep","root":{"id":"root","children":[{"id":"top","label":"T"}]}}}"#)
            let line = updateLine(chains: chains, depth: depth)
            var start = Monotonic.now()
            guard case .success(let incoming) = MessageDecoder.decode(Array(line.utf8), line: 1),
                  case .update(let update) = incoming.message else { fatalError("the benchmark's update does not decode") }
            d.append(Monotonic.now() - start)
            var screen = app.session.navigator.screen
            start = Monotonic.now()
            _ = try? screen.apply(update)
            t.append(Monotonic.now() - start)
            var nav = app.session.navigator
            _ = nav.readingOrder()
            start = Monotonic.now()
            _ = try? nav.apply(update)
            n.append(Monotonic.now() - start)
        }
        return (median(d), median(n), median(t))
    }

    static func hugeText(value: Bool) -> UInt64 {
        var app = App()
        app.send(#"{"type":"screen","screen":{"id":"s","root":{"id":"r","children":[{"id":"f","label":"Notes","traits":["searchField"]}]}}}"#)
        let huge = String(repeating: "x", count: 921_600)
        return value ? app.send(#"{"type":"set","id":"f","value":"\#(huge)"}"#)
                     : app.send(#"{"type":"notify","notification":"announcement","text":"\#(huge)"}"#)
    }

    /// What one round of one client's lines (`readChunk`, 64 KiB) can hold the session thread
    /// for: 32 announcements of 2,000 mixed characters, applied at one time, each an instant of
    /// its own as `tandem serve` applies a batch — each is flashed, but a live session writes
    /// one frame a millisecond, so only the first is translated (Docs/reliability.md#round-bound).
    static func round() -> UInt64 {
        var app = App()
        app.send(#"{"type":"screen","screen":{"id":"s","root":{"id":"r","children":[{"id":"f","label":"Notes"}]}}}"#)
        let text = String(String(repeating: "Ab1 C-2.d, EF3g Hi 45% ", count: 100).prefix(2_000))
        let lines = (0..<32).map { Array(#"{"type":"notify","notification":"announcement","text":"\#($0) \#(text)"}"#.utf8) }
        let start = Monotonic.now()
        for (k, bytes) in lines.enumerated() { app.core.apply(.clientLine("app", line: 10 + k, bytes: bytes), at: app.now) }
        return Monotonic.now() - start
    }

    /// Small lines that change what the whole screen's reading order is (its scope), each
    /// toggled back and forth for a round.
    enum ModalShape: String, CaseIterable {
        case modal = "set modal on/off      "
        case hiddenModal = "set hidden on a modal "
        case hiddenSection = "set hidden, 12,500 rows"
        case layoutChanged = "layoutChanged        "
        case modalAndRow = "modal on/off, a row hidden between"
        case modalAndMovedRow = "modal on/off, a row moved between"
        case twoSections = "set hidden, two sections in turn"
        case twoSectionsOverlapping = "set hidden, two sections overlapping"
        case modalAndAddedRow = "modal on/off, a row removed or added under it"
        case farRows = "update, the first and the last row moved"
        case modalAndFarRows = "modal on/off, the first and the last row moved between"
    }

    /// An update moving the first and the last of `bigScreen`'s rows, each where phase `k`
    /// puts it: within its row, into the next row in, within its row again, back (a node
    /// replaces the element: each keeps its label, so both stay in the order).
    static func farPair(_ k: Int) -> String {
        let last = 4 * 12_498 - 1, lastY = last * 44
        let (a, b): ((x: Int, y: Int), (x: Int, y: Int)) = switch k % 4 {
        case 0: ((0, 3), (20, lastY + 2))
        case 1: ((0, 46), (0, lastY - 41))
        case 2: ((30, 1), (0, lastY - 2))
        default: ((0, 0), (0, lastY))
        }
        return #"{"type":"update","nodes":[{"id":"r0","label":"Row 0","frame":[\#(a.x),\#(a.y),390,44]},{"id":"r\#(last)","label":"Row \#(last)","frame":[\#(b.x),\#(b.y),390,44]}]}"#
    }

    /// `tandem-bench hostile modal [SHAPE]`: only the rounds of small lines that change the
    /// whole screen's order (median of 3 each), or only the one named (`ModalShape`'s case).
    static func runModalRounds(only name: String? = nil) -> String {
        var lines = ["hostile: rounds of 256 small lines on 50,000 elements (median of 3)"]
        for shape in ModalShape.allCases where name == nil || "\(shape)" == name {
            let held = median((0..<3).map { _ in modalRound(shape) })
            lines.append("  a round of 256 \(shape.rawValue) on 50,000 elements  \(ms(held)) ms held")
        }
        return lines.joined(separator: "\n")
    }

    /// A screen at `Screen.maxElements`: a sheet of three elements and four sections of rows
    /// with frames (one sorted scope of 49,995), sent as a `screen` and eight updates within
    /// `maxUpdateNodes`.
    static func bigScreen(_ app: inout App, sheetModal: Bool) {
        for line in bigScreenLines(sheetModal: sheetModal) { app.send(line) }
        let rows = 12_498
        precondition(app.session.navigator.screen.liveCount == 4 * rows + 8, "the benchmark's screen was refused")
    }

    /// `bigScreen`'s lines: a `screen`, then an update of each section's rows.
    static func bigScreenLines(sheetModal: Bool) -> [String] {
        var lines: [String] = []
        let rows = 12_498
        let half = rows / 2  // a section's rows in two updates, each within maxUpdateNodes
        let sections = (0..<4).map { #"{"id":"s\#($0)"}"# }.joined(separator: ",")
        let sheet = #"{"id":"sheet","modal":\#(sheetModal),"frame":[0,100,390,300],"children":[{"id":"sheet.title","label":"Sheet","traits":["header"],"frame":[16,110,358,44]},{"id":"sheet.ok","label":"OK","traits":["button"],"frame":[16,300,358,44]}]}"#
        lines.append(#"{"type":"screen","screen":{"id":"big","root":{"id":"root","children":["# + sections + "," + sheet + "]}}}")
        for s in 0..<4 {
            var ids: [String] = [], nodes: [String] = []
            ids.reserveCapacity(rows); nodes.reserveCapacity(rows)
            for r in 0..<rows {
                let k = s * rows + r
                ids.append("\"r\(k)\"")
                nodes.append(#"{"id":"r\#(k)","label":"Row \#(k)","frame":[0,\#(k * 44),390,44]}"#)
                if r == half - 1 || r == rows - 1 {
                    lines.append(#"{"type":"update","nodes":[{"id":"s\#(s)","children":["# + ids.joined(separator: ",") + "]}," + nodes.joined(separator: ",") + "]}")
                    nodes = []
                }
            }
        }
        return lines
    }

    /// One round (256 lines, the most a round hands on) of `shape` toggled back and forth on a
    /// screen at the element limit, each line an instant at the round's time: the ns the session
    /// thread is held.
    static func modalRound(_ shape: ModalShape) -> UInt64 {
        var app = App()
        bigScreen(&app, sheetModal: shape == .hiddenModal)
        let bytes = roundLines(shape).map { Array($0.utf8) }
        let start = Monotonic.now()
        for (k, b) in bytes.enumerated() { app.core.apply(.clientLine("app", line: 100 + k, bytes: b), at: app.now) }
        let held = Monotonic.now() - start
        for item in app.core.takeOutbox() {
            if case .send(_, .error(let e)) = item { fatalError("the benchmark's round was refused: \(e)") }
        }
        return held
    }

    /// The 256 lines of a round of `shape` (`bigScreen`'s ids).
    static func roundLines(_ shape: ModalShape) -> [String] {
        (0..<256).map { k in
            let on = k % 2 == 0
            switch shape {
            case .modal: return #"{"type":"set","id":"sheet","modal":\#(on)}"#
            case .hiddenModal: return #"{"type":"set","id":"sheet","hidden":\#(on)}"#
            case .hiddenSection: return #"{"type":"set","id":"s1","hidden":\#(on)}"#
            case .modalAndRow:
                return k % 2 == 0 ? #"{"type":"set","id":"sheet","modal":\#(k % 4 == 0)}"# : #"{"type":"set","id":"r7","hidden":\#(k % 4 == 1)}"#
            // modal on, row 7 moved under it, modal off, row 7 moved back, …
            case .modalAndMovedRow:
                return k % 2 == 0 ? #"{"type":"set","id":"sheet","modal":\#(k % 4 == 0)}"#
                    : #"{"type":"set","id":"r7","frame":[0,\#(k % 4 == 1 ? 3 : 308),390,44]}"#
            // s1 hidden, s1 shown, s2 hidden, s2 shown, …
            case .twoSections: return #"{"type":"set","id":"s\#(1 + (k / 2) % 2)","hidden":\#(on)}"#
            // s1 hidden, s2 hidden, s1 shown, s2 shown, …
            case .twoSectionsOverlapping: return #"{"type":"set","id":"s\#(1 + k % 2)","hidden":\#(k % 4 < 2)}"#
            // modal on, row 9 removed under it (an edit of a covered section), modal off, row
            // 100 relabelled, modal on, row 9 put back under it, modal off, … (the screen is at
            // the element limit: a row is added only where one was removed)
            case .modalAndAddedRow:
                switch k % 4 {
                case 0, 2: return #"{"type":"set","id":"sheet","modal":\#(k % 4 == 0)}"#
                case 1 where k % 8 == 1: return #"{"type":"update","edits":[{"parent":"s0","remove":["r9"]}]}"#
                case 1: return #"{"type":"update","nodes":[{"id":"r9","label":"Row 9","frame":[0,396,390,44]}],"edits":[{"parent":"s0","insert":["r9"],"after":"r8"}]}"#
                default: return #"{"type":"set","id":"r100","label":"Row 100, \#(k)"}"#
                }
            // the first and the last of the 49,992 rows moved in one update
            case .farRows: return farPair(k)
            // modal on, the two rows moved under it, modal off, the two rows moved, …
            case .modalAndFarRows: return k % 2 == 0 ? #"{"type":"set","id":"sheet","modal":\#(k % 4 == 0)}"# : farPair(k / 2)
            case .layoutChanged: return #"{"type":"notify","notification":"layoutChanged"\#(on ? #","focus":"sheet.ok""# : "")}"#
            }
        }
    }

    /// The longest liblouis takes for one line at the braille cut (`BrailleText.maxCharacters`
    /// and its markers; Docs/braille.md#long-lines), over the shipped languages' tables,
    /// contracted and not, and texts meant to be hard for them (capitals, digits and
    /// punctuation mixed, accents, Cyrillic), the cursor in the middle of a word being edited:
    /// the most one translation can hold the session thread (median of 5 for each).
    static func worstTranslation() -> (ns: UInt64, what: String) {
        let n = BrailleText.maxCharacters + 2
        func cycle(_ s: String) -> String { String(String(repeating: s, count: n / s.count + 1).prefix(n)) }
        let texts = [
            ("letters", cycle("x")),
            ("mixed", cycle("Ab1 C-2.d, EF3g \"Hi\" 45% ")),
            ("accents", cycle("Ação é só ")),
            ("Cyrillic", cycle("Привет Мир 12 ")),
        ]
        var worst: (ns: UInt64, what: String) = (0, "")
        for contracted in [false, true] {
            let louis = LouisTranslator(contracted: contracted)
            for language in ["en", "pt", "ru"] {
                for (name, text) in texts {
                    let t = median((0..<5).map { _ in
                        Monotonic.measure { louis.translate(text, language: language, cursor: n / 2, editing: true) }.1
                    })
                    if t > worst.ns { worst = (t, "\(language)\(contracted ? " contracted" : ""), \(name)") }
                }
            }
        }
        return worst
    }

    static func median(_ xs: [UInt64]) -> UInt64 { xs.sorted()[xs.count / 2] }
    static func ms(_ ns: UInt64) -> String { String(format: "%.1f", Double(ns) / 1e6) }
}
