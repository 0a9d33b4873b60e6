import Foundation
import TandemPolicy
import TandemVocabulary

/// What a soak found: announcements lost and doubled (the capture against the headless
/// transcript), what the policy may drop, recovery times, memory and descriptors.
///
/// "Heard" is a message the capture module spoke whole (an `END` line, or the instant
/// module's `SAY`); a `BEGIN` without its `END` was cut (a kill, or a priority rule) and is
/// neither heard nor a double when it is said again.
struct SoakReport {
    var seconds: Int
    var seed: UInt64
    /// The capture module's speaking time, ms a character (0: instant).
    var msPerChar: Int
    var elapsed: Double
    var expected: [SoakSessionRecorder.Said]
    var live: [SoakSessionRecorder.Said]
    var captured: [CaptureFollower.Line]
    var speechRestarts: [Soak.Restart]
    var speechPlanned: Int
    var speechErrors: [String]
    var brailleRestarts: [Soak.Restart]
    var braillePlanned: Int
    var brailleErrors: [String]
    var before: ProcessUsage?
    var after: ProcessUsage?
    var failures: Int

    /// The texts of what the capture module spoke whole, in order.
    var heardTexts: [String] { captured.filter(\.heard).map(\.text) }

    /// Texts and how often each occurs.
    static func counts<S: Sequence>(_ texts: S) -> [String: Int] where S.Element == String {
        var c: [String: Int] = [:]
        for t in texts { c[t, default: 0] += 1 }
        return c
    }

    /// For the utterances of `priorities` in `reference` (the headless run by default): how many, how many of them
    /// the capture lacks, and how many it has more often than that; with examples of each.
    func compare(_ priorities: Set<Priority>, against reference: [SoakSessionRecorder.Said]? = nil) -> (expected: Int, lost: Int, doubled: Int, lostTexts: [String], doubledTexts: [String]) {
        let want = Self.counts((reference ?? expected).filter { priorities.contains($0.priority) }.map(\.text))
        let got = Self.counts(heardTexts)
        var lost = 0, doubled = 0
        var lostTexts: [String] = [], doubledTexts: [String] = []
        for (text, n) in want.sorted(by: { $0.key < $1.key }) {
            let m = got[text, default: 0]
            if m < n { lost += n - m; lostTexts.append(text) }
            if m > n { doubled += m - n; doubledTexts.append(text) }
        }
        return (want.values.reduce(0, +), lost, doubled, lostTexts, doubledTexts)
    }

    static func milliseconds(_ values: [Double]) -> String {
        guard !values.isEmpty else { return "no samples" }
        let s = values.sorted()
        func p(_ q: Double) -> Double { s[min(s.count - 1, Int(Double(s.count) * q))] }
        return String(format: "median %.0f ms, p90 %.0f, max %.0f (%d)", p(0.5), p(0.9), s[s.count - 1], s.count)
    }

    /// Doubled texts split: said again because speech-dispatcher was killed after the first
    /// saying was sent and before its end notice reached Tandem (kept until heard,
    /// Docs/speech.md), with how long before the kill the first saying was seen; said again
    /// because the live policy spoke it twice (an `important` cut it and it was put back,
    /// Docs/policy.md); and doubled with nothing to explain it.
    func splitDoubles(_ texts: [String]) -> (afterCrash: [Double], respoken: Int, unexplained: [String]) {
        var afterCrash: [Double] = [], respoken = 0, unexplained: [String] = []
        let decided = Self.counts(live.map(\.text))
        for text in texts {
            let times = captured.filter { $0.heard && $0.text == text }.map(\.time)
            guard let first = times.first, let last = times.last else { continue }
            // the kill's stamp is taken before the script runs: a restart that ended after the
            // first saying and began before the second lies between them
            if let r = speechRestarts.first(where: { $0.ready >= first && $0.killed <= last }) {
                afterCrash.append(Double(Int64(bitPattern: r.killed &- first)) / 1e6)
            } else if decided[text, default: 0] > 1 {
                respoken += 1
            } else {
                unexplained.append(text)
            }
        }
        return (afterCrash, respoken, unexplained)
    }

