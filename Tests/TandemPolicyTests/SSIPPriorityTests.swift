import TandemVocabulary
import Testing
import TandemPolicy
import TandemPresentation

/// SSIP's five priorities, as speech-dispatcher documents them (Docs/policy.md#priorities).
/// Each test is a table of scripts; each row lists every decision that reached the synth.
@Suite("SSIP priorities: what reaches the synth")
struct SSIPPriorityTests {
    @Test("each source is given its priority in Docs/policy.md#rules", arguments: [
        (focus("Inbox"), Priority.text),
        (value("5 items"), .text),
        (announcement("Saved"), .message),
        (highAnnouncement("Battery low"), .important),
        (notification("Double tap to open"), .notification),
        (progress("20%", step: 1, of: 5), .progress),
        (progress("60%", step: 3, of: 5), .progress),
        (progress("100%", step: 5, of: 5), .message),
        (progress("Done", step: 1, of: 1), .message),
        (Utterance(text: "Loading", language: "en", source: .progress), .progress),
        (errorMessage("Unknown command"), .message),
    ])
    func priorityOfEachSource(utterance: Utterance, priority: Priority) {
        #expect(Priority(for: utterance) == priority)
    }

    @Test("important speaks at once, cuts lower speech and queues behind earlier important", arguments: [
        Case("cuts playing text, which is not put back", [
            .say(focus("Inbox")), .settle,
            .at(100), .say(highAnnouncement("Battery low")), .settle,
        ], expect: [
            "@0 speak text Inbox #0",
            "@100 cancel text Inbox #0",
            "@100 speak important Battery low #1",
        ]),
        Case("drops a waiting notification", [
            .say(notification("Swipe up for more")), .say(highAnnouncement("Alarm")), .settle,
        ], expect: [
            "@0 drop notification Swipe up for more #0 (important)",
            "@0 speak important Alarm #1",
        ]),
        Case("drops waiting intermediate progress", [
            .say(progress("40%", step: 2, of: 5)), .say(highAnnouncement("Alarm")), .settle,
        ], expect: [
            "@0 drop progress 40% #0 (important)",
            "@0 speak important Alarm #1",
        ]),
        Case("a second important waits for the first", [
            .say(highAnnouncement("Alarm")), .settle,
            .say(highAnnouncement("Fire")), .settle,
            .at(300), .end("Alarm"), .settle,
        ], expect: [
            "@0 speak important Alarm #0",
            "@0 postpone important Fire #1 (after important)",
            "@300 speak important Fire #1",
        ]),
    ])
    func important(_ c: Case) {
        #expect(PolicyScript.run(c) == c.expected)
    }

    @Test("important is never cancelled: not by a key, stop, text, message or another important")
    func importantIsNeverCancelled() {
        let c = Case("everything arrives while important plays", [
            .say(highAnnouncement("Alarm")), .settle,
            .key, .stop,
            .say(focus("Inbox")),
            .say(announcement("Saved")),
            .say(highAnnouncement("Fire")), .settle,
            .at(300), .end("Alarm"), .settle,
            .at(540), .end("Fire"), .settle,
            .at(840), .end("Saved"), .settle,
        ], expect: [
            "@0 speak important Alarm #0",
            "@0 postpone text Inbox #1 (after important)",
            "@0 postpone message Saved #2 (after important)",
            "@0 postpone important Fire #3 (after important)",
            "@300 speak important Fire #3",
            "@540 speak message Saved #2",
            "@840 speak text Inbox #1",
        ])
        #expect(PolicyScript.run(c) == c.expected)
    }

    @Test("message queues behind its own kind and cancels text, notification and progress", arguments: [
        Case("a second message waits for the first", [
            .say(announcement("Saved")), .settle,
            .say(announcement("Sent")), .settle,
            .at(300), .end("Saved"), .settle,
        ], expect: [
            "@0 speak message Saved #0",
            "@0 postpone message Sent #1 (after message)",
            "@300 speak message Sent #1",
        ]),
        Case("cuts playing text the user did not cause", [
            .say(focus("Dialog")), .settle,
            .at(100), .say(announcement("Saved")), .settle,
        ], expect: [
            "@0 speak text Dialog #0",
            "@100 cancel text Dialog #0",
            "@100 speak message Saved #1",
        ]),
        Case("cuts a playing hint", [
            .key, .say(focus("Send", hint: "Double tap to send"), user: true), .settle,
            .at(240), .end("Send"), .settle,
            .at(1240), .settle,
            .at(1300), .say(announcement("Saved")), .settle,
        ], expect: [
            "@0 speak text Send #0",
            "@1240 speak notification Double tap to send #1",
            "@1300 cancel notification Double tap to send #1",
            "@1300 speak message Saved #2",
        ]),
        Case("cuts playing progress", [
            .say(progress("40%", step: 2, of: 5)), .settle,
            .at(100), .say(errorMessage("Unknown command")), .settle,
        ], expect: [
            "@0 speak progress 40% #0",
            "@100 cancel progress 40% #0",
            "@100 speak message Unknown command #1",
        ]),
        Case("drops a waiting notification", [
            .say(notification("Swipe up for more")), .say(announcement("Saved")), .settle,
        ], expect: [
            "@0 drop notification Swipe up for more #0 (message)",
            "@0 speak message Saved #1",
        ]),
        Case("drops waiting intermediate progress", [
            .say(progress("40%", step: 2, of: 5)), .say(announcement("Saved")), .settle,
        ], expect: [
            "@0 drop progress 40% #0 (message)",
            "@0 speak message Saved #1",
        ]),
    ])
    func message(_ c: Case) {
        #expect(PolicyScript.run(c) == c.expected)
    }

