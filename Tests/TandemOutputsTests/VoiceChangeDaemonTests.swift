import Foundation
import Testing
import TandemOutputs
import TandemService
import TandemSession
import TandemTestSupport

/// The tester's voice keys reach a real speech-dispatcher: what is said after a change is said
/// with it (the capture module logs the rate each utterance was spoken at).
@Suite("voice changes with the daemon", .serialized)
struct VoiceChangeDaemonTests {
    @Test("after rate-up the next utterance is spoken at the new rate, and after rate-down at that one")
    func rateReachesTheDaemon() throws {
        let speech = try SpeechFixture()
        defer { speech.stop() }
        let catalog = try FixtureFolder.cli.catalog("tiny.catalog.json")
        let output = SpeechDispatcherOutput(address: speech.address, voice: .init())
        let live = LiveSession(catalog: catalog, outputs: [output], makeTranslator: { _ in BlankTranslator() })
        defer { live.finish() }
        func said(_ text: String) -> CaptureLine? {
            speech.waitForCapture(timeout: .seconds(10)) { $0.contains { $0.text == text } }.first { $0.text == text }
        }

        #expect(said("Groceries, heading")?.rate == "0.00", "the opening, at the profile's rate")
        live.send(.rateUp)
        #expect(said("Rate 10")?.rate == "10.00", "the rate's own announcement is already at the new rate")
        live.send(.next)
        #expect(said("Add, button")?.rate == "10.00")
        live.send(.rateDown)
        #expect(said("Rate 0")?.rate == "0.00")
        live.send(.rateDown)
        #expect(said("Rate -10")?.rate == "-10.00")
        live.send(.previous)
        let again = speech.waitForCapture(timeout: .seconds(10)) { $0.filter { $0.text == "Groceries, heading" }.count == 2 }
        #expect(again.last { $0.text == "Groceries, heading" }?.rate == "-10.00", "\(again.map { "\($0.text) \($0.rate)" })")
    }
}
