import Foundation
import Glibc
import Testing
import TandemClient
import TandemTestSupport

/// Typing on a braille display's keyboard into an app's text field, end to end: a real BRLTTY
/// with its virtual display (`scripts/services/brltty.sh`), a real `tandem serve` showing the
/// app on it, and an app on the Swift client. A character typed on the display (BRLTTY's
/// `PASSCHAR`) and a chord (`PASSDOTS`, read in computer braille) reach the app as `type`
/// actions, the display's Backspace as `delete` while editing, and the value the app sets back
/// is heard (Docs/keymaps.md#typing).
@Suite("typing on a braille display's keyboard", .serialized)
struct BrailleKeyboardTests {
    /// The next `type`/`delete` action the app is sent; the app sets the field's value as a
    /// real one would (`value` is the field's text before it).
    static func answer(_ app: TandemApp, value: inout String) throws -> AppAction? {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            guard case .action(let a)? = try app.nextEvent(timeout: .seconds(1)) else { continue }
            guard let new = a.edited(value) else { continue }
            value = new
            try app.set(a.element, .value(new))
            return a
        }
        return nil
    }

    @Test("a typed character and a chord reach the app as type actions, the display's Backspace as delete; the new value is heard")
    func typingReachesTheApp() throws {
        let rig = try BrailleDisplayRig()
        defer { rig.stop() }
        let serve = try ServeProcess(extra: ["--braille", rig.host], launcher: ["/usr/bin/env", "BRLAPI_AUTH=none"])
        defer { serve.stop() }
        let app = try TandemApp(name: "Login", socketPath: serve.socket, timeout: .seconds(10))
        defer { app.close() }
        try app.show(AppScreen(id: "login", focus: "user", root: AppElement("r", children: [
            AppElement("user", label: "User", traits: [.textField]),
        ])))
        // The field's line is on the display (u s e r in uncontracted English braille).
        #expect(waitUntil(timeout: .seconds(15)) { rig.log.contains("⠥⠎⠑⠗") }, "\(rig.log)")
        var value = ""
        rig.press("PASSCHAR 97")
        let typed = try Self.answer(app, value: &value)
        #expect(typed?.kind == .type && typed?.text == "a" && typed?.element == "user", "\(String(describing: typed))")
        rig.press("PASSDOTS 3")  // dots 1 2
        let chord = try Self.answer(app, value: &value)
        #expect(chord?.kind == .type && chord?.text == "b", "\(String(describing: chord))")
        #expect(waitUntil(timeout: .seconds(10)) {
            serve.transcriptLines.contains { $0.contains(#""op":"speak""#) && $0.contains(#""text":"ab""#) }
        }, "the new value is heard: \(serve.transcriptLines.filter { $0.contains("speak") })")
        rig.press("KEY_BACKSPACE")
        let deleted = try Self.answer(app, value: &value)
        #expect(deleted?.kind == .delete, "\(String(describing: deleted))")
        #expect(value == "a")
        #expect(waitUntil(timeout: .seconds(10)) { rig.log.contains("⠥⠎⠑⠗⠂⠀⠁⠀") }, "the display shows the new value: \(rig.log)")
    }
}
