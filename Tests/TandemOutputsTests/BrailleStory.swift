import Foundation
import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession
import TandemTestSupport

/// A sample walked as a deaf-blind tester walks it: the `braille-only` profile (nothing is
/// said), a private BRLTTY and its virtual display, keys pressed on the display alone, and what
/// the display shows read back from it after every key.
///
/// ```swift
/// let story = try BrailleStory(sample: "grocery")
/// defer { story.stop() }
/// story.shows("Mercado cab")
/// story.press("LNUP", shows: "Buscar btn")
/// story.checkEverythingSpokenWasShown()
/// ```
final class BrailleStory {
    let braille: BrailleFixture
    let live: LiveSession
    let catalog: Catalog
    let profile: Profile
    let language: String
    private let translator: any BrailleTranslator
    /// The display keys pressed so far.
    private(set) var pressed: [String] = []

    convenience init(sample: String, cells: Int = 40) throws {
        try self.init(catalog: try Example(sample).catalog(), cells: cells)
    }

    /// A story on `catalog`, with `profile` (the shipped `braille-only` when not given).
    init(catalog: Catalog, cells: Int = 40, profile: Profile? = nil) throws {
        self.catalog = catalog
        self.profile = try profile ?? ProfileStore.shipped.load("braille-only").0
        language = catalog.language
        translator = louisTranslator(for: self.profile)
        braille = try BrailleFixture(cells: cells)
        do {
            live = try braille.showSession(catalog: catalog, profile: self.profile)
        } catch {
            braille.stop()
            throw error
        }
    }

    func stop() { braille.stop() }

    // MARK: what the display shows

    /// The cells a line of `text` gives on the display, split into the display's windows as
    /// the session cuts them.
    func windows(of text: String) -> [[Cell]] {
        let cells = translator.translate(text, language: language, cursor: nil, editing: false).cells
        let line = BrailleLine(text: text, cells: cells, cursor: nil)
        return line.windows(width: braille.cells).map { Array(cells[$0]) }
    }

    /// Whether `display` shows one window of `text` (window `only` when given; blanks after
    /// it; BRLTTY's cursor, dots 7-8, may be ORed onto one cell).
    func display(_ display: DisplayState, shows text: String, window only: Int? = nil) -> Bool {
        let all = windows(of: text)
        let candidates = only.map { all.indices.contains($0) ? [all[$0]] : [] } ?? all
        return candidates.contains { window in
            let want = DisplayState.cells(showing: window, cursor: nil, columns: display.cells.count)
            var cursorCells = 0
            for (d, w) in zip(display.cells, want) where d != w {
                guard d == w | 0xC0 else { return false }
                cursorCells += 1
            }
            return cursorCells <= 1
        }
    }

