import Foundation
import Testing
import TandemTestSupport

/// `tandem ctl command --input METHOD` (Docs/protocol.md#ctl): the commands say what their keys
/// were pressed on (`command`'s `input`), checked before connecting, refused by a service
/// without `commandInput`.
@Suite("tandem ctl command --input", .serialized)
struct CtlInputTests {
    typealias Ctl = CtlCommandTests

    @Test("from a keyboard, activate on the grocery search field starts typing into it; without --input the headless profile's touch does not")
    func keyboardStartsTyping() throws {
        let serve = try Ctl.serve()
        // the header's explicit order: title, lists, then the search field
        #expect(try Ctl.ctl(["command", "next", "next"], socket: serve.socket).status == 0)
        let touch = try Ctl.ctl(["command", "activate"], socket: serve.socket)
        #expect(touch.status == 0, "\(touch.output)")
        #expect(!(try Ctl.ctl(["status"], socket: serve.socket).stdout.contains(#""editing""#)))
        let keyboard = try Ctl.ctl(["command", "activate", "--input", "keyboard"], socket: serve.socket)
        #expect(keyboard.status == 0 && keyboard.output.isEmpty, "\(keyboard.output)")
        let status = try Ctl.ctl(["status"], socket: serve.socket).stdout
        #expect(status.contains(#""focus":"search.field","editing":"search.field""#), "\(status)")
        // typed on the braille display's keyboard: the same input for every command of the run
        #expect(try Ctl.ctl(["command", "type", "kiwi", "escape", "--input", "braille"], socket: serve.socket).status == 0)
        #expect(!(try Ctl.ctl(["status"], socket: serve.socket).stdout.contains(#""editing""#)))
        #expect(serve.stop() == 0)
        let keys = serve.transcriptLines.filter { $0.contains(#""type":"key""#) }
        #expect(keys.contains { $0.contains(#""command":"type kiwi""#) }, "\(keys)")
    }

    @Test("another word, or --input on another subcommand: exit 64 naming the three, before connecting")
    func usage() throws {
        let folder = try temporaryDirectory(prefix: "tandem-ctl-")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let socket = folder + "/control.sock"  // no service: a usage mistake is found first
        let wrong = try Ctl.ctl(["command", "next", "--input", "keybord"], socket: socket)
        #expect(wrong.status == 64, "\(wrong.output)")
        #expect(wrong.stderr.contains(#"--input is touch, keyboard, braille, found "keybord""#), "\(wrong.stderr)")
        let elsewhere = try Ctl.ctl(["status", "--input", "keyboard"], socket: socket)
        #expect(elsewhere.status == 64 && elsewhere.stderr.contains("--input is for ctl command"), "\(elsewhere.stderr)")
    }

    @Test("a service without commandInput: exit 1 naming the feature, nothing sent")
    func olderService() throws {
        let fake = try ScriptedTandem(welcome: #"{"type":"welcome","v":1,"client":"c1","features":["ack"]}"#) { line in
            guard let id = line.firstMatch(of: /"id":(\d+)/)?.1 else { return [] }
            return [#"{"type":"ack","id":\#(id)}"#]
        }
        let refused = try Ctl.ctl(["command", "next", "--input", "keyboard"], socket: fake.socket)
        #expect(refused.status == 1, "\(refused.output)")
        #expect(refused.stderr.contains(#"protocol feature "commandInput""#), "\(refused.stderr)")
        #expect(fake.lines.count == 1, "only hello was sent: \(fake.lines)")
    }
}