    @Test("text waits for message", arguments: [
        Case("a focus move waits for the announcement that plays", [
            .say(announcement("Saved")), .settle,
            .key, .say(focus("Inbox"), user: true), .settle,
            .at(300), .end("Saved"), .settle,
        ], expect: [
            "@0 speak message Saved #0",
            "@0 postpone text Inbox #1 (after message)",
            "@300 speak text Inbox #1",
        ]),
        Case("and for one that waits", [
            .say(announcement("Saved")), .say(focus("Inbox")), .settle,
            .at(300), .end("Saved"), .settle,
        ], expect: [
            "@0 postpone text Inbox #1 (after message)",
            "@0 speak message Saved #0",
            "@300 speak text Inbox #1",
        ]),
        Case("and for important", [
            .say(highAnnouncement("Alarm")), .settle,
            .say(focus("Inbox")), .settle,
            .at(300), .end("Alarm"), .settle,
        ], expect: [
            "@0 speak important Alarm #0",
            "@0 postpone text Inbox #1 (after important)",
            "@300 speak text Inbox #1",
        ]),
        Case("a later announcement goes ahead of a focus move the app caused, which keeps waiting", [
            .say(announcement("Saved")), .settle,
            .say(focus("Dialog")),
            .say(announcement("Sent")), .settle,
            .at(300), .end("Saved"), .settle,
            .at(540), .end("Sent"), .settle,
        ], expect: [
            "@0 speak message Saved #0",
            "@0 postpone text Dialog #1 (after message)",
            "@0 postpone message Sent #2 (after message)",
            "@300 speak message Sent #2",
            "@540 speak text Dialog #1",
        ]),
    ])
    func textWaitsForMessage(_ c: Case) {
        #expect(PolicyScript.run(c) == c.expected)
    }

    @Test("only the latest text is spoken, and text cuts notification and progress", arguments: [
        Case("three values in one instant leave only the last", [
            .key, .say(value("1"), user: true), .say(value("2"), user: true), .say(value("3"), user: true), .settle,
        ], expect: [
            "@0 drop text 1 #0 (superseded)",
            "@0 drop text 2 #1 (superseded)",
            "@0 speak text 3 #2",
        ]),
        Case("cuts playing progress", [
            .say(progress("40%", step: 2, of: 5)), .settle,
            .at(100), .say(focus("Inbox")), .settle,
        ], expect: [
            "@0 speak progress 40% #0",
            "@100 cancel progress 40% #0",
            "@100 speak text Inbox #1",
        ]),
        Case("drops a waiting notification", [
            .say(notification("Swipe up for more")), .say(focus("Inbox")), .settle,
        ], expect: [
            "@0 drop notification Swipe up for more #0 (text)",
            "@0 speak text Inbox #1",
        ]),
    ])
    func onlyTheLatestText(_ c: Case) {
        #expect(PolicyScript.run(c) == c.expected)
    }

    @Test("notification is dropped when anything is queued or speaking", arguments: [
        Case("spoken when all is quiet", [
            .say(notification("Swipe up for more")), .settle,
        ], expect: [
            "@0 speak notification Swipe up for more #0",
        ]),
        Case("dropped while anything speaks", [
            .say(focus("Inbox")), .settle,
            .say(notification("Swipe up for more")), .settle,
        ], expect: [
            "@0 speak text Inbox #0",
            "@0 drop notification Swipe up for more #1 (busy)",
        ]),
        Case("dropped while anything waits", [
            .say(announcement("Saved")), .say(notification("Swipe up for more")), .settle,
        ], expect: [
            "@0 drop notification Swipe up for more #1 (busy)",
            "@0 speak message Saved #0",
        ]),
        Case("dropped while another notification speaks", [
            .say(notification("Swipe up for more")), .settle,
            .say(notification("Swipe down to close")), .settle,
        ], expect: [
            "@0 speak notification Swipe up for more #0",
            "@0 drop notification Swipe down to close #1 (busy)",
        ]),
    ])
    func notificationIsDroppedWhenBusy(_ c: Case) {
        #expect(PolicyScript.run(c) == c.expected)
    }

    @Test("progress: a newcomer is dropped while another progress speaks, and the last of a series is a message")
    func progressNewcomerAndLast() {
        let c = Case("a series of five", [
            .say(progress("20%", step: 1, of: 5)), .settle,
            .at(100), .say(progress("40%", step: 2, of: 5)),
            .at(150), .say(progress("100%", step: 5, of: 5)), .settle,
            .at(390), .end("100%"), .settle,
        ], expect: [
            "@0 speak progress 20% #0",
            "@100 drop progress 40% #1 (busy)",
            "@150 cancel progress 20% #0",
            "@150 speak message 100% #2",
        ])
        #expect(PolicyScript.run(c) == c.expected)
    }
}
