import TandemVocabulary
import Testing
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession
import TandemTestSupport

/// The tester's tools and the outage messages on a real BRLTTY (Docs/braille.md#rules): the
/// speech history, the mark and help, each driven by the display's own keys, and speech going
/// and coming back, each read from the display's cells together with the keys that pan and
/// dismiss them. The panel catalog, speech on (so there is a history to review; no speech
/// daemon: speech ends on the session's estimate) and messages kept until a key.
@Suite(.serialized) struct BrailleTesterToolsTests {
    static func story() throws -> BrailleStory {
        var profile = Profile()
        profile.messageTime = 0
        return try BrailleStory(catalog: try BrailleCatalogs.panel(), profile: profile)
    }

    /// What the session has said so far (the history holds it), oldest first.
    static func said(_ story: BrailleStory) -> [String] {
        story.live.records.records.compactMap { r in
            guard case .speech(.speak(let s)) = r.record, !s.utterance.isReview else { return nil }
            return s.utterance.text
        }
    }

    static func events(_ type: String, _ story: BrailleStory) -> [SessionEvent] {
        story.live.records.records.compactMap { r in
            guard case .event(let e) = r.record, e.type == type else { return nil }
            return e
        }
    }

    @Test func historyEntriesAreShownWithTheirPositionStepByStepToTheStartAndBack() throws {
        let story = try Self.story()
        defer { story.stop() }
        story.shows("Panel hdr")
        story.press("BOT", shows: "Details btn")
        story.press("LNUP", shows: "Save btn")
        story.press("KEY_ENTER", shows: "Saved to your drafts")
        #expect(Self.said(story) == ["Panel, heading", "Details, button", "Save, button", "Saved to your drafts"])
        // The history key ends the message and shows the newest entry with its position.
        story.press("PRPROMPT", shows: "4 of 4: Saved to your drafts")
        story.press("PRPROMPT", shows: "3 of 4: Save, button")
        story.press("PRPROMPT", shows: "2 of 4: Details, button")
        story.press("PRPROMPT", shows: "1 of 4: Panel, heading")
        // Past the oldest: the boundary, as a message; the review stays where it was.
        story.press("PRPROMPT", shows: "Start")
        story.press("NXPROMPT", shows: "2 of 4: Details, button")
        story.press("NXPROMPT", shows: "3 of 4: Save, button")
        story.press("NXPROMPT", shows: "4 of 4: Saved to your drafts")
        story.press("NXPROMPT", shows: "End")
        story.press("PRPROMPT", shows: "3 of 4: Save, button")
        // A routing key over an entry only dismisses it: focus is where it was, nothing is activated.
        story.press("ROUTE 3", shows: "Save btn")
        #expect(story.live.finish(whenQuietWithin: 10_000))
        #expect(Self.events("activate", story).count == 1, "Save was activated once, by KEY_ENTER")
        #expect(Self.events("history", story).count == 8, "each entry shown was a history event")
    }

    /// The mark is given by the session command, as the terminal's `!` gives it, then by the
    /// display: BRLTTY 6.5's virtual driver refuses `SETMARK` ("unknown command: SETMARK" in its
    /// log; a real display sends it with a routing key), so the display's key is `CLIP_NEW`.
    @Test func theMarkIsConfirmedOnTheDisplayAndRecordsWhereFocusWas() throws {
        let story = try Self.story()
        defer { story.stop() }
        story.shows("Panel hdr")
        story.press("BOT", shows: "Details btn")
        story.live.send(.mark)
        story.shows("Mark recorded")
        // Any other key ends the message, then acts.
        story.press("LNUP", shows: "Save btn")
        story.press("CLIP_NEW 5", shows: "Mark recorded")
        // Panning past a one-window message ends it and shows the focus line as it was; the
        // next pan pans the line: on to the next element.
        story.press("FWINRT", shows: "Save btn")
        story.press("FWINRT", shows: "Details btn")
        let marks = Self.events("mark", story)
        #expect(marks.map { $0.fields.first { $0.key == "id" }?.value } == ["details.button", "save.button"])
    }

    @Test func helpListsTheDisplaysKeysWindowByWindowUntilAKeyOtherThanPanning() throws {
        let story = try Self.story()
        defer { story.stop() }
        story.shows("Panel hdr")
        story.press("LNDN")
        story.press("LNDN", shows: "Save btn")
        let help = KeyMap.default.brailleHelp(Phrases.forLanguage("en"))
        #expect(help.contains("LNDN: ") && help.contains("HELP: ") && help.contains("SETMARK: "), "\(help)")
        #expect(story.windows(of: help).count > 3, "help takes many windows")
        story.press("HELP", shows: help, window: 0)
        story.press("FWINRT", shows: help, window: 1)
        story.press("FWINRT", shows: help, window: 2)
        story.press("FWINLT", shows: help, window: 1)
        story.press("FWINLT", shows: help, window: 0)
        // A key other than panning ends it and acts.
        story.press("LNDN", shows: "Details btn")
        // Help again, and a routing key only dismisses it.
        story.press("HELP", shows: help, window: 0)
        story.press("ROUTE 3", shows: "Details btn")
        #expect(Self.events("screen", story).isEmpty, "Details was never activated")
    }

    @Test func speechGoingAndComingBackIsShownAsMessages() throws {
        let story = try Self.story()
        defer { story.stop() }
        story.shows("Panel hdr")
        story.press("BOT", shows: "Details btn")
        // As the speech output reports it: lost, then back.
        story.live.send(.output(.status(OutputStatus(.speech, available: false, message: "speech-dispatcher is gone"))))
        story.shows("Speech is not available")
        story.press("LNUP", shows: "Save btn")
        story.live.send(.output(.status(OutputStatus(.speech, available: true, message: ""))))
        story.shows("Speech is back")
        // A routing key only dismisses it.
        story.press("ROUTE 3", shows: "Save btn")
        #expect(Self.events("activate", story).isEmpty)
    }
}
