import TandemVocabulary
import Testing
import TandemPolicy
import TandemPresentation
@testable import TandemOutputs

/// The speech worker's mailbox collapses what the policy superseded before the worker takes it
/// (Docs/speech.md#stale-speech; issue 27, item 2): counted in jobs waiting, never in time.
@Suite("speech mailbox collapses stale speech")
struct SpeechMailTests {
    /// Posts the policy's decisions as `SpeechDispatcherOutput.emit` does.
    static func post(_ decisions: [Decision], into mail: inout SpeechMail) {
        for d in decisions {
            switch d {
            case .speak(let s): mail.speak(s)
            case .cancel(let s): mail.cancel(s)
            case .drop, .postpone: break
            }
        }
    }

    @Test("20,000 screen switches and boundary sounds while the worker is busy leave a few jobs; a high announcement after them is third in line")
    func burstCollapses() {
        var policy = SpeechPolicy()
        var mail = SpeechMail()
        for k in 0..<20_000 {
            mail.sound(.screen)
            let u = Utterance(text: "Screen \(k % 2), heading", language: "en", source: .focus)
            Self.post(policy.submit(u, causedByUser: false, at: k) + policy.startDue(at: k), into: &mail)
            mail.sound(.boundary)
            #expect(mail.jobs.count <= 3, "after \(k + 1) switches \(mail.jobs.count) jobs wait")
            if mail.jobs.count > 3 { return }
        }
        #expect(mail.collapsed >= 2 * 19_999)
        let high = Utterance(text: "Payment failed", language: "en", source: .announcement, important: true)
        Self.post(policy.submit(high, causedByUser: false, at: 20_000) + policy.startDue(at: 20_000), into: &mail)
        let jobs = mail.takeJobs()
        let at = jobs.firstIndex { if case .speak(let s, _) = $0 { s.utterance == high } else { false } }
        #expect(at != nil && at! <= 3, "\(jobs)")
        // What goes to the worker: the last focus is cancelled by the important one, so
        // neither is sent; one of each sound, and the announcement.
        let speaks = jobs.compactMap { if case .speak(let s, _) = $0 { s.utterance.text } else { nil } }
        #expect(speaks == ["Payment failed"])
    }

    @Test("a cancel whose speak was already taken is sent; a sound already taken is not replaced")
    func takenJobsStay() {
        var maker = SpokenMaker()
        var mail = SpeechMail()
        let a = maker.make("First", .focus)
        mail.speak(a)
        mail.sound(.boundary)
        #expect(mail.takeJobs().count == 2)
        mail.cancel(a)
        mail.sound(.boundary)
        let jobs = mail.takeJobs()
        #expect(jobs.count == 2)
        if case .cancel(let c) = jobs.first { #expect(c.id == a.id) } else { Issue.record("the cancel was not queued: \(jobs)") }
        #expect(mail.collapsed == 0)
    }
}