    /// Checks that the display shows `text` (one of its windows), waiting for it.
    @discardableResult
    func shows(_ text: String, window: Int? = nil, within timeout: Duration = .seconds(5),
               sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let seen = braille.waitForDisplay(timeout: timeout) { display($0, shows: text, window: window) }
        let got = seen.state.map { "\($0.description) (the session's last line: \(live.lastFrame?.text ?? "none"))" } ?? "nothing"
        let which = window.map { " (window \($0 + 1))" } ?? ""
        #expect(seen.ok, "after \(pressed.last ?? "the start"): the display shows \"\(text)\"\(which); it shows \(got)",
                sourceLocation: sourceLocation)
        return seen.ok
    }

    /// Whether the display was ever sent one window of `text` (its log; BRLTTY's cursor
    /// allowed on one cell): for a line shown too briefly to be waited for.
    func wasShown(_ text: String, window: Int? = nil) -> Bool {
        braille.log().contains { line in
            guard let r = line.range(of: " BRAILLE "), let state = DisplayState(stateFile: "braille " + line[r.upperBound...]) else { return false }
            return display(state, shows: text, window: window)
        }
    }

    /// Presses display key `key` (a BRLTTY command: `LNDN`, `KEY_ENTER`, `ROUTE 3`) and checks
    /// that the display then shows `text`.
    func press(_ key: String, shows text: String, window: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        press(key)
        shows(text, window: window, sourceLocation: sourceLocation)
    }

    /// Presses display key `key`, once BRLTTY has taken the previous one.
    func press(_ key: String) {
        let before = live.events.brailleCommands.count
        pressed.append(key)
        braille.press(key)
        // The key reached the session (as a command) before the next one is pressed.
        #expect(live.wait(timeout: .seconds(3)) { $0.events.brailleCommands.count > before }, "\(key) reached the session")
    }

    // MARK: speech parity

    /// Everything a speech user would have heard, had they pressed the same keys (listening to
    /// all each key brings), reached this display: each piece of each utterance (the label, the value, each
    /// trait word as its short form, the announcement, …) is in a line that was on the display
    /// between that key and the next. Hints are not shown (Docs/braille.md#rules) except
    /// "Actions available", shown as the actions word.
    func checkEverythingSpokenWasShown(sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(live.finish(whenQuietWithin: 30_000), "the session ended", sourceLocation: sourceLocation)
        let records = live.records.records
        #expect(!records.contains { if case .speech(.speak) = $0.record { true } else { false } }, "braille-only says nothing",
                sourceLocation: sourceLocation)

        // The keys as the session took them, with their times.
        var keys: [(time: Int, command: Command)] = []
        for r in records {
            guard case .event(let e) = r.record, e.type == "key",
                  let name = e.fields.first(where: { $0.key == "command" })?.value, let c = Command(name: name) else { continue }
            keys.append((r.time, c))
        }
        #expect(keys.count == pressed.count, "every display key was a command", sourceLocation: sourceLocation)

        // What reached the display (the display's own log), and the lines the session wrote.
        let written = Set(braille.log().compactMap { line -> String? in
            guard let r = line.range(of: " BRAILLE ") else { return nil }
            return String(line[r.upperBound...])
        })
        let columns = braille.cells
        let shownFrames = records.compactMap { r -> (time: Int, text: String)? in
            guard case .braille(let f) = r.record, written.contains(unicodeBraille(DisplayState.cells(showing: f, columns: columns))) else { return nil }
            return (r.time, f.text)
        }

        // The same keys for a speech user who listens to everything each key brings before
        // pressing the next (but stops read-all when the story did). Their display works as
        // this one (messages until a key), so both walk the same path.
        var speechProfile = profile
        speechProfile.speech = true
        speechProfile.progressFeedback = Profile().progressFeedback
        let heard = RecordingSink()
        var session = Session(catalog: catalog, profile: speechProfile, sink: heard, timing: .virtual, makeTranslator: louisTranslator(for:))
        session.start(at: 0)
        session.settle()
        var keyTimes: [Int] = []
        for (i, k) in keys.enumerated() {
            let gap = (i == 0 ? k.time : k.time - keys[i - 1].time)
            let reading = i > 0 && [Command.readAll, .readFromTop].contains(keys[i - 1].command)
            session.advance(to: session.now + gap)
            while !reading, !session.isQuiet, let due = session.nextDeadline { session.advance(to: due) }
            keyTimes.append(session.now)
            session.perform(k.command, at: session.now)
            session.settle()
        }
        while !session.isQuiet, let due = session.nextDeadline, due < session.now + 60_000 { session.advance(to: due) }

        // When each utterance was asked for (a postponed one is said later).
        var asked: [Int: Int] = [:]
        for r in heard.records {
            guard case .speech(let d) = r.record else { continue }
            switch d {
            case .speak(let s), .postpone(let s, _): if asked[s.id] == nil { asked[s.id] = r.time }
            default: break
            }
        }
        let parity = SpeechBrailleParity(phrases: Phrases.forLanguage(language))
        var checked = 0
        for r in heard.records {
            guard case .speech(.speak(let s)) = r.record else { continue }
            checked += 1
            // The key this speech answers: the last one pressed before it was asked for…
            let k = keyTimes.lastIndex { $0 <= asked[s.id] ?? r.time }
            // Read-all with no speech goes at a braille reader's pace, slower than speech's
            // (Docs/braille.md#rules): the elements speech reached and the display had not yet
            // when the next key stopped it are not missing; the story's own steps check the
            // elements the display did show.
            if let k, [Command.readAll, .readFromTop].contains(keys[k].command), s.utterance.source == .focus { continue }
            // …and the lines on the display from that key until the next key's answer (a message
            // over a focus line not yet seen: the next key only shows the line), and the one
            // showing when it was pressed.
            let from = k.map { keys[$0].time } ?? 0
            let to = k.flatMap { $0 + 2 < keys.count ? keys[$0 + 2].time : nil } ?? Int.max
            var lines = shownFrames.filter { $0.time >= from && $0.time < to }.map(\.text)
            if let before = shownFrames.last(where: { $0.time < from }) { lines.append(before.text) }
            let missing = parity.missing(s.utterance, shown: lines)
            let key = k.map { keys[$0].command.name } ?? "the start"
            #expect(missing.isEmpty, "after \(key) (key \(k.map { $0 + 1 } ?? 0)) a speech user hears \"\(s.utterance.text)\"; never shown: \(missing); the display showed \(lines)",
                    sourceLocation: sourceLocation)
        }
        #expect(checked >= 10, "the speech user heard \(checked) things", sourceLocation: sourceLocation)
    }
}

