import Foundation
import TandemModel
import TandemService
import TandemSession
import TandemVocabulary

/// A golden diff told as what the user now hears and feels, grouped by the scenario step that
/// caused it: `after next at line 7: heard «Save, button» — was «Save changes, button»`.
///
/// Lines are paired within each run of changed lines by kind — speech with speech, braille
/// with braille, a sound with a sound, an event with an event of its type — so a relabelled
/// button is one replaced speech line and one replaced braille line, never "4 changed lines".
public struct HeardDiff: Sendable, Hashable {
    /// One transcript line in words.
    public struct Output: Sendable, Hashable {
        /// 1-based line in its transcript (the golden file, or this run's).
        public var line: Int
        /// Virtual time (ms).
        public var time: Int
        /// What kind of output: `speech`, `braille`, `sound`, `event`.
        public var channel: String
        /// What happened, in words: "heard", "braille shows", "focus on".
        public var verb: String
        /// What was said, shown or done.
        public var value: String
        /// The braille cells, for a braille line.
        public var cells: String?
        /// The line's other fields (`prio`, `src`, `lang`, `reason`, `window`…), for telling two
        /// lines with the same words apart.
        public var fields: [String: String]
        /// Lines of the same kind pair with each other.
        var kind: String
    }

    /// One change: a line replaced (both), new (`got` only) or gone (`expected` only).
    public struct Entry: Sendable, Hashable {
        public var expected: Output?
        public var got: Output?
    }

    /// The changes one scenario step caused.
    public struct Step: Sendable, Hashable {
        /// The scenario line (1-based); `nil`: at the start, before any step.
        public var line: Int?
        /// The step as written (`next`, `post announce …`).
        public var text: String
        public var entries: [Entry]
    }

    public var steps: [Step]
    public var replaced = 0
    public var new = 0
    public var gone = 0

    /// `changes` (from `TranscriptDiff.changes(expected:got:)`) in words. `scenario` and its
    /// `source` lines name the step behind each change.
    public init(changes: [TranscriptDiff.Change], expected: [String], got: [String], scenario: Scenario, source: [Substring]) {
        let timeline = StepTimeline(scenario: scenario, source: source)
        let expectedCause = timeline.causes(expected)
        let gotCause = timeline.causes(got)
        var removedLines: Set<Int> = [], addedLines: Set<Int> = []
        for c in changes {
            switch c {
            case .expectedOnly(let n, _): removedLines.insert(n)
            case .gotOnly(let n, _): addedLines.insert(n)
            }
        }
        // Walk both transcripts along the diff; each run of changed lines between common ones is
        // paired by kind.
        var entries: [(step: Int?, entry: Entry)] = []
        var i = 1, j = 1
        var runRemoved: [Output] = [], runAdded: [Output] = []
        func flush() {
            var addedByKind: [String: [Output]] = [:]
            for a in runAdded { addedByKind[a.kind, default: []].append(a) }
            var pairedAdded: Set<Int> = []
            var out: [(Int, step: Int?, entry: Entry)] = []
            for r in runRemoved {
                if let g = addedByKind[r.kind]?.first {
                    addedByKind[r.kind]!.removeFirst()
                    pairedAdded.insert(g.line)
                    out.append((g.line, gotCause[g.line - 1], Entry(expected: r, got: g)))
                } else {
                    out.append((Int.max, expectedCause[r.line - 1], Entry(expected: r, got: nil)))
                }
            }
            for a in runAdded where !pairedAdded.contains(a.line) {
                out.append((a.line, gotCause[a.line - 1], Entry(expected: nil, got: a)))
            }
            // In the order of this run's lines: pairs and new lines by the new line, gone ones last.
            entries += out.sorted { $0.0 < $1.0 }.map { ($0.step, $0.entry) }
            runRemoved = []; runAdded = []
        }
        while i <= expected.count || j <= got.count {
            if i <= expected.count, removedLines.contains(i) {
                runRemoved.append(Self.output(expected[i - 1], line: i)); i += 1
            } else if j <= got.count, addedLines.contains(j) {
                runAdded.append(Self.output(got[j - 1], line: j)); j += 1
            } else {
                flush(); i += 1; j += 1
            }
        }
        flush()
        var steps: [Step] = []
        for (step, entry) in entries {
            if entry.expected != nil && entry.got != nil { replaced += 1 } else if entry.got != nil { new += 1 } else { gone += 1 }
            let line = step.map { timeline.acting[$0].line }
            if let last = steps.indices.last, steps[last].line == line {
                steps[last].entries.append(entry)
            } else {
                steps.append(Step(line: line, text: step.map { timeline.acting[$0].text } ?? "", entries: [entry]))
            }
        }
        self.steps = steps
    }

