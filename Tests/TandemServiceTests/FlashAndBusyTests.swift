import Testing
import TandemService
import TandemSession
import TandemTestSupport

/// Braille flash messages (Docs/policy.md#rules) and what an indeterminate loading indicator sounds like.
@Suite("flash messages and busy indicators")
struct FlashAndBusyTests {
    static let catalog = FixtureFolder.service.path("messages.catalog.json")

    static func run(_ scenario: String, width: Int = 20, messageTime: Int = 4000) throws -> ReplayRun {
        var p = try ReplayHarness.profile()
        p.brailleWidth = width
        p.messageTime = messageTime
        return try ReplayHarness.replay(catalog: catalog, scenarioText: scenario, profile: p)
    }

    @Test("an announcement flashes for the message time, then the focus line returns")
    func flashThenReturn() throws {
        let r = try Self.run("wait 1000\nnext\nwait 1000\nactivate\nwait 6000\n")
        let after = r.afterKey("activate").filter { $0.string("ch") == "braille" }
        #expect(after.first?.string("text") == "Synchronising every folder of every account now")
        #expect(after.first?["flash"] == .bool(true))
        #expect(after.first?.string("window") == "1/3")
        #expect(after.last?.string("text") == "Sync btn")
        #expect(after.last!.int("t")! - after.first!.int("t")! == 4000)
    }

    @Test("panning keys pan the message and restart its timer")
    func panningRestartsTimer() throws {
        let r = try Self.run("wait 1000\nnext\nwait 1000\nactivate\nwait 3000\npan-right\nwait 6000\n")
        let after = r.braille.filter { ($0.int("t") ?? 0) >= 2000 }
        #expect(after.map { $0.string("window") } == ["1/3", "2/3", "1/1"])
        #expect(after[1]["flash"] == .bool(true))
        // Shown at 2000, panned at 5000: the focus line comes back 4 s after the pan, not after the flash.
        #expect(after[2].int("t")! - after[1].int("t")! == 4000)
        // Panning a message does not cut speech.
        #expect(!r.afterKey("pan-right").contains { $0.string("op") == "cancel" })
    }

    @Test("any other key dismisses the message at once and then acts")
    func otherKeyDismisses() throws {
        let r = try Self.run("wait 1000\nnext\nwait 1000\nactivate\nwait 500\nnext\nwait 6000\n")
        let after = r.afterKey("next", occurrence: 1).filter { $0.string("ch") == "braille" }
        #expect(after.first?.string("text") == "Checking mail, in progress")
        #expect(after.first?["flash"] == nil)
        #expect(after.first?.int("t") == 2500)
    }

    @Test("with a message time of 0 the message stays until a key")
    func untilKey() throws {
        let r = try Self.run("wait 1000\nnext\nwait 1000\nactivate\nwait 20000\nprevious\nwait 2000\n", messageTime: 0)
        let frames = r.braille.filter { ($0.int("t") ?? 0) >= 2000 }
        #expect(frames.first?["flash"] == .bool(true))
        #expect(frames.dropFirst().first?.int("t") == 22000, "the next frame comes only with the key")
    }

    @Test("a high-priority announcement speaks at once, and the message it interrupts is heard again after it")
    func importantInterruptsMessage() throws {
        let r = try Self.run("last\nwait 1000\nactivate\nwait 8000\n")
        let said = r.afterKey("activate").filter { $0.string("op") == "speak" }.compactMap { $0.string("text") }
        #expect(said.prefix(2) == ["Battery critically low", "Meeting in five minutes"])
        #expect(!r.channel("speech").contains { $0.string("op") == "cancel" && $0.string("text") == "Battery critically low" })
    }

    @Test("an indeterminate indicator, focused, gets a periodic sound and no repeated speech; the run still ends")
    func busySound() throws {
        let r = try Self.run("wait 1000\nnext\nnext\nwait 3500\nprevious\nwait 3000\n")
        let focusAt = try #require(r.events("focus").first { $0.string("id") == "spinner" }?.int("t"))
        let sounds = r.channel("sound").filter { $0.string("icon") == "progress" }.compactMap { $0.int("t") }
        #expect(sounds == [focusAt + 1000, focusAt + 2000, focusAt + 3000])
        #expect(r.spoken.filter { $0.contains("Checking mail") }.count == 1)
        #expect(r.spoken.contains("Checking mail, in progress"))
    }

    @Test("an indeterminate indicator left focused at the end does not keep the run going")
    func busyAtEnd() throws {
        let r = try Self.run("wait 1000\nnext\nnext\nwait 2500\n")
        #expect(!r.result.cutShort)
        #expect(r.result.endTime < 60_000)
    }
}
