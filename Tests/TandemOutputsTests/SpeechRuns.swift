import Foundation
import Synchronization
import TandemModel
import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemService

/// Runs the sample stories headlessly and live, for the speech tests.
enum SpeechRuns {
    /// `Examples/NAME/NAME.catalog.json` with its `NAME.scenario`, for every sample there is.
    static func examples() -> [String] {
        let dir = SpeechDaemon.packageRoot + "/Examples"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.sorted().filter { n in
            FileManager.default.fileExists(atPath: "\(dir)/\(n)/\(n).catalog.json")
                && FileManager.default.fileExists(atPath: "\(dir)/\(n)/\(n).scenario")
        }
    }

    static var profiles: ProfileStore { ProfileStore(searchPath: [SpeechDaemon.packageRoot + "/Profiles"]) }

    /// The catalog, scenario and default profile of a sample.
    static func inputs(_ name: String) throws -> (Catalog, Scenario, Profile) {
        let dir = SpeechDaemon.packageRoot + "/Examples/\(name)/"
        let catalog = try CatalogLoader.load(path: dir + "\(name).catalog.json").catalog
        let text = try String(contentsOfFile: dir + "\(name).scenario", encoding: .utf8)
        let store = profiles
        let scenario = try Scenario.parse(text, file: "\(name).scenario", catalog: catalog, profileExists: store.exists)
        return (catalog, scenario, try store.load("default").0)
    }

    /// The headless run's records.
    static func headless(_ name: String) throws -> [Record] {
        let (catalog, scenario, profile) = try inputs(name)
        let sink = RecordingSink()
        _ = try Replay(catalog: catalog, scenario: scenario, profile: profile, profiles: profiles,
                       makeTranslator: { _ in BlankTranslator() }).run(sink: sink)
        return sink.records.map(\.record)
    }

    /// The same story played live through `outputs` at `speed` times real time; the records
    /// (the live transcript) and how long it took, in seconds.
    static func live(_ name: String, outputs: [any LiveOutput], speed: Double) throws -> (records: [Record], seconds: Double) {
        let (catalog, scenario, profile) = try inputs(name)
        let sink = RecordingSink()
        var replay = LiveReplay(catalog: catalog, scenario: scenario, profile: profile, profiles: profiles,
                                makeTranslator: { _ in BlankTranslator() })
        replay.speed = speed
        let start = Date()
        _ = try replay.run(transcript: sink, outputs: outputs)
        return (sink.records.map(\.record), Date().timeIntervalSince(start))
    }
}

extension [Record] {
    /// What the policy said to speak, in order.
    var speaks: [Spoken] {
        compactMap { if case .speech(.speak(let s)) = $0 { s } else { nil } }
    }

    /// Events of one type (`output`, `speechd`) as the transcript logs them, as dictionaries
    /// of their string fields.
    func events(_ type: String) -> [[String: String]] {
        compactMap { r in
            let line = Transcript.line(for: r, at: 0)
            guard line.string("ch") == "event", line.string("type") == type else { return nil }
            return Dictionary(line.fields.compactMap { f in
                if case .string(let s) = f.1 { (f.0, s) } else { nil }
            }, uniquingKeysWith: { a, _ in a })
        }
    }
}

extension Spoken {
    /// `important` or `message`: never dropped, always said in order.
    var isKept: Bool { priority == .important || priority == .message }
}

/// Braille the speech tests do not look at: one blank cell a character, no liblouis.
struct BlankTranslator: BrailleTranslator {
    func translate(_ text: String, language: String, cursor: Int?, editing: Bool) -> (cells: [Cell], cursor: Int?) {
        (Array(repeating: Cell(0), count: text.count), cursor)
    }
}

/// Everything an output reported, for tests to wait on and look at.
final class ReportLog: Sendable {
    private let events = Mutex<[LiveOutputEvent]>([])

    var reporter: @Sendable (LiveOutputEvent) -> Void { { [self] e in events.withLock { $0.append(e) } } }
    var all: [LiveOutputEvent] { events.withLock { $0 } }

    /// Waits until `done` holds for what was reported (or `timeout` seconds).
    @discardableResult
    func wait(timeout: Double = 5, until done: ([LiveOutputEvent]) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if done(all) { return true }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return done(all)
    }

    var statuses: [(available: Bool, message: String)] {
        all.compactMap { if case .status(let s) = $0 { (s.available, s.message) } else { nil } }
    }
}

/// `Spoken` values for driving an output directly, made by a real policy (so ids are unique
/// and priorities are the policy's own).
struct SpokenMaker {
    private var policy = SpeechPolicy()

    mutating func make(_ text: String, _ source: Source, important: Bool = false, language: String = "en", spell: Bool = false) -> Spoken {
        let progress = source == .progress ? ProgressStep(step: 1, steps: 3) : nil
        let u = Utterance(text: text, language: language, source: source, important: important, spell: spell, progress: progress)
        let decisions = policy.submit(u, causedByUser: false, at: 0) + policy.startDue(at: 0)
        for d in decisions {
            if case .speak(let s) = d, s.utterance == u {
                _ = policy.speechEnded(id: s.id, at: 0)
                return s
            }
        }
        fatalError("the policy did not speak \(text): \(decisions)")
    }
}
