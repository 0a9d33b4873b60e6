import Foundation
import TandemModel
import TandemNavigator
import TandemOutputs
import TandemProtocol
import TandemService
import TandemSession
import TandemVocabulary
import TandemPOSIX

/// `tandem-bench updates`: what one change an app sends costs Tandem, by the size of its screen
/// (Docs/benchmarks.md#updates).
///
/// In process, no socket: an `AppScreen` published to a `Service` as `tandem serve` makes it
/// (default profile, virtual timing, braille through liblouis, a null sink). Each change is a
/// real protocol line handed to `SessionCore.apply`, as `tandem serve` hands it over:
/// what `LiveRunner` does with each line a client sends. Focus stays at the top of the screen
/// (the header) unless a figure says otherwise; the changes are half-way down. Each change
/// alternates between two lines so that every sample really changes something, with 10 ms of
/// virtual time (untimed) between samples.
enum UpdatesBenchmark {
    struct Options {
        // The largest a screen may be (`Screen.maxElements`, 50,000): at 100k the service
        // refuses the screen and the benchmark stopped there.
        // The largest leaves room under maxElements (50,000) for the rows and sections the changes add.
        var sizes = [1_000, 10_000, 40_000]
        var layouts = AppScreen.Layout.allCases
        /// Samples per figure, at most; fewer when `secondsPerFigure` runs out (at least `minSamples`).
        var maxSamples = 2_000
        var minSamples = 10
        var secondsPerFigure = 2.0
    }

    /// One figure: what is timed, at each size.
    struct Figure {
        var name: String
        var samples: [Int: Summary] = [:]     // size → ns
        var decode: [Int: Summary] = [:]      // size → ns of decoding the line alone
        var lineBytes: [Int: Int] = [:]
    }

    static func run(_ options: Options) -> String {
        var out = "updates: one change an app sends, through SessionCore.apply (decode, apply, route, settle)\n"
        out += "on \(Machine.current().summary); load average at start \(loadAverage())\n"
        out += "each figure: up to \(options.maxSamples) samples or \(options.secondsPerFigure) s (at least \(options.minSamples)); "
        out += "times in µs, p99 by nearest rank; ratios of medians against the first size\n"
        for layout in options.layouts {
            var figures: [String: Figure] = [:]
            var names: [String] = []
            for size in options.sizes {
                printErr("tandem-bench: updates, \(layout.rawValue), \(Report.sizeName(size)) elements…")
                for f in measure(size: size, layout: layout, options) {
                    if figures[f.name] == nil { names.append(f.name); figures[f.name] = Figure(name: f.name) }
                    figures[f.name]!.samples[size] = f.samples[size]
                    figures[f.name]!.decode[size] = f.decode[size]
                    figures[f.name]!.lineBytes[size] = f.lineBytes[size]
                }
            }
            out += "\n" + table(layout, names.map { figures[$0]! }, options.sizes)
        }
        out += "\nload average at the end \(loadAverage())\n"
        return out
    }

    // MARK: measuring one screen

    /// An app's screen in a service, and the clock of its session.
    struct ServedApp {
        /// Fed through the one entry `tandem serve` uses (`SessionCore.apply`).
        var core: SessionCore
        var now = 0
        var line = 0
        var session: Session { core.session }

