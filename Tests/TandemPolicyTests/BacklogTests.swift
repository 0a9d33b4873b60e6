import TandemVocabulary
import Testing
import TandemPolicy
import TandemPresentation

/// The policy's backlog has a bound and never loses an announcement silently
/// (Docs/policy.md#backlog; issue 27, item 2): counted in utterances waiting.
@Suite("policy backlog bound")
struct BacklogTests {
    @Test("10,000 announcements wait as at most 32; the ones past it are said as part of the last, and the transcript says so")
    func announcementsMerge() {
        var policy = SpeechPolicy()
        var decisions: [Decision] = []
        for k in 0..<10_000 {
            decisions += policy.submit(Utterance(text: "A\(k)", language: "en", source: .announcement), causedByUser: false, at: 0)
            decisions += policy.startDue(at: 0)
            #expect(policy.queue.count <= SpeechPolicy.maxWaitingAnnouncements)
            if policy.queue.count > SpeechPolicy.maxWaitingAnnouncements { return }
        }
        let merged = decisions.filter { if case .drop(_, let r) = $0 { r.hasPrefix("merged into waiting") } else { false } }
        let full = decisions.filter { if case .drop(_, let r) = $0 { r == "backlog full" } else { false } }
        #expect(!merged.isEmpty && !full.isEmpty)
        // Every announcement is accounted for: playing, waiting whole or merged, or dropped
        // as "backlog full" in the transcript.
        let waitingText = ([policy.playing!] + policy.queue).map(\.utterance.text).joined(separator: ". ")
        let heard = Set(waitingText.components(separatedBy: ". "))
        let dropped = Set(full.compactMap { if case .drop(let s, _) = $0 { s.utterance.text } else { nil } })
        for k in 0..<10_000 { #expect(heard.contains("A\(k)") || dropped.contains("A\(k)"), "A\(k) was lost") }
        #expect(policy.queue.last!.utterance.text.count <= SpeechPolicy.maxMergedLength)
    }

    @Test("a high announcement after the flood goes ahead of the whole backlog")
    func importantFirst() {
        var policy = SpeechPolicy()
        for k in 0..<1_000 {
            _ = policy.submit(Utterance(text: "A\(k)", language: "en", source: .announcement), causedByUser: false, at: 0)
            _ = policy.startDue(at: 0)
        }
        let high = Utterance(text: "Payment failed", language: "en", source: .announcement, important: true)
        let d = policy.submit(high, causedByUser: false, at: 0) + policy.startDue(at: 0)
        #expect(d.contains { if case .speak(let s) = $0 { s.utterance == high } else { false } })
    }
}
