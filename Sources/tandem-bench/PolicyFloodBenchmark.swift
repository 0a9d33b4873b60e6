import Foundation
import TandemPolicy
import TandemPresentation
import TandemVocabulary

/// `tandem-bench policy-flood`: the speech policy under a flood of events.
///
/// An app floods Tandem with value changes and loading-indicator progress — `eventsPerSecond`
/// events a second, half of each, evenly spread over `seconds` of virtual time — while the user
/// presses a key once a second. The policy runs on a virtual clock, as in a headless replay:
/// each utterance ends 60 ms a character after it starts (Docs/formats.md#transcript), and the driver settles
/// after every event, as a live session does. Progress comes in series of one second each, so
/// every second ends a series with a last step spoken at `message` priority.
///
/// Half-way through, the user moves focus (a key press and the focus speech it causes); the
/// utterance the policy speaks next must be that focus move.
///
/// Measured: events processed per second of wall-clock time, the largest queue seen, the
/// process's resident memory (`/proc/self/statm`) before and after, and the focus check.
enum PolicyFloodBenchmark {
    static let msPerCharacter = 60
    static let keyInterval: Milliseconds = 1000
    static let focusText = "Checkout, button"

    static func run(seconds: Int = 60, eventsPerSecond: Int = 10_000) -> String {
        precondition(seconds > 0 && eventsPerSecond > 0, "policy-flood needs a duration and a rate")
        let residentBefore = residentBytes()
        var flood = Flood(progressSteps: max(2, eventsPerSecond / 2), focusAt: seconds * 1000 / 2 + 357)
        let clock = ContinuousClock()
        let start = clock.now
        flood.run(events: seconds * eventsPerSecond, eventsPerSecond: eventsPerSecond)
        let wall = clock.now - start
        let residentAfter = residentBytes()

        let wallSeconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        let rate = Double(flood.events) / max(wallSeconds, 1e-9)
        var lines = [
            "policy-flood: SpeechPolicy under a flood of value and progress events",
            "  virtual time         \(seconds) s at \(eventsPerSecond) events/s (value and progress alternating; "
                + "progress series of \(flood.progressSteps) steps, one a second), a key press every \(keyInterval) ms; "
                + "speech \(msPerCharacter) ms a character",
            "  events processed     \(flood.events) in \(format(wallSeconds * 1000, digits: 1)) ms wall → "
                + "\(format(rate, digits: 0)) events/s (\(format(1e9 / rate, digits: 0)) ns an event)",
            "  policy calls         \(flood.calls) (submit, key, settle, end of speech)",
            "  decisions            speak \(flood.speaks), cancel \(flood.cancels), drop \(flood.drops), postpone \(flood.postpones)",
            "  largest queue        \(flood.largestQueue) utterances waiting (\(flood.queueAtEnd) at the end)",
            "  resident memory      \(mebibytes(residentBefore)) at the start, \(mebibytes(residentAfter)) at the end"
                + (residentBefore != nil && residentAfter != nil
                    ? " (\(residentAfter! >= residentBefore! ? "+" : "−")\(mebibytes(abs(residentAfter! - residentBefore!))))" : ""),
        ]
        switch flood.focusOutcome {
        case .spokenNext(let at, let after):
            lines.append("  focus move           injected at \(format(Double(flood.focusAt) / 1000, digits: 3)) s: "
                         + "the next utterance spoken, \(after) ms later (at \(format(Double(at) / 1000, digits: 3)) s) — pass")
        case .other(let what, let at):
            lines.append("  focus move           injected at \(format(Double(flood.focusAt) / 1000, digits: 3)) s: "
                         + "FAIL, the next utterance spoken was \(what) at \(format(Double(at) / 1000, digits: 3)) s")
        case .neverSpoken:
            lines.append("  focus move           injected at \(format(Double(flood.focusAt) / 1000, digits: 3)) s: FAIL, nothing was spoken after it")
        case .notInjected:
            lines.append("  focus move           not injected (the run is shorter than its instant)")
        }
        return lines.joined(separator: "\n")
    }

    /// The flood itself: the policy, its virtual speech, and the tallies.
    struct Flood {
        enum FocusOutcome {
            case notInjected, neverSpoken
            case spokenNext(at: Milliseconds, after: Milliseconds)
            case other(String, at: Milliseconds)
        }