    /// Sayings of `priorities` begun and cut before their end (a `BEGIN` with no `END` of the
    /// same text before the text begins again), split by whether speech-dispatcher was killed
    /// between the `BEGIN` and what came next; with examples. Always empty with the instant
    /// module.
    func cuts(_ priorities: Set<Priority>) -> (byKill: Int, otherwise: Int, examples: [String]) {
        let texts = Set(live.filter { priorities.contains($0.priority) }.map(\.text))
        var lines: [String: [CaptureFollower.Line]] = [:]
        for line in captured where texts.contains(line.text) && line.kind != .say { lines[line.text, default: []].append(line) }
        var byKill = 0, otherwise = 0, examples: [String] = []
        for (text, sayings) in lines.sorted(by: { $0.key < $1.key }) {
            for (i, line) in sayings.enumerated() where line.kind == .begin {
                let next = i + 1 < sayings.count ? sayings[i + 1] : nil
                if next?.kind == .end { continue }
                let until = next?.time ?? UInt64.max
                if speechRestarts.contains(where: { $0.killed >= line.time && $0.killed <= until }) { byKill += 1 } else { otherwise += 1 }
                if examples.count < 5 { examples.append(text) }
            }
        }
        return (byKill, otherwise, examples)
    }

    /// Texts the live session spoke (at `priorities`) that the capture never has heard whole.
    func neverCaptured(_ priorities: Set<Priority>) -> (decided: Int, missing: [String]) {
        let got = Set(heardTexts)
        let texts = Set(live.filter { priorities.contains($0.priority) }.map(\.text))
        return (texts.count, texts.filter { !got.contains($0) }.sorted())
    }

    /// No `important` or `message` utterance lost, none doubled without a crash to explain
    /// it, and every restart done.
    var clean: Bool {
        let r = compare([.important, .message])
        return r.lost == 0 && neverCaptured([.important, .message]).missing.isEmpty
            && splitDoubles(r.doubledTexts).unexplained.isEmpty && speechErrors.isEmpty && brailleErrors.isEmpty
    }

