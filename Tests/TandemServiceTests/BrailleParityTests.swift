import Testing
import TandemService
import TandemTestSupport

/// Braille as a first-class channel (issue 14): what speech tells, the display shows too
/// (the rules: Docs/braille.md#rules).
@Suite("braille parity with speech")
struct BrailleParityTests {
    /// The braille line shown at `time` (the last written at or before it).
    static func shown(at time: Int, in r: ReplayRun) -> String? {
        r.braille.last { ($0.int("t") ?? 0) <= time }?.string("text")
    }

    @Test("loading: the final 100% is shown on the display as a message, though a new screen replaces the indicator")
    func finalProgressShown() throws {
        let r = try ReplayHarness.replay(example: "grocery")
        let last = try #require(r.speakLine("100%"))
        let t = try #require(last.int("t"))
        let flash = try #require(r.braille.first { $0.string("text") == "Finalizando compra, 100%" })
        #expect(flash.int("t") == t, "shown when it is said")
        #expect(flash["flash"] == .bool(true))
        // The new screen's title follows once the message time is over.
        let next = try #require(r.braille.first { ($0.int("t") ?? 0) > t })
        #expect(next.string("text") == "Pedido confirmado cab")
        #expect(next.int("t") == t + 4000)
    }

    @Test("loading: every percentage speech says is the one the display shows at that moment")
    func samePercentageOnBothChannels() throws {
        let r = try ReplayHarness.replay(example: "grocery")
        let said = r.speech("speak").filter { $0.string("src") == "progress" }
        #expect(said.count >= 2)
        for line in said {
            let text = try #require(line.string("text"))
            let t = try #require(line.int("t"))
            let display = Self.shown(at: t, in: r) ?? ""
            #expect(display.hasSuffix(text), "@\(t) speech says \(text), the display shows \(display)")
        }
    }
}