/// Compares what speech says with what the display shows: an utterance is cut into the pieces
/// speech pauses between (", ", ". ", ": "), and each must be in a line shown — a trait or state word
/// as its braille short form (`botão` → `btn`, `2 из 3` → `2/3`).
struct SpeechBrailleParity {
    let phrases: Phrases

    /// Speech words and their braille forms: (phrases key, braille key).
    static let pairs: [(String, String)] = [
        ("state.selected", "braille.selected"), ("switch.on", "braille.switch.on"), ("switch.off", "braille.switch.off"),
        ("switch.mixed", "braille.switch.mixed"), ("context.listStart", "braille.listStart"), ("context.listEnd", "braille.listEnd"),
        ("context.landmarkStart", "braille.landmarkStart"), ("context.landmarkEnd", "braille.landmarkEnd"),
        ("hint.actionsAvailable", "braille.actionsAvailable"),
    ] + ["notEnabled", "button", "backButton", "switchButton", "tab", "textField", "secureTextField", "isEditing", "header",
         "link", "adjustable", "image", "searchField"].map { ("trait." + $0, "braille." + $0) }

    /// Patterns with numbers: (phrases key, braille key).
    static let patterns: [(String, String)] = [
        ("context.position", "braille.position"), ("context.row", "braille.row"), ("context.column", "braille.column"),
        ("context.rowSpan", "braille.rowSpan"), ("context.columnSpan", "braille.columnSpan"),
    ]

    /// How `piece` is written on the display.
    func brailleForm(of piece: String) -> String {
        for (speech, short) in Self.pairs where phrases.has(speech) && phrases.text(speech) == piece { return phrases.text(short) }
        for (speech, short) in Self.patterns where phrases.has(speech) {
            if let args = Self.match(piece, phrases.text(speech)) { return Self.fill(phrases.text(short), args) }
        }
        return piece
    }

    /// The pieces of `u` that no line in `shown` holds (empty when all are shown).
    func missing(_ u: Utterance, shown: [String]) -> [String] {
        // Hints are not shown (as VoiceOver shows none), except "Actions available" (the actions word).
        if u.source == .hint, u.text != phrases.actionsAvailable { return [] }
        var pieces = [u.text]
        for separator in [". ", ", ", ": "] { pieces = pieces.flatMap { $0.components(separatedBy: separator) } }
        return pieces.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.filter { piece in
            let form = brailleForm(of: piece)
            return !shown.contains { $0.contains(form) }
        }
    }

    /// The values of `%1$@`/`%2$@`/`%@` when `text` is `pattern` filled in.
    static func match(_ text: String, _ pattern: String) -> [String]? {
        // Split the pattern at its placeholders.
        var literals: [String] = []
        var rest = Substring(pattern)
        while let r = rest.range(of: "%[0-9]?\\$?@", options: .regularExpression) {
            literals.append(String(rest[..<r.lowerBound]))
            rest = rest[r.upperBound...]
        }
        literals.append(String(rest))
        guard literals.count > 1 else { return nil }
        var args: [String] = []
        var t = Substring(text)
        guard t.hasPrefix(literals[0]) else { return nil }
        t = t.dropFirst(literals[0].count)
        for literal in literals.dropFirst() {
            if literal.isEmpty {
                args.append(String(t)); t = ""
                continue
            }
            guard let r = t.range(of: literal) else { return nil }
            args.append(String(t[..<r.lowerBound]))
            t = t[r.upperBound...]
        }
        guard t.isEmpty, args.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else { return nil }
        return args
    }

    static func fill(_ pattern: String, _ args: [String]) -> String {
        var out = pattern
        for (i, a) in args.enumerated() { out = out.replacingOccurrences(of: "%\(i + 1)$@", with: a) }
        if let a = args.first { out = out.replacingOccurrences(of: "%@", with: a) }
        return out
    }
}