        let progressSteps: Int
        let focusAt: Milliseconds
        var policy = SpeechPolicy()
        /// What plays and when its virtual end-of-speech notice comes.
        var playing: (id: Int, endsAt: Milliseconds)?
        var events = 0, calls = 0
        var speaks = 0, cancels = 0, drops = 0, postpones = 0
        var largestQueue = 0, queueAtEnd = 0
        var watchingFocus = false
        var focusOutcome = FocusOutcome.notInjected

        init(progressSteps: Int, focusAt: Milliseconds) {
            self.progressSteps = progressSteps
            self.focusAt = focusAt
        }

        mutating func run(events total: Int, eventsPerSecond: Int) {
            var nextKey = PolicyFloodBenchmark.keyInterval / 2
            var focusPending = true
            var progressCount = 0
            for k in 0..<total {
                let now = k * 1000 / eventsPerSecond
                speechPlays(until: now)
                if now >= nextKey {
                    apply(policy.userPressedKey(at: now), at: now)
                    apply(policy.startDue(at: now), at: now)
                    nextKey += PolicyFloodBenchmark.keyInterval
                }
                if focusPending && now >= focusAt {
                    focusPending = false
                    watchingFocus = true
                    focusOutcome = .neverSpoken
                    apply(policy.userPressedKey(at: now), at: now)
                    let focus = Utterance(text: PolicyFloodBenchmark.focusText, language: "en", source: .focus)
                    apply(policy.submit(focus, causedByUser: true, at: now), at: now)
                    apply(policy.startDue(at: now), at: now)
                }
                let u: Utterance
                if k % 2 == 0 {
                    u = Utterance(text: "\(k / 2 % 100) items", language: "en", source: .value)
                } else {
                    let step = progressCount % progressSteps + 1
                    progressCount += 1
                    u = Utterance(text: "\(step * 100 / progressSteps)%", language: "en", source: .progress,
                                  progress: ProgressStep(step: step, steps: progressSteps))
                }
                events += 1
                apply(policy.submit(u, causedByUser: false, at: now), at: now)
                apply(policy.startDue(at: now), at: now)
            }
            queueAtEnd = policy.queue.count
        }

        /// Lets virtual speech play up to `now`: end-of-speech notices and hints that fall due.
        mutating func speechPlays(until now: Milliseconds) {
            while true {
                if let p = playing {
                    guard p.endsAt <= now else { return }
                    playing = nil
                    apply(policy.speechEnded(id: p.id, at: p.endsAt), at: p.endsAt)
                    apply(policy.startDue(at: p.endsAt), at: p.endsAt)
                } else if policy.queue.isEmpty, let due = policy.nextDeadline, due <= now {
                    apply(policy.startDue(at: due), at: due)
                } else {
                    return
                }
            }
        }

        mutating func apply(_ decisions: [Decision], at now: Milliseconds) {
            calls += 1
            for d in decisions {
                switch d {
                case .speak(let s):
                    speaks += 1
                    playing = (s.id, now + PolicyFloodBenchmark.msPerCharacter * max(1, s.utterance.text.count))
                    if watchingFocus {
                        watchingFocus = false
                        if s.utterance.source == .focus && s.utterance.text == PolicyFloodBenchmark.focusText {
                            focusOutcome = .spokenNext(at: now, after: now - focusAt)
                        } else {
                            focusOutcome = .other("\(s.priority.rawValue) “\(s.utterance.text)”", at: now)
                        }
                    }
                case .cancel(let s):
                    cancels += 1
                    if playing?.id == s.id { playing = nil }
                case .drop: drops += 1
                case .postpone: postpones += 1
                }
            }
            largestQueue = max(largestQueue, policy.queue.count)
        }
    }

    // MARK: figures

    /// The resident set from `/proc/self/statm` (its second field, in pages), in bytes.
    static func residentBytes() -> Int? {
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        let fields = String(decoding: buffer[0..<n], as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }

    static func mebibytes(_ bytes: Int?) -> String {
        guard let bytes else { return "unknown" }
        return format(Double(bytes) / 1_048_576, digits: 1) + " MiB"
    }

    static func format(_ x: Double, digits: Int) -> String { String(format: "%.\(digits)f", x) }
}