        init(_ screen: AppScreen) throws {
            let (session, service) = Service.start(profile: Profile(), catalog: nil, sink: NullSink(), timing: .virtual,
                                                   makeTranslator: SizeBenchmark.translator)
            core = SessionCore(session: session, service: service)
            core.apply(.open(), at: 0)
            core.apply(.clientConnected("app"), at: 0)
            try sendChecked(Array(#"{"type":"hello","v":1,"role":"app","name":"Mercado","language":"pt-BR"}"#.utf8))
            try sendChecked(screen.line)
            pass(5_000)
        }

        /// Hands one line to the service as the runner does; the time it took, in ns.
        mutating func send(_ bytes: [UInt8]) -> UInt64 {
            line += 1
            let start = Monotonic.now()
            core.apply(.clientLine("app", line: line, bytes: bytes), at: now)
            return Monotonic.now() - start
        }

        /// Sends a line and fails on an error reply.
        mutating func sendChecked(_ bytes: [UInt8]) throws {
            _ = send(bytes)
            try checkReplies()
        }

        mutating func checkReplies() throws {
            for item in core.takeOutbox() {
                if case .send(_, .error(let e)) = item { throw BenchFailure("the service refused line \(line): \(e.message)") }
            }
        }

        /// Lets virtual time pass (speech ends, timers), untimed.
        mutating func pass(_ ms: Int) {
            now += ms
            core.advance(to: now)
        }

        var focus: String? { session.navigator.focusedElement?.id }
    }

    static func measure(size: Int, layout: AppScreen.Layout, _ o: Options) -> [Figure] {
        let screen = AppScreen(elements: size, layout: layout)
        do {
            var app = try ServedApp(screen)
            guard app.focus == "header.title" else { throw BenchFailure("focus is on \(app.focus ?? "nothing"), not header.title") }
            let k = screen.middle
            let id = screen.product(k).id
            let aisle = screen.product(k).aisle
            var figures: [Figure] = []

            func figure(_ name: String, _ lines: [[UInt8]], check: ((ServedApp) -> Bool)? = nil) throws {
                var f = Figure(name: name)
                var samples: [UInt64] = []
                let deadline = Monotonic.now() + UInt64(o.secondsPerFigure * 1e9)
                var i = 0
                while samples.count < o.maxSamples && (samples.count < o.minSamples || Monotonic.now() < deadline) {
                    samples.append(app.send(lines[i % lines.count]))
                    try app.checkReplies()
                    if i == 0, let check, !check(app) { throw BenchFailure("\(name): the change did not show on the screen") }
                    app.pass(10)
                    i += 1
                }
                f.samples[size] = Summary(nanoseconds: samples)
                f.decode[size] = decodeTime(lines[0], count: min(samples.count, 200))
                f.lineBytes[size] = lines[0].count
                figures.append(f)
            }
            func element(_ app: ServedApp, _ id: String) -> Element? { app.session.navigator.screen[id] }

            try figure("set: value", [AppScreen.set("\(id).stepper", "value", #""1 no carrinho""#),
                                      AppScreen.set("\(id).stepper", "value", #""2 no carrinho""#)],
                       check: { element($0, "\(id).stepper")?.value?.hasSuffix("no carrinho") == true && element($0, "\(id).stepper")?.value != "0 no carrinho" })
            try figure("set: label", [AppScreen.set("\(id).stepper", "label", #""Quantidade (1)""#),
                                      AppScreen.set("\(id).stepper", "label", #""Quantidade (2)""#)],
                       check: { element($0, "\(id).stepper")?.label != .plain("Quantidade de \(AppScreen.names[k % AppScreen.names.count])") })
            try figure("set: traits, selected flips", [AppScreen.set("\(id).cell", "traits", #"["button","selected"]"#),
                                                       AppScreen.set("\(id).cell", "traits", #"["button"]"#)],
                       check: { element($0, "\(id).cell")?.traits.contains(.selected) == true })
            try figure("set: traits, header flips", [AppScreen.set("aisle\(aisle).heading", "traits", #"["staticText"]"#),
                                                     AppScreen.set("aisle\(aisle).heading", "traits", #"["header"]"#)],
                       check: { element($0, "aisle\(aisle).heading")?.traits.contains(.header) == false })
            try figure("update: a row moves (6 nodes)", [screen.moveRow(k, by: 4), screen.moveRow(k, by: 0)],
                       check: { element($0, "\(id).cell")?.frame?.y == Double(screen.rowTop(k) + 4) })

            // Adding and removing a row, in turns: with the whole children list, then by edits.
            func addAndRemove(_ names: (String, String), _ addLine: [UInt8], _ removeLine: [UInt8]) throws {
                var add = Figure(name: names.0), remove = Figure(name: names.1)
                var added: [UInt64] = [], removed: [UInt64] = []
                let deadline = Monotonic.now() + UInt64(2 * o.secondsPerFigure * 1e9)
                while added.count < o.maxSamples && (added.count < o.minSamples || Monotonic.now() < deadline) {
                    added.append(app.send(addLine))
                    try app.checkReplies()
                    if added.count == 1, element(app, "extra.stepper") == nil { throw BenchFailure("the added row is not on the screen") }
                    app.pass(10)
                    removed.append(app.send(removeLine))
                    try app.checkReplies()
                    if removed.count == 1, element(app, "extra.stepper") != nil { throw BenchFailure("the removed row is still on the screen") }
                    app.pass(10)
                }
                add.samples[size] = Summary(nanoseconds: added)
                remove.samples[size] = Summary(nanoseconds: removed)
                add.decode[size] = decodeTime(addLine, count: min(added.count, 200))
                remove.decode[size] = decodeTime(removeLine, count: min(removed.count, 200))
                add.lineBytes[size] = addLine.count
                remove.lineBytes[size] = removeLine.count
                figures += [add, remove]
            }
            try addAndRemove(("update: a row added (its list + 7 nodes)", "update: that row removed (its list)"),
                             screen.addRow(after: k, id: "extra"), screen.removeAddedRow(after: k))
            try addAndRemove(("update: a row added by an edit (7 nodes)", "update: that row removed by an edit"),
                             screen.addRowByEdit(after: k, id: "extra"), screen.removeRowByEdit(after: k, id: "extra"))

            try figure("screen: the whole screen again (same id)", [screen.line], check: { $0.focus == "header.title" })

            // The O(n) reference: the screen's whole reading order built from scratch.
            var rebuild = Figure(name: "reference: reading order built anew")
            var builds: [UInt64] = []
            let current = app.session.navigator.screen, language = app.session.navigator.language
            let until = Monotonic.now() + UInt64(o.secondsPerFigure * 1e9)
            while builds.count < o.maxSamples && (builds.count < o.minSamples || Monotonic.now() < until) {
                builds.append(Monotonic.measure { ReadingOrder(screen: current, language: language) }.nanoseconds)
            }
            rebuild.samples[size] = Summary(nanoseconds: builds)
            figures.append(rebuild)

            // The focused element's value: said, shown in braille.
            try app.sendChecked(Array(#"{"type":"notify","notification":"layoutChanged","focus":"\#(id).stepper"}"#.utf8))
            app.pass(5_000)
            guard app.focus == "\(id).stepper" else { throw BenchFailure("cannot focus \(id).stepper") }
            try figure("set: value of the focused element (spoken)", [AppScreen.set("\(id).stepper", "value", #""3 no carrinho""#),
                                                                      AppScreen.set("\(id).stepper", "value", #""4 no carrinho""#)])
            return figures
        } catch {
            printErr("tandem-bench: error: \(error)")
            exit(1)
        }
    }

    static func decodeTime(_ line: [UInt8], count: Int) -> Summary {
        var samples: [UInt64] = []
        for _ in 0..<max(1, count) {
            samples.append(Monotonic.measure { MessageDecoder.decode(line, line: 1) }.nanoseconds)
        }
        return Summary(nanoseconds: samples)
    }

    // MARK: the report

    static func table(_ layout: AppScreen.Layout, _ figures: [Figure], _ sizes: [Int]) -> String {
        let what = switch layout {
        case .sections: "sections: each aisle a container of its heading and 20 rows"
        case .flat: "flat: headings and rows all children of one list"
        }
        var lines = ["layout \(what)"]
        let col = 20
        var header = "".padding(toLength: 46, withPad: " ", startingAt: 0)
        for s in sizes { header += "\(Report.sizeName(s)): median / p99".leftPadded(to: col) }
        // Each size against the first, measured in this same process: the baseline.
        for s in sizes.dropFirst() { header += "\(Report.sizeName(s))/\(Report.sizeName(sizes.first!))".leftPadded(to: 10) }
        header += "decode, line at \(Report.sizeName(sizes.last!))".leftPadded(to: 28)
        lines.append(header)
        lines.append(String(repeating: "─", count: header.count))
        for f in figures {
            var row = f.name.padding(toLength: 46, withPad: " ", startingAt: 0)
            for s in sizes {
                let cell = f.samples[s].map { "\(Report.number($0.median / 1e3)) / \(Report.number($0.p99 / 1e3))" } ?? "n/a"
                row += cell.leftPadded(to: col)
            }
            for s in sizes.dropFirst() {
                if let a = f.samples[sizes.first!], let b = f.samples[s] { row += Report.ratio(b.median / a.median).leftPadded(to: 10) } else { row += "".leftPadded(to: 10) }
            }
            if let d = f.decode[sizes.last!], let bytes = f.lineBytes[sizes.last!] {
                row += "\(Report.number(d.median / 1e3)) µs, \(Report.number(Double(bytes))) B".leftPadded(to: 28)
            }
            lines.append(row)
        }
        let counts = figures.map { f in sizes.compactMap { f.samples[$0]?.count }.map(String.init).joined(separator: "/") }
        lines.append("samples per figure (by size): " + zip(figures.map(\.name), counts).map { "\($0.0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) \($0.1)" }.joined(separator: "; "))
        return lines.joined(separator: "\n") + "\n"
    }

    static func loadAverage() -> String {
        (ProcessMemory.read("/proc/loadavg") ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