    /// `2 lines replaced, 1 new, 1 gone`: lines of output, each counted once.
    public var counts: String {
        var parts: [String] = []
        if replaced > 0 { parts.append("\(replaced) line\(replaced == 1 ? "" : "s") replaced") }
        if new > 0 { parts.append("\(new) new") }
        if gone > 0 { parts.append("\(gone) gone") }
        return parts.isEmpty ? "no lines changed" : parts.joined(separator: ", ")
    }

    /// The diff as lines for a person: a heading a step, a sentence a change. `cells`: braille
    /// also as cells. At most `limit` sentences.
    public func render(cells: Bool = false, limit: Int = 60) -> String {
        var lines: [String] = []
        var shown = 0
        let total = steps.reduce(0) { $0 + $1.entries.count }
        for s in steps {
            guard shown < limit else { break }
            lines.append(s.line.map { "after `\(s.text)` at line \($0):" } ?? "at the start:")
            for e in s.entries {
                guard shown < limit else { break }
                lines.append("  " + Self.sentence(e, cells: cells))
                shown += 1
            }
        }
        if total > shown { lines.append("… and \(total - shown) more changes") }
        return lines.joined(separator: "\n")
    }

    /// One change as a sentence: `heard «A» — was «B»`, `new: sound boundary`, `gone: heard «C»`.
    public static func sentence(_ e: Entry, cells: Bool = false) -> String {
        func value(_ o: Output) -> String {
            "«\(o.value)»" + (cells ? o.cells.map { " \($0)" } ?? "" : "")
        }
        switch (e.expected, e.got) {
        case (let x?, let g?):
            if x.value != g.value || (cells && x.cells != g.cells) {
                return "\(g.verb) \(value(g)) — was \(value(x))"
            }
            if x.time != g.time {
                return "\(g.verb) \(value(g)) at \(seconds(g.time)) — was at \(seconds(x.time))"
            }
            let keys = Set(x.fields.keys).union(g.fields.keys).sorted().filter { x.fields[$0] != g.fields[$0] }
            let now = keys.map { "\($0) \(g.fields[$0] ?? "none")" }.joined(separator: ", ")
            let was = keys.map { "\($0) \(x.fields[$0] ?? "none")" }.joined(separator: ", ")
            return "\(g.verb) \(value(g)) with \(now) — was \(was)"
        case (nil, let g?): return "new: \(g.verb) \(value(g))"
        case (let x?, nil): return "gone: \(x.verb) \(value(x))"
        case (nil, nil): return ""
        }
    }

    static func seconds(_ ms: Int) -> String {
        let r = ms % 1000
        return "\(ms / 1000).\(r < 10 ? "00" : r < 100 ? "0" : "")\(r) s"
    }

