import Testing
import TandemClient
import TandemModel
import TandemProtocol
import TandemTestSupport

/// The protocol features a service announces in `welcome` (Docs/protocol.md#features), as the
/// Swift client reads them, and its calls that need one: against the real service, and against
/// a scripted one that announces what an older or a newer service would.
@Suite("protocol features in the Swift client", .serialized)
struct FeatureTests {
    static let kiwi = AppElement("kiwi.row", group: true, children: [AppElement("kiwi.cell", label: "Kiwi")])

    @Test("the real service's features reach apps and controllers as typed values: every one this Tandem has")
    func realService() throws {
        let serve = try ServeProcess()
        let app = try TandemApp(name: "Groceries", socketPath: serve.socket)
        let controller = try TandemController(socketPath: serve.socket)
        #expect(app.features.known == Set(ProtocolFeature.allCases) && app.features.unknown.isEmpty, "\(app.features)")
        #expect(controller.features == app.features)
        #expect(app.features.contains(.edits))
        controller.close()
        app.close()
        #expect(serve.stop() == 0)
    }

    @Test("a welcome without features (an older service): none, and children edits are refused before anything is sent, naming edits")
    func olderService() throws {
        let fake = try ScriptedTandem(welcome: #"{"type":"welcome","v":1,"client":"c1"}"#)
        let app = try TandemApp(name: "Groceries", socketPath: fake.socket, timeout: .seconds(10))
        #expect(app.features == .none && app.features.names.isEmpty)
        let calls: [(String, () throws(TandemClientError) -> Void)] = [
            ("insert", { () throws(TandemClientError) in try app.insert([Self.kiwi], into: "products", at: .after("banana.row")) }),
            ("remove", { () throws(TandemClientError) in try app.remove(["banana.row"], from: "products") }),
            ("update(_:edits:)", { () throws(TandemClientError) in
                try app.update([], edits: [TreeUpdate.ChildrenEdit(parent: "products", remove: ["milk.row"])]) }),
        ]
        for (name, call) in calls {
            do throws(TandemClientError) {
                try call()
                Issue.record("\(name) was sent to a service that did not announce edits")
            } catch {
                guard case .unsupported(let feature, let announced) = error else { Issue.record("\(name): not unsupported: \(error)"); continue }
                #expect(feature == .edits && announced == .none, "\(name)")
                #expect(error.description.contains(#"protocol feature "edits""#), "\(name): \(error)")
            }
        }
        // Whole lists still go; the fake's second line is this update, so none of the edits was sent.
        try app.update([AppElement("products", children: [AppElement("milk.row")])])
        let second = fake.line(2)
        #expect(second?.hasPrefix(#"{"type":"update","nodes":[{"id":"products""#) == true, "\(second ?? "nothing")")
        #expect(second?.contains("edits") == false)
        #expect(fake.lines.count == 2, "\(fake.lines)")
        app.close()
    }

    @Test("subscribe(channels:) against a service without channels, which sends them all: only the channels asked for come")
    func channelsKeptByTheClient() throws {
        let fake = try ScriptedTandem(welcome: #"{"type":"welcome","v":1,"client":"c1","features":["ack"]}"#) { line in
            guard line.contains(#""type":"subscribe""#), let id = line.firstMatch(of: /"id":(\d+)/)?.1 else { return [] }
            return [#"{"type":"ack","id":\#(id)}"#,
                    #"{"type":"transcript","line":{"t":10,"ch":"event","type":"key","command":"next"}}"#,
                    #"{"type":"transcript","line":{"t":10,"ch":"braille","text":"Kiwi","cells":"⠅⠊⠺⠊"}}"#,
                    #"{"type":"transcript","line":{"t":10,"ch":"speech","op":"speak","prio":"text","text":"Kiwi","src":"focus"}}"#,
                    #"{"type":"transcript","line":{"t":20,"ch":"sound","op":"play","sound":"tick"}}"#]
        }
        let controller = try TandemController(socketPath: fake.socket, timeout: .seconds(10))
        #expect(!controller.features.contains(.channels))
        try controller.subscribe(channels: [.speech])
        #expect(fake.line(2)?.contains(#""channels":["speech"]"#) == true, "the list is still sent")
        let first = try controller.nextTranscriptLine(timeout: .seconds(10))
        #expect(first?.channel == .speech && first?.text == "Kiwi", "\(String(describing: first))")
        // The sound line after it is dropped too: nothing more comes.
        #expect(try controller.nextTranscriptLine(timeout: .milliseconds(300)) == nil)
        controller.close()
    }

    @Test("a newer service's unknown names are kept; with edits announced, edits are sent")
    func newerService() throws {
        let fake = try ScriptedTandem(welcome: #"{"type":"welcome","v":1,"client":"c7","features":["edits","haptics","zoom"]}"#)
        let app = try TandemApp(name: "Groceries", socketPath: fake.socket, timeout: .seconds(10))
        #expect(app.client == "c7")
        #expect(app.features.known == [.edits])
        #expect(app.features.unknown == ["haptics", "zoom"])
        try app.remove(["banana.row"], from: "products")
        #expect(fake.line(2) == #"{"type":"update","edits":[{"parent":"products","remove":["banana.row"]}]}"#)
        app.close()
    }
}
