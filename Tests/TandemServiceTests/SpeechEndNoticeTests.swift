import Foundation
import TandemVocabulary
import Testing
import TandemModel
import TandemOutputs
import TandemPolicy
import TandemService
import TandemSession
import TandemTestSupport

/// speech-dispatcher's end notices, as the live runner passes them to the policy: `END`
/// (spoken to its end) and a cancel are not the same news.
@Suite struct SpeechEndNoticeTests {
    /// The live session's speak decisions for `text`, with their ids.
    static func spoken(_ live: LiveSession, _ text: String) -> [Spoken] {
        live.records.records.compactMap { r in
            if case .speech(.speak(let s)) = r.record, s.utterance.text == text { return s }
            return nil
        }
    }

    static func dropped(_ live: LiveSession, _ text: String) -> [String] {
        live.records.records.compactMap { r in
            if case .speech(.drop(let s, let reason)) = r.record, s.utterance.text == text { return reason }
            return nil
        }
    }

    static let message = "Your order was saved to the shopping cart"

    /// A live session (no outputs) saying `message`, with an important posted over it; the
    /// message's first speak decision.
    static func messageCutByImportant() throws -> (LiveSession, Spoken) {
        let live = LiveSession(catalog: try Example("grocery").catalog(), outputs: [])
        live.send(.post(.announcement(text: message, priority: .default, delay: 0)))
        #expect(waitUntil { !spoken(live, message).isEmpty })
        let first = try #require(spoken(live, message).first)
        live.send(.post(.announcement(text: "Alarm", priority: .high, delay: 0)))
        return (live, first)
    }

    /// The race the soak found: the synthesizer finished a message in the same millisecond an
    /// important cut it, and its END notice reached Tandem just after the cut.
    @Test("a message whose END arrives just after an important cut it is heard once, not twice")
    func finishedMessageIsNotPutBack() throws {
        let (live, first) = try Self.messageCutByImportant()
        defer { live.finish() }
        let message = Self.message
        live.send(.output(.speechEnded(first.id)))
        #expect(live.finish(whenQuietWithin: 10_000))

        #expect(Self.spoken(live, message).count == 1, "said again after it was heard whole")
        #expect(Self.dropped(live, message) == ["heard to its end before the cut"])
    }

    @Test("a message cancelled by the cut is said again after the important")
    func cancelledMessageIsPutBack() throws {
        let (live, first) = try Self.messageCutByImportant()
        defer { live.finish() }
        let message = Self.message
        live.send(.output(.speechCancelled(first.id)))
        #expect(live.finish(whenQuietWithin: 10_000))

        #expect(Self.spoken(live, message).map(\.id) == [first.id, first.id])
        #expect(Self.dropped(live, message).isEmpty)
    }
}
