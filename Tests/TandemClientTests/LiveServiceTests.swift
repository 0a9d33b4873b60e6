import Foundation
import TandemVocabulary
import Testing
import TandemClient
import TandemModel
import TandemNavigator
import TandemProtocol
import TandemTestSupport

/// `TandemApp` and `TandemController` against a real `tandem serve` over its real socket: the
/// whole loop an embedding app lives in (publish, hear, act, answer), and what a failing call
/// tells its caller.
@Suite("the Swift client against tandem serve", .serialized)
struct LiveServiceTests {
    /// A grocery screen: a title, one row (a cell with a Delete action, a quantity stepper)
    /// and a checkout button.
    static func screen(quantity: Double = 0, rows: [String] = ["banana"]) -> AppScreen {
        AppScreen(id: "list", title: "Groceries", focus: "title", root: AppElement("root", children: [
            AppElement("title", label: "Groceries", traits: .header, frame: Frame(x: 16, y: 44, width: 358, height: 44)),
            products(quantity: quantity, rows: rows),
            AppElement("checkout", label: "Check out", traits: .button, frame: Frame(x: 16, y: 740, width: 358, height: 48)),
        ]))
    }

    static func products(quantity: Double = 0, rows: [String]) -> AppElement {
        AppElement("products", frame: Frame(x: 0, y: 96, width: 390, height: 240), children: rows.enumerated().map { k, id in
            let y = 104 + Double(k) * 80
            return AppElement("\(id).row", group: true, children: [
                AppElement("\(id).cell", label: id.capitalized, frame: Frame(x: 16, y: y, width: 250, height: 64), actions: ["Delete"]),
                AppElement("\(id).stepper", label: "\(id.capitalized) quantity", traits: .adjustable,
                           frame: Frame(x: 276, y: y + 16, width: 98, height: 32), adjust: stepper(quantity)),
            ])
        })
    }

    static func stepper(_ quantity: Double) -> AppAdjust { AppAdjust(value: quantity, min: 0, max: 20, format: "%@ in cart") }

    /// The service, the app with its screen shown, a controller following the transcript.
    struct Scene {
        let serve: ServeProcess
        let app: TandemApp
        let controller: TandemController

        init() throws {
            serve = try ServeProcess()
            app = try TandemApp(name: "Groceries", socketPath: serve.socket)
            try app.show(LiveServiceTests.screen())
            try app.sync()
            controller = try TandemController(socketPath: serve.socket)
            try controller.subscribe()
        }

        /// The first transcript line that `matches`, skipping the others (nil after 10 s).
        func line(_ matches: (TranscriptEntry) -> Bool) throws -> TranscriptEntry? {
            let end = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < end {
                guard let entry = try controller.nextTranscriptLine(timeout: end - ContinuousClock.now) else { return nil }
                if matches(entry) { return entry }
            }
            return nil
        }

        /// The transcript's focus event on `id`.
        func focusEvent(_ id: String) throws -> TranscriptEntry? {
            try line { $0.channel == .event && $0.string("type") == "focus" && $0.string("id") == id }
        }

        /// A speech line (spoken, queued or postponed) saying exactly `text`.
        func speech(_ text: String) throws -> TranscriptEntry? {
            try line { $0.channel == .speech && $0.text == text }
        }

        /// The app's next action (its focus events skipped), nil after 10 s.
        func action() throws -> AppAction? {
            let end = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < end {
                switch try app.nextEvent(timeout: end - ContinuousClock.now) {
                case .action(let a)?: return a
                case .rejected(let e)?: Issue.record("Tandem refused a message: \(e)"); return nil
                case .focus?: continue
                case nil: return nil
                }
            }
            return nil
        }

        func finish() {
            controller.close()
            app.close()
            #expect(serve.stop() == 0)
        }
    }

    @Test("status names the app in front, its screen and focus")
    func status() throws {
        let s = try Scene()
        let report = try s.controller.status()
        #expect(report.apps.map(\.name) == ["Groceries"] && report.apps.first?.foreground == true)
        #expect(report.apps.first?.client == s.app.client)
        #expect(report.screen == "list" && report.focus == "title")
        #expect(!report.speech && !report.braille, "no daemon in the test's environment")
        s.finish()
    }

