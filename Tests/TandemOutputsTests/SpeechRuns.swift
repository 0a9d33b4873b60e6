import Foundation
import TandemModel
import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemService
import TandemSession
import TandemTestSupport
import TandemVocabulary

/// Runs the sample stories headlessly and live, for the speech tests.
enum SpeechRuns {
    /// The samples under `Examples/` that have a catalog and a scenario, by name.
    static func examples() throws -> [String] { try Example.all().map(\.name) }

    static var profiles: ProfileStore { .shipped }

    /// The catalog, scenario and default profile of a sample.
    static func inputs(_ name: String) throws -> (Catalog, Scenario, Profile) {
        let example = Example(name)
        let catalog = try example.catalog()
        return (catalog, try example.scenario(for: catalog, profiles: profiles), try profiles.load("default").0)
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

/// Whether `sub` appears in `seq` in order (not necessarily next to each other).
func isSubsequence<T: Equatable>(_ sub: [T], of seq: [T]) -> Bool {
    var i = sub.startIndex
    for x in seq where i < sub.endIndex && sub[i] == x { i += 1 }
    return i == sub.endIndex
}
