import Foundation
import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPresentation
import TandemService

/// A live session on the real clock (a `LiveRunner` on its own thread) whose braille goes to
/// a real BRLTTY through `BrlAPIOutput`, whose records are kept, and whose output events
/// (statuses, keys, display sizes) are logged as they reach the runner.
final class BrailleLiveSession: @unchecked Sendable {
    let runner: LiveRunner
    let output: BrlAPIOutput
    let records = RecordingSink()
    private let lock = NSLock()
    private var eventLog: [(time: ContinuousClock.Instant, event: LiveOutputEvent)] = []
    private let done = DispatchSemaphore(value: 0)
    private var finished = false

    init(catalog: Catalog, profile: Profile = Profile(), host: String?, auth: String?,
         settings: BrlAPIOutput.Settings = BrlAPIOutput.Settings()) {
        output = BrlAPIOutput(host: host, auth: auth, keyMap: .default, settings: settings)
        let session = Session(catalog: catalog, profile: profile, sink: MultiplexSink([records, output]), timing: .virtual,
                              makeTranslator: { p in LouisTranslator(contracted: p.contracted, computerBrailleAtCursor: p.computerBrailleAtCursor) })
        runner = LiveRunner(session: session)
        let runner = self.runner
        output.start { [weak self] event in
            self?.log(event)
            runner.send(.output(event))
        }
        let thread = Thread { [runner, done] in
            runner.run()
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    deinit { finish() }

    /// Stops the runner and gives the display back.
    func finish() {
        lock.lock()
        let already = finished
        finished = true
        lock.unlock()
        guard !already else { return }
        runner.send(.quit)
        _ = done.wait(timeout: .now() + 10)
        output.stop()
    }

    func send(_ command: Command) { runner.send(.command(command)) }

    private func log(_ event: LiveOutputEvent) {
        lock.lock(); defer { lock.unlock() }
        eventLog.append((ContinuousClock.now, event))
    }

    /// Output events in the order they were reported.
    var events: [(time: ContinuousClock.Instant, event: LiveOutputEvent)] {
        lock.lock(); defer { lock.unlock() }
        return eventLog
    }

    /// The braille statuses reported so far (available, message).
    var statuses: [(available: Bool, message: String)] {
        events.compactMap {
            if case .status(let s) = $0.event, s.output == .braille { return (s.available, s.message) }
            return nil
        }
    }

    /// The display keys that reached Tandem.
    var commands: [String] {
        events.compactMap {
            if case .brailleCommand(let n, let a) = $0.event { return a.map { "\(n) \($0)" } ?? n }
            return nil
        }
    }

    /// The last frame the session emitted.
    var lastFrame: BrailleFrame? {
        for r in records.records.reversed() { if case .braille(let f) = r.record { return f } }
        return nil
    }

    /// Waits until `predicate` holds for the session's records (or the timeout passes).
    @discardableResult
    func wait(timeout: Duration = .seconds(3), until predicate: (BrailleLiveSession) -> Bool) -> Bool {
        let end = ContinuousClock.now + timeout
        repeat {
            if predicate(self) { return true }
            usleep(5_000)
        } while ContinuousClock.now < end
        return predicate(self)
    }

    /// Connected, the display's width known to the session, and its frame on the display.
    func waitUntilShown(on harness: BrailleHarness, timeout: Duration = .seconds(5)) -> Bool {
        wait(timeout: timeout) { s in
            s.events.contains { if case .displaySize = $0.event { return true }; return false }
                && (s.lastFrame.map { $0.cells.count <= harness.cells } ?? false)
        } && harness.waitForDisplay(timeout: timeout) { d in self.lastFrame.map(d.shows) ?? false }.ok
    }
}

/// Catalogs for the braille tests, decoded from inline JSON.
enum BrailleFixtures {
    /// A title, a label long enough for three 80-cell windows, two buttons (one announces,
    /// one opens a second screen).
    static let longLabel = "Delivery notes: leave the parcel with the neighbour at number twelve if nobody answers, "
        + "ring twice because the bell is quiet, the side gate is open until eight in the evening, "
        + "and please keep the box upright since it holds six glass jars of homemade plum jam and honey"

    static let panelJSON = """
    {
      "format": "tandem.catalog/1", "name": "Braille panel", "language": "en", "start": "panel",
      "screens": [
        { "id": "panel", "title": "Panel", "focus": "panel.title", "root": { "id": "panel.root", "children": [
          { "id": "panel.title", "label": "Panel", "traits": ["header"] },
          { "id": "notes.text", "label": "\(longLabel)", "traits": ["staticText"] },
          { "id": "save.button", "label": "Save", "traits": ["button"],
            "activate": [{ "post": "announcement", "text": "Saved to your drafts" }] },
          { "id": "details.button", "label": "Details", "traits": ["button"],
            "activate": [{ "screen": "details" }] }
        ] } },
        { "id": "details", "title": "Details", "focus": "details.title", "root": { "id": "details.root", "children": [
          { "id": "details.title", "label": "Order details", "traits": ["header"] }
        ] } }
      ]
    }
    """

    static func panel() throws -> Catalog {
        var decoder = CatalogDecoder(file: "panel.catalog.json")
        return try decoder.decode(Array(panelJSON.utf8))
    }

    static func grocery() throws -> (Catalog, Scenario) {
        let dir = BrailleHarness.packageRoot + "/Examples/grocery/"
        let catalog = try CatalogLoader.load(path: dir + "grocery.catalog.json").catalog
        let text = try String(contentsOfFile: dir + "grocery.scenario", encoding: .utf8)
        return (catalog, try Scenario.parse(text, file: "grocery.scenario", catalog: catalog))
    }
}