    @Test("a controller's command moves focus: the app hears where, the transcript says it")
    func commandMovesFocus() throws {
        let s = try Scene()
        try s.controller.command(.next)
        #expect(try s.focusEvent("banana.cell") != nil)
        #expect(try s.speech("Banana") != nil)
        // The screen's first focus (the title) comes first, then the user's move.
        var heard: [String] = []
        while heard.last != "list banana.cell", let event = try s.app.nextEvent(timeout: .seconds(10)) {
            if case .focus(let screen, let element) = event { heard.append("\(screen) \(element)") }
        }
        #expect(heard == ["list title", "list banana.cell"])
        s.finish()
    }

    @Test("increment reaches the app as an action; the app's new value is spoken")
    func stepperLoop() throws {
        let s = try Scene()
        try s.controller.command(.next)
        try s.controller.command(.next)
        #expect(try s.focusEvent("banana.stepper") != nil)
        try s.controller.command(.increment)
        let action = try s.action()
        #expect(action?.kind == .increment && action?.element == "banana.stepper")
        try s.app.set("banana.stepper", .adjust(Self.stepper(1)))
        #expect(try s.speech("1 in cart") != nil, "the format renders the app's number")
        s.finish()
    }

    @Test("a custom action reaches the app by name; its announcement and update are heard")
    func customActionLoop() throws {
        let s = try Scene()
        try s.controller.command(.next)
        #expect(try s.focusEvent("banana.cell") != nil)
        try s.controller.command(named: "action-next")
        try s.controller.command(.activate)
        let action = try s.action()
        #expect(action?.kind == .custom && action?.name == "Delete" && action?.element == "banana.cell")
        try s.app.announce("Banana deleted")
        try s.app.update([Self.products(rows: [])], focus: "checkout")
        #expect(try s.speech("Banana deleted") != nil)
        #expect(try s.focusEvent("checkout") != nil)
        try s.app.sync()
        #expect(try s.controller.status().focus == "checkout")
        s.finish()
    }

    @Test("rows inserted and removed by edits, without the list: focus follows, and a bad edit is thrown by sync")
    func edits() throws {
        let s = try Scene()
        let kiwi = AppElement("kiwi.row", group: true, children: [
            AppElement("kiwi.cell", label: "Kiwi", frame: Frame(x: 16, y: 184, width: 250, height: 64)),
        ])
        try s.app.insert([kiwi], into: "products", at: .after("banana.row"), focus: "kiwi.cell")
        #expect(try s.focusEvent("kiwi.cell") != nil)
        #expect(try s.speech("Kiwi") != nil)
        try s.app.remove(["banana.row"], from: "products")
        try s.app.sync()
        try s.controller.command(.previous)
        #expect(try s.focusEvent("title") != nil, "the banana row is gone: before the kiwi comes the title")
        try s.app.remove(["banana.row"], from: "products")
        do {
            try s.app.sync()
            Issue.record("removing a row twice was accepted")
        } catch {
            guard case .rejected(let e, _) = error else { Issue.record("not rejected: \(error)"); s.finish(); return }
            #expect(e.message == #"edits[0].remove[0]: "banana.row" is not a child of "products" (no element has that id)"#)
        }
        #expect(try s.controller.status().focus == "title", "the connection goes on")
        s.finish()
    }

    @Test("a refused message is thrown by sync, naming its line and what was sent; the connection goes on")
    func refusedMessage() throws {
        let s = try Scene()
        try s.app.set("no.such.element", .label("Ghost"))
        do {
            try s.app.sync()
            Issue.record("a set on an unknown element was accepted")
        } catch {
            guard case .rejected(let e, let sent) = error else { Issue.record("not rejected: \(error)"); s.finish(); return }
            #expect(e.message.contains("no.such.element"), "\(e.message)")
            #expect(sent?.contains(#""id":"no.such.element""#) == true && sent?.contains(#""type":"set""#) == true)
            #expect(e.line == 4, "hello, screen, the status of the first sync, then this set")
        }
        try s.app.set("title", .label("My groceries"))
        try s.app.sync()
        do {
            try s.controller.command(named: "teleport")
            Issue.record("an unknown command was acknowledged")
        } catch {
            #expect("\(error)".contains(#"unknown command "teleport""#), "\(error)")
        }
        #expect(try s.controller.status().apps.count == 1)
        s.finish()
    }

