import Testing
import TandemClient
import TandemTestSupport

/// `command`'s `input` in the Swift controller (Docs/protocol.md#controller, feature
/// `commandInput`): a typed `InputMethod`, sent only when given, reaching the real service
/// (a keyboard's activate on a text field starts typing into it), and refused before sending
/// by a service that did not announce the feature.
@Suite("command's input in the Swift client", .serialized)
struct CommandInputTests {
    static let form = AppScreen(id: "signup", focus: "email", root: AppElement("root", children: [
        AppElement("email", label: "Email", traits: .textField, frame: Frame(x: 0, y: 0, width: 390, height: 44)),
    ]))

    /// A scripted service that announces `features` and acknowledges every request.
    static func acknowledging(_ features: String) throws -> ScriptedTandem {
        try ScriptedTandem(welcome: #"{"type":"welcome","v":1,"client":"c1","features":[\#(features)]}"#) { line in
            guard let id = line.firstMatch(of: /"id":(\d+)/)?.1 else { return [] }
            return [#"{"type":"ack","id":\#(id)}"#]
        }
    }

    @Test("the message carries input only when given, as its raw word")
    func message() throws {
        let fake = try Self.acknowledging(#""ack","commandInput""#)
        let controller = try TandemController(socketPath: fake.socket, timeout: .seconds(10))
        try controller.command(.next)
        for method in InputMethod.allCases { try controller.command(.activate, input: method) }
        try controller.command(named: "route 3", input: .braille)
        let lines = (2...6).map { fake.line($0)?.replacing(/,"id":\d+/, with: "") }
        #expect(lines == [#"{"type":"command","command":"next"}"#,
                          #"{"type":"command","command":"activate","input":"touch"}"#,
                          #"{"type":"command","command":"activate","input":"keyboard"}"#,
                          #"{"type":"command","command":"activate","input":"braille"}"#,
                          #"{"type":"command","command":"route 3","input":"braille"}"#], "\(lines)")
        controller.close()
    }

    @Test("against the real service: activate from a keyboard starts typing into the field, from the profile's touch it does not")
    func realService() throws {
        let serve = try ServeProcess()
        let app = try TandemApp(name: "Signup", socketPath: serve.socket)
        try app.show(Self.form)
        let controller = try TandemController(socketPath: serve.socket)
        #expect(waitUntil(timeout: .seconds(10)) { (try? controller.status())?.focus == "email" })
        try controller.command(.activate)
        #expect(try controller.status().editing == nil, "the headless profile's input is touch")
        try controller.command(.activate, input: .keyboard)
        #expect(try controller.status().editing == "email")
        try controller.command(named: "escape", input: .braille)
        #expect(try controller.status().editing == nil, "escape from a braille display ends editing")
        controller.close()
        app.close()
        #expect(serve.stop() == 0)
    }

    @Test("the async controller sends input too")
    func realServiceAsync() async throws {
        let serve = try ServeProcess()
        let app = try await TandemApp.connect(name: "Signup", socketPath: serve.socket)
        try app.show(Self.form)
        let controller = try await TandemController.connect(socketPath: serve.socket)
        #expect(waitUntil(timeout: .seconds(10)) { (try? controller.status())?.focus == "email" })
        try await controller.command(.activate, input: .braille)
        #expect(try await controller.status().editing == "email")
        try await controller.command(.escape, input: .keyboard)
        #expect(try await controller.status().editing == nil)
        controller.close()
        app.close()
        #expect(serve.stop() == 0)
    }

    @Test("a service without commandInput: input is refused before anything is sent, naming the feature; without input the command goes")
    func olderService() throws {
        let fake = try Self.acknowledging(#""ack""#)
        let controller = try TandemController(socketPath: fake.socket, timeout: .seconds(10))
        do throws(TandemClientError) {
            try controller.command(.activate, input: .keyboard)
            Issue.record("input was sent to a service that did not announce commandInput")
        } catch {
            guard case .unsupported(let feature, _) = error else { Issue.record("not unsupported: \(error)"); return }
            #expect(feature == .commandInput)
            #expect(error.description.contains(#"protocol feature "commandInput""#), "\(error)")
        }
        try controller.command(.next)
        let second = fake.line(2)
        #expect(second?.hasPrefix(#"{"type":"command","command":"next""#) == true, "the second line is next: \(second ?? "nothing")")
        #expect(second?.contains("input") == false)
        controller.close()
    }
}
