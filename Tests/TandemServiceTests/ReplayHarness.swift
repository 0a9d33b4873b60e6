import Foundation
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession
import TandemTestSupport
import TandemVocabulary

/// Runs a catalog and a scenario headlessly, in process, exactly as `tandem replay` does, and
/// hands back what a listener would have heard and felt, for story tests to look at.
///
/// - Files are named relative to the package root (`Examples/pizza/pizza.catalog.json`).
/// - Braille goes through the real liblouis (`louisTranslator(for:)`), with the profile's
///   contraction settings, as in the CLI.
/// - Profiles come from the package's own `Profiles/` folder only (`ProfileStore.shipped`),
///   so a run does not depend on the machine. A scenario's `profile NAME` lines use it too.
/// - The transcript is built from `Transcript.line(for:at:)`, line for line what the CLI
///   writes, so `run.transcript` can be compared byte for byte with a golden file.
///
/// ```swift
/// let run = try ReplayHarness.replay(example: "grocery")
/// #expect(run.transcript == (try Example("grocery").golden()))
/// #expect(run.spoken.contains("Mercado, cabeçalho"))
/// ```
enum ReplayHarness {
    /// A profile from `Profiles/` (`default` when none is named).
    static func profile(_ name: String = "default") throws -> Profile {
        try ProfileStore.shipped.load(name).0
    }

    static func catalog(_ relative: String) throws -> Catalog {
        try CatalogLoader.load(path: PackageRoot.path(relative)).catalog
    }

    /// Runs `Examples/NAME/NAME.catalog.json` with `Examples/NAME/NAME.scenario`.
    static func replay(example name: String, profile: Profile? = nil) throws -> ReplayRun {
        try replay(catalog: "Examples/\(name)/\(name).catalog.json", scenario: "Examples/\(name)/\(name).scenario", profile: profile)
    }

    /// Runs a catalog with a scenario file, both relative to the package root.
    static func replay(catalog: String, scenario: String, profile: Profile? = nil) throws -> ReplayRun {
        let text = try String(contentsOfFile: PackageRoot.path(scenario), encoding: .utf8)
        return try replay(catalog: catalog, scenarioText: text, scenarioName: scenario, profile: profile)
    }

    /// Runs a catalog with a scenario written inline (one command a line, as in a file).
    static func replay(catalog: String, scenarioText: String, scenarioName: String = "inline.scenario",
                       profile: Profile? = nil) throws -> ReplayRun {
        let c = try self.catalog(catalog)
        let store = ProfileStore.shipped
        let scenario = try Scenario.parse(scenarioText, file: scenarioName, catalog: c, profileExists: store.exists)
        let replay = Replay(catalog: c, scenario: scenario, profile: try profile ?? self.profile(),
                            profiles: store, makeTranslator: louisTranslator(for:))
        let sink = RecordingSink()
        let result = try replay.run(sink: sink)
        return ReplayRun(records: sink.records, result: result)
    }
}

/// What one replay produced: every record in order, as transcript lines, with views that
/// story tests read (what was spoken, shown, sounded, where focus went).
struct ReplayRun {
    let records: [(time: Int, record: Record)]
    /// `expect` failures, end time, whether the run was cut short.
    let result: Replay.Result
    /// One transcript line per record, in order.
    let lines: [TranscriptLine]

    init(records: [(time: Int, record: Record)], result: Replay.Result) {
        self.records = records
        self.result = result
        self.lines = records.map { Transcript.line(for: $0.record, at: $0.time) }
    }

    /// The JSON Lines transcript, byte for byte what `tandem replay --out` writes.
    var transcript: String { lines.map { $0.json + "\n" }.joined() }

    /// Lines of one channel (`speech`, `braille`, `sound`, `event`).
    func channel(_ ch: String) -> [TranscriptLine] { lines.filter { $0.string("ch") == ch } }

    /// Speech lines with operation `op` (`speak`, `cancel`, `drop`, `postpone`).
    func speech(_ op: String) -> [TranscriptLine] { channel("speech").filter { $0.string("op") == op } }

    /// Every text actually spoken (`speak` lines), in order.
    var spoken: [String] { speech("speak").compactMap { $0.string("text") } }

    /// Texts spoken from a given source (`focus`, `value`, `announcement`, `hint`, `progress`).
    func spoken(source: String) -> [String] {
        speech("speak").filter { $0.string("src") == source }.compactMap { $0.string("text") }
    }

    /// The `speak` line for the first utterance whose text is exactly `text`.
    func speakLine(_ text: String) -> TranscriptLine? {
        speech("speak").first { $0.string("text") == text }
    }

    /// Braille lines written to the display, in order.
    var braille: [TranscriptLine] { channel("braille") }

    /// The text of every braille line written, in order.
    var brailleTexts: [String] { braille.compactMap { $0.string("text") } }

    /// Sound icons played, in order.
    var sounds: [String] { channel("sound").compactMap { $0.string("icon") } }

    /// Event lines of one type (`focus`, `screen`, `activate`, `action`, `key`, `unhandled`, …).
    func events(_ type: String) -> [TranscriptLine] { channel("event").filter { $0.string("type") == type } }

    /// Element ids focus went to, in order (optionally only for one reason: `user`, `readAll`, …).
    func focusedIDs(reason: String? = nil) -> [String] {
        events("focus").filter { reason == nil || $0.string("reason") == reason }.compactMap { $0.string("id") }
    }

    /// Index in `lines` of the first line matching `predicate` at or after `start`.
    func index(from start: Int = 0, where predicate: (TranscriptLine) -> Bool) -> Int? {
        guard start < lines.count else { return nil }
        return lines[start...].firstIndex(where: predicate)
    }

    /// Index of the `speak` line with exactly this text.
    func indexOfSpeech(_ text: String, from start: Int = 0) -> Int? {
        index(from: start) { $0.string("ch") == "speech" && $0.string("op") == "speak" && $0.string("text") == text }
    }

    /// The lines that follow the `n`-th (0-based) key press of `command`, up to the next key.
    func afterKey(_ command: String, occurrence n: Int = 0) -> [TranscriptLine] {
        let keys = lines.indices.filter { lines[$0].string("type") == "key" && lines[$0].string("command") == command }
        guard n < keys.count else { return [] }
        let start = keys[n] + 1
        let end = index(from: start) { $0.string("type") == "key" } ?? lines.count
        return Array(lines[start..<end])
    }
}
