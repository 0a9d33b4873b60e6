import Foundation
import TandemClient
import TandemTestSupport
import Testing

/// A deaf-blind tester on braille alone: a real BRLTTY with its virtual display
/// (`BrailleDisplayRig`), a real `tandem serve` showing on it, and the GTK test app through
/// `tandem atspi`. Every step is a display key; what the tester learns is read off the display
/// (its cells as BRLTTY received them), and what the keys did is read off the real app.
@Suite(.serialized) struct LiveBrailleTests {
    typealias Run = LiveBridgeTests.Run

    /// A field of a transcript line (JSON), as text.
    static func field(_ name: String, _ line: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return object[name] as? String
    }

    /// Waits until the service's last braille line holding `text` is on the real display (its
    /// cells in the display's log); the braille lines meanwhile, for a failure's message.
    static func shown(_ text: String, _ run: Run, _ rig: BrailleDisplayRig, timeout: Duration = .seconds(10)) -> (shown: Bool, lines: [String]) {
        var lines: [String] = []
        let shown = waitUntil(timeout: timeout) {
            lines = run.serve.transcriptLines.filter { $0.contains(#""ch":"braille""#) }
            guard let line = lines.last(where: { field("text", $0)?.contains(text) == true }),
                  let cells = field("cells", line), !cells.isEmpty else { return false }
            return rig.log.contains(cells)
        }
        return (shown, lines.suffix(6).compactMap { field("text", $0) })
    }

    @Test("a GTK app by display keys alone: read in order, adjust a spin button, check a box, an announcement on the display")
    func aGtkAppByDisplayKeys() throws {
        let rig = try BrailleDisplayRig()
        defer { rig.stop() }
        let serve = try ServeProcess(extra: ["--braille", rig.host], launcher: ["/usr/bin/env", "BRLAPI_AUTH=none"])
        let run = try Run(service: serve)
        defer { run.stop() }

        rig.press("TOP")
        let top = Self.shown("Pantry hdr", run, rig)
        #expect(top.shown, "\(top.lines)")
        rig.press("LNDN")
        rig.press("LNDN")
        let spin = Self.shown("Apples quantity, 2 adj", run, rig)
        #expect(spin.shown, "\(spin.lines)")
        rig.press("KEY_CURSOR_UP")
        let three = Self.shown("Apples quantity, 3 adj", run, rig)
        #expect(three.shown, "\(three.lines)")
        #expect(waitUntil(timeout: .seconds(5)) { ((try? run.snapshot())?.element("Apples quantity")?["adjust"] as? [String: Double])?["value"] == 3 },
                "the real spin button moved")
        for _ in 0..<8 where !Self.shown("Organic only", run, rig, timeout: .seconds(1)).shown { rig.press("LNDN") }
        let box = Self.shown("Organic only swbtn off", run, rig)
        #expect(box.shown, "\(box.lines)")
        rig.press("ROUTE 3")  // a routing key over the line (the virtual display takes cells 1…256): activate
        #expect(waitUntil(timeout: .seconds(5)) { (try? run.snapshot())?.element("Organic only")?["value"] as? String == "1" }, "the real check box is checked")
        let on = Self.shown("Organic only swbtn on", run, rig)
        #expect(on.shown, "\(on.lines)")
        // the app's announcement (ATK's signal) is a message on the display
        #expect(run.app.send("announce Basket saved"))
        let told = Self.shown("Basket saved", run, rig)
        #expect(told.shown, "\(told.lines)")
    }
}