    @Test("when the service stops, a waiting app is told the connection closed")
    func serviceStops() throws {
        let s = try Scene()
        #expect(s.serve.stop() == 0)
        do {
            while try s.app.nextEvent(timeout: .seconds(10)) != nil {}
            Issue.record("no end of the connection within 10 s")
        } catch {
            guard case .closed = error else { Issue.record("not closed: \(error)"); return }
        }
        #expect(throws: TandemClientError.self) { try s.controller.status() }
    }

    @Test("the example app (Examples/clients/swift) answers a controller: its stepper's new value is spoken")
    func exampleApp() throws {
        let serve = try ServeProcess()
        let example = Process()
        example.executableURL = TandemBinary.buildDirectory.appendingPathComponent("tandem-example-grocery")
        example.arguments = ["--socket", serve.socket]
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-example-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        example.standardOutput = try FileHandle(forWritingTo: log)
        example.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try example.run()
        defer {
            if example.isRunning { example.terminate() }
            try? FileManager.default.removeItem(at: log)
        }
        let controller = try TandemController(socketPath: serve.socket)
        #expect(waitUntil(timeout: .seconds(20)) { (try? controller.status().screen) == "list" }, "the example showed its list")
        try controller.subscribe()
        // title → Banana's cell → its stepper (the row groups the two).
        try controller.command(.next)
        try controller.command(.next)
        try controller.command(.increment)
        var spoken = false
        let end = ContinuousClock.now + .seconds(10)
        while !spoken, ContinuousClock.now < end, let entry = try controller.nextTranscriptLine(timeout: end - ContinuousClock.now) {
            spoken = entry.channel == .speech && entry.text == "1 in cart"
        }
        #expect(spoken, "the example answered increment with its new quantity")
        let printed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(printed.contains("<- action increment banana.stepper") && printed.contains("-> set banana.stepper 1 in cart"), "\(printed)")
        controller.close()
        #expect(serve.stop() == 0)
        #expect(waitUntil(timeout: .seconds(10)) { !example.isRunning })
        #expect(example.terminationStatus == 1, "the service went away: 1, as its usage says")
    }
}

/// The counter of Docs/protocol.md#swift, as written there, against a real service.
@Suite("the protocol page's Swift example", .serialized)
struct DocumentedExampleTests {
    @Test("the counter answers increment with its new value, which is spoken")
    func counter() throws {
        let serve = try ServeProcess()
        let finished = DispatchSemaphore(value: 0)
        let socket = serve.socket
        let appThread = Thread {
            defer { finished.signal() }
            // From here to the end of the loop: the page's example, with the test's socket.
            do {
                let app = try TandemApp(name: "Counter", socketPath: socket)
                var count = 0.0
                func counter() -> AppAdjust { AppAdjust(value: count, min: 0, max: 10, format: "%@") }
                try app.show(AppScreen(id: "main", focus: "count", root: AppElement("root", children: [
                    AppElement("count", label: "Count", traits: .adjustable, frame: Frame(x: 16, y: 100, width: 358, height: 44), adjust: counter()),
                ])))
                while let event = try app.nextEvent() {
                    guard case .action(let a) = event, a.element == "count" else { continue }
                    count = min(10, max(0, count + (a.kind == .increment ? 1 : a.kind == .decrement ? -1 : 0)))
                    try app.set("count", .adjust(counter()))   // within the user-action window: spoken as the user's change
                }
            } catch {}
        }
        appThread.start()
        let controller = try TandemController(socketPath: socket)
        #expect(waitUntil(timeout: .seconds(20)) { (try? controller.status().focus) == "count" }, "the counter showed its screen")
        try controller.subscribe(channels: [.speech])
        try controller.command(.increment)
        try controller.command(.increment)
        var spoken: [String] = []
        let end = ContinuousClock.now + .seconds(10)
        while !spoken.contains("2"), ContinuousClock.now < end, let entry = try controller.nextTranscriptLine(timeout: end - ContinuousClock.now) {
            if let text = entry.text { spoken.append(text) }
        }
        #expect(spoken.contains("1") && spoken.contains("2"), "\(spoken)")
        controller.close()
        #expect(serve.stop() == 0)
        #expect(finished.wait(timeout: .now() + 10) == .success, "the app's loop ended with the connection")
    }
}