    func render() -> String {
        var out = "tandem-bench soak: \(seconds) s of scenario (+\(SoakScenario.tail / 1000) s tail), seed \(seed), ran \(String(format: "%.0f", elapsed)) s\n"
        out += "restarts: speech-dispatcher \(speechRestarts.count) of \(speechPlanned) (\(speechErrors.count) failed), "
        out += "BRLTTY \(brailleRestarts.count) of \(braillePlanned) (\(brailleErrors.count) failed)\n"
        for e in (speechErrors + brailleErrors).prefix(5) { out += "  restart error: \(e)\n" }
        out += "expect lines failed: \(failures)\n"
        out += msPerChar == 0
            ? "capture module: instant (a message is heard whole the moment it starts)\n\n"
            : "capture module: speaking \(msPerChar) ms a character; heard = spoken to its end\n\n"

        out += "must never be lost (headless transcript vs heard whole in the capture):\n"
        for (name, set) in [("important", Set([Priority.important])), ("message", Set([Priority.message]))] {
            let r = compare(set)
            out += "  \(name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(r.expected) to say: lost \(r.lost), doubled \(r.doubled)\n"
            if !r.lostTexts.isEmpty { out += "    lost: \(r.lostTexts.prefix(10).joined(separator: " | "))\n" }
            if !r.doubledTexts.isEmpty { out += "    doubled: \(r.doubledTexts.prefix(10).joined(separator: " | "))\n" }
        }
        let doubles = splitDoubles(compare([.important, .message]).doubledTexts)
        let cut = cuts([.important, .message])
        out += "  begun, cut before their end and said again (not doubles): \(cut.byKill) by a kill, \(cut.otherwise) by a priority rule or cancel"
        out += cut.examples.isEmpty ? "\n" : " (e.g. \(cut.examples.prefix(3).joined(separator: " | ")))\n"
        out += "  doubled because the daemon was killed after the first saying was sent, before its end notice: \(doubles.afterCrash.count) "
        out += "(the first saying heard whole \(Self.milliseconds(doubles.afterCrash)) before the kill script started; negative: after it, which takes a few ms to kill)\n"
        out += "  doubled because the policy spoke it twice (cut by an important, put back): \(doubles.respoken)\n"
        out += "  doubled with no kill in between: \(doubles.unexplained.count)\(doubles.unexplained.isEmpty ? "" : " (" + doubles.unexplained.prefix(10).joined(separator: " | ") + ")")\n"
        let announcements = expected.filter { $0.text.hasPrefix(SoakScenario.word + " ") }.count
        out += "  (of these, \(announcements) are the scenario's unique announcements)\n\n"

        // Tandem's own messages (an output lost, `error` at `message`) exist only live.
        let own = neverCaptured([.important, .message])
        out += "  texts the live session spoke at important or message (its own messages too): \(own.decided), never captured: \(own.missing.count)\n"
        if !own.missing.isEmpty { out += "    never captured: \(own.missing.prefix(10).joined(separator: " | "))\n" }
        out += "\n"

        out += "the policy may drop (stale in an outage, latest-wins, hints, progress in between);\n"
        out += "the headless run's estimated durations queue more than instant live speech, so the live session's own decisions are the reference:\n"
        let gotCounts = Self.counts(heardTexts)
        for p in [Priority.text, .notification, .progress] {
            let decided = Self.counts(live.filter { $0.priority == p }.map(\.text))
            let said = decided.reduce(0) { $0 + min($1.value, gotCounts[$1.key, default: 0]) }
            let total = decided.values.reduce(0, +)
            out += "  \(p.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) headless spoke \(expected.filter { $0.priority == p }.count), live session spoke \(total), captured \(said) of those (\(total - said) cut or stale)\n"
        }
        let known = Set(live.map(\.text))
        let other = captured.filter { $0.started && !known.contains($0.text) }
        out += "  captured texts the live session never spoke: \(other.count)"
        out += other.isEmpty ? "\n" : " (\(Self.counts(other.map(\.text)).sorted { $0.value > $1.value }.prefix(5).map { "\($0.key) ×\($0.value)" }.joined(separator: "; ")))\n"
        out += "\n"

        // speech back: the first capture line after the daemon answered, before the next kill
        var fromReady: [Double] = [], fromKill: [Double] = [], restartCost: [Double] = []
        var silent = 0
        for (i, r) in speechRestarts.enumerated() {
            restartCost.append(Double(r.ready - r.killed) / 1e6)
            let next = i + 1 < speechRestarts.count ? speechRestarts[i + 1].killed : UInt64.max
            if let line = captured.first(where: { $0.started && $0.time > r.ready }), line.time < next {
                fromReady.append(Double(line.time - r.ready) / 1e6)
                fromKill.append(Double(line.time - r.killed) / 1e6)
            } else { silent += 1 }
        }
        out += "speech-dispatcher: kill + restart script \(Self.milliseconds(restartCost))\n"
        out += "  restart -> first speech captured: \(Self.milliseconds(fromReady))\n"
        out += "  kill -> first speech captured: \(Self.milliseconds(fromKill))\n"
        out += "  \(silent) restarts were killed again (or the run ended) before anything was said\n"
        let brailleBack = brailleRestarts.compactMap { r in r.back.map { Double($0 - r.ready) / 1e6 } }
        out += "BRLTTY: kill + start script \(Self.milliseconds(brailleRestarts.map { Double($0.ready - $0.killed) / 1e6 }))\n"
        out += "  restart -> current frame on the display: \(Self.milliseconds(brailleBack))\n"
        out += "  \(brailleRestarts.count - brailleBack.count) restarts did not show the current frame within 10 s\n\n"
        out += "process: before \(before?.summary ?? "not sampled"); after \(after?.summary ?? "not sampled")\n"
        return out
    }
}