    /// A transcript line (Docs/formats.md#transcript) in words.
    static func output(_ text: String, line: Int) -> Output {
        guard let node = try? JSONParser.parse(text), let members = node.members else {
            return Output(line: line, time: 0, channel: "?", verb: "line", value: text, fields: [:], kind: "?")
        }
        var f: [String: String] = [:]
        for m in members {
            switch m.node.kind {
            case .string(let s): f[m.key] = s
            case .number(let d): f[m.key] = d == d.rounded() ? String(Int(d)) : String(d)
            case .bool(let b): f[m.key] = b ? "true" : "false"
            default: f[m.key] = JSONText.value(m.node)
            }
        }
        let time = Int(f.removeValue(forKey: "t") ?? "") ?? 0
        let ch = f.removeValue(forKey: "ch") ?? "?"
        var out = Output(line: line, time: time, channel: ch, verb: ch, value: "", fields: [:], kind: ch)
        switch ch {
        case "speech":
            let op = f.removeValue(forKey: "op") ?? ""
            out.kind = "speech " + op
            out.value = f.removeValue(forKey: "text") ?? ""
            out.verb = switch op {
            case "speak": f["spell"] == "true" ? "heard spelled" : "heard"
            case "cancel": "speech cut"
            case "drop": "never heard"
            case "postpone": "put off"
            default: "speech \(op)"
            }
        case "braille":
            out.value = f.removeValue(forKey: "text") ?? ""
            out.cells = f.removeValue(forKey: "cells")
            out.verb = f["flash"] == "true" ? "braille flashes" : "braille shows"
        case "sound":
            out.value = f.removeValue(forKey: "icon") ?? ""
            out.verb = "sound"
        case "event":
            let type = f.removeValue(forKey: "type") ?? ""
            out.kind = "event " + type
            switch type {
            case "key":
                out.verb = "key"
                out.value = f.removeValue(forKey: "command") ?? ""
            case "focus":
                out.verb = "focus on"
                out.value = f.removeValue(forKey: "id") ?? ""
            case "expect-failed" where f["selected"] != nil:
                out.verb = "expect-action at line \(f.removeValue(forKey: "line") ?? "?") failed, the rotor on"
                out.value = f.removeValue(forKey: "selected") ?? ""
                f.removeValue(forKey: "action")
            case "expect-failed":
                out.verb = "expect at line \(f.removeValue(forKey: "line") ?? "?") failed, heard"
                out.value = f.removeValue(forKey: "got") ?? ""
            default:
                out.verb = "event \(type)"
                out.value = f.keys.sorted().map { "\($0) \(f[$0]!)" }.joined(separator: ", ")
                f = [:]
            }
        default:
            out.value = text
        }
        out.fields = f
        return out
    }
}

/// When each of a scenario's steps ran, to tell which step a transcript line came after.
struct StepTimeline {
    struct Acting {
        var line: Int
        var text: String
        var time: Int
        /// A command: its transcript has a `key` event.
        var isCommand: Bool
    }
    var acting: [Acting] = []

    init(scenario: Scenario, source: [Substring]) {
        var time = 0
        var setUp = true
        for l in scenario.lines {
            let text = l.number - 1 < source.count ? source[l.number - 1].trimmingCharacters(in: .whitespacesAndNewlines) : ""
            switch l.step {
            case .wait(let ms): time += ms; setUp = false
            case .screen, .profile:
                // Leading `screen` and `profile` lines set the run up before the start.
                if !setUp { acting.append(Acting(line: l.number, text: text, time: time, isCommand: false)) }
            case .command: acting.append(Acting(line: l.number, text: text, time: time, isCommand: true)); setUp = false
            case .post: acting.append(Acting(line: l.number, text: text, time: time, isCommand: false)); setUp = false
            case .expect, .expectAction: setUp = false
            }
        }
    }

    /// For each transcript line, the index in `acting` of the step it came after (`nil`: the
    /// start). A `key` event is its command's; other lines belong to the latest step before their
    /// time (at it, when no command ran at that time). `expect` lines cause nothing.
    func causes(_ lines: [String]) -> [Int?] {
        var out: [Int?] = []
        out.reserveCapacity(lines.count)
        var p = -1
        for line in lines {
            if line.contains(#""ch":"event","type":"key""#) {
                var k = p + 1
                while k < acting.count, !acting[k].isCommand { k += 1 }
                if k < acting.count { p = k }
            } else {
                // A `post` at the time of the command before it shares that time with the command's
                // output: lines at that very time stay the command's.
                let t = Self.time(line)
                while p + 1 < acting.count, !acting[p + 1].isCommand,
                      acting[p + 1].time < t || (acting[p + 1].time == t && (p < 0 || acting[p].time < t)) { p += 1 }
            }
            out.append(p >= 0 ? p : nil)
        }
        return out
    }

    /// The `t` of a transcript line (its first field), without parsing the rest.
    static func time(_ line: String) -> Int {
        guard line.hasPrefix(#"{"t":"#) else { return 0 }
        var n = 0
        for c in line.utf8.dropFirst(5) {
            guard c >= 48 && c <= 57 else { break }
            n = n * 10 + Int(c - 48)
        }
        return n
    }
}
