import Foundation
import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemService
import TandemSession
import TandemTestSupport

/// BRLTTY dying, coming back, the display being replaced, and BRLTTY never being there.
@Suite(.serialized) struct BrailleRecoveryTests {
    @Test func brlttyKilledAndRestartedShowsTheCurrentFocusAgain() throws {
        let braille = try BrailleFixture(cells: 40)
        defer { braille.stop() }
        let live = try braille.showSession()

        braille.killBRLTTY()
        #expect(live.wait { $0.events.statuses.last?.available == false }, "the outage is reported")
        // Navigation goes on while BRLTTY is away (its keys cannot arrive, other input can).
        live.send(.next)
        live.send(.next)
        #expect(live.wait { $0.lastFrame?.text.hasPrefix("Save") == true })
        let current = try #require(live.lastFrame)

        #expect(braille.startAgain(), "BRLTTY restarts")
        // The display is written again at once: the current focus, then the message that it is
        // connected (Docs/braille.md#rules), then the focus once the message time is over.
        #expect(live.wait(timeout: .seconds(3)) { $0.lastFrame?.text == "Braille display connected" })
        let message = try #require(live.lastFrame)
        let shown = braille.waitForDisplay(timeout: .seconds(3)) { $0.shows(message) || $0.shows(current) }
        #expect(shown.ok, "the display written again: \(shown.state?.description ?? "nothing")")
        // How soon: the longest retry is 1 s and the frame is written again at once, which
        // BrailleWorkerRuleTests "BRLTTY lost: …" checks to the millisecond on a ManualClock.
        #expect(braille.waitForDisplay(timeout: .seconds(6)) { $0.shows(current) }.ok, "the focus line after the message")
        #expect(live.events.statuses.last?.available == true, "the recovery is reported")
        #expect(live.events.statuses.map(\.available) == [true, false, true])

        // Keys work again on the new connection.
        braille.press("LNDN")
        #expect(live.wait { $0.lastFrame?.text.hasPrefix("Details") == true })
    }

    @Test func aReplacedDisplayOfAnotherWidthIsCutToItsWidth() throws {
        let braille = try BrailleFixture(cells: 40)
        defer { braille.stop() }
        let live = try braille.showSession()
        braille.press("LNDN")
        #expect(live.wait { $0.lastFrame?.text.hasPrefix("Delivery") == true })

        braille.unplugDisplay()
        #expect(live.wait(timeout: .seconds(5)) { $0.events.statuses.last?.available == false }, "the display going away is reported")
        #expect(braille.startAgain(environment: ["BRLTTY_CELLS": "20"]), "a 20-cell display is plugged in")
        // BRLTTY retries its driver every few seconds.
        #expect(live.wait(timeout: .seconds(15)) { s in s.events.all.contains(.displaySize(columns: 20)) })
        // The "connected" message first, then the focus line, both cut to 20 cells.
        #expect(live.wait(timeout: .seconds(8)) { ($0.lastFrame?.cells.count ?? 99) <= 20 && $0.lastFrame?.flash == false })
        let frame = try #require(live.lastFrame)
        #expect(frame.text.hasPrefix("Delivery"))
        let shown = braille.waitForDisplay { $0.cells.count == 20 && $0.shows(frame) }
        #expect(shown.ok, "the label's first 20-cell window: \(shown.state?.description ?? "nothing")")
        #expect(live.events.statuses.last?.available == true)
    }

    @Test func noBRLTTYGivesOneClearStatusAndSpeechGoesOnWithoutHanging() throws {
        let offset = BrailleFixture.freePortOffset()
        let catalog = try BrailleCatalogs.panel()
        let scenario = try Scenario.parse("next\nwait 300\nnext\nwait 300\n", file: "nobrltty.scenario", catalog: catalog)
        let transcript = RecordingSink()
        let output = BrlAPIOutput(host: "127.0.0.1:\(offset)", auth: "none")
        let replay = LiveReplay(catalog: catalog, scenario: scenario, profile: Profile(), profiles: ProfileStore(searchPath: []),
                                makeTranslator: { _ in LouisTranslator() })
        let started = ContinuousClock.now
        let failures = try replay.run(transcript: transcript, outputs: [output])
        let took = ContinuousClock.now - started
        #expect(failures.isEmpty)
        #expect(took < .seconds(10), "the run took \(took)")

        let statuses = transcript.records.compactMap { r -> OutputStatus? in
            if case .outputStatus(let s) = r.record { return s }
            return nil
        }
        #expect(statuses.count == 1, "one status, not one per retry: \(statuses)")
        let message = statuses.first?.message ?? ""
        #expect(message.contains("not available") && message.contains("127.0.0.1:\(offset)"), "\(message)")
        #expect(statuses.first?.available == false && statuses.first?.output == .braille)

        let spoken = transcript.records.compactMap { r -> String? in
            if case .speech(.speak(let s)) = r.record { return s.utterance.text }
            return nil
        }
        #expect(spoken.contains("Braille display is not available"))
        // The policy may drop the first focus speech for the second (the latest wins), not the last.
        #expect(spoken.contains { $0.hasPrefix("Save") }, "focus speech goes on: \(spoken)")
    }

    @Test func aWrongKeyIsRefusedWithoutShowingTheKeyAndTheRightOneConnects() throws {
        let braille = try BrailleFixture(cells: 40, keyAuthentication: true)
        defer { braille.stop() }
        let wrongKey = braille.directory + "/wrong.key"
        try "0123456789abcdef-not-the-key".write(toFile: wrongKey, atomically: true, encoding: .utf8)
        let key = try String(contentsOfFile: braille.keyFile, encoding: .utf8)

        let refused = braille.connect(catalog: try BrailleCatalogs.panel(), auth: "keyfile:" + wrongKey)
        #expect(refused.wait { !$0.events.statuses.isEmpty })
        refused.finish()
        let status = try #require(refused.events.statuses.first)
        #expect(!status.available)
        #expect(status.message.contains("Authentication failed"), "\(status.message)")
        #expect(!status.message.contains(key) && !status.message.contains("0123456789abcdef"))

        // The fixture's own key file.
        let live = try braille.showSession()
        #expect(live.events.statuses.first?.available == true)
    }
}
