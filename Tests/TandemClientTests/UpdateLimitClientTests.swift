import Testing
import TandemClient
import TandemModel
import TandemProtocol
import TandemTestSupport

/// The Swift client holds an `update` to the `maxUpdateNodes` its service's `welcome` gave
/// (Docs/protocol.md#limits): one over it is refused before anything is sent.
@Suite("maxUpdateNodes in the Swift client", .serialized)
struct UpdateLimitClientTests {
    static let row = AppElement("row", children: (0..<4).map { AppElement("cell\($0)") })  // 5 nodes

    static func refused(_ call: () throws(TandemClientError) -> Void) -> String? {
        do throws(TandemClientError) {
            try call()
            return nil
        } catch {
            guard case .invalid(let sentence) = error else { return "not invalid: \(error)" }
            return sentence
        }
    }

    @Test("nodes plus edited ids over the welcome's maxUpdateNodes are refused naming it, nothing sent; at the limit they go")
    func welcomeLimit() throws {
        let fake = try ScriptedTandem(welcome: #"{"type":"welcome","v":1,"client":"c1","maxUpdateNodes":10,"features":["edits"]}"#)
        let app = try TandemApp(name: "Groceries", socketPath: fake.socket, timeout: .seconds(10))
        #expect(app.connection.limits.maxUpdateNodes == 10)
        // 6 nodes + 2 inserted ids: 8, sent.
        try app.insert([Self.row, AppElement("more")], into: "list", at: .after("first"))
        #expect(fake.line(2)?.hasPrefix(#"{"type":"update","nodes":[{"id":"row""#) == true)
        // 6 nodes + 3 removed + 2 inserted: 11.
        let sentence = Self.refused { () throws(TandemClientError) in
            try app.update([Self.row, AppElement("more")], edits: [.init(parent: "list", remove: ["a", "b", "c"], insert: ["row", "more"])])
        }
        #expect(sentence == "the update carries 11 nodes and edited ids, over the service's limit of 10 (maxUpdateNodes), "
                + "so it was not sent; send the rest in another update (Docs/protocol.md#limits)")
        #expect(Self.refused { () throws(TandemClientError) in try app.remove((0..<11).map { "r\($0)" }, from: "list") }?
            .contains("carries 11 nodes and edited ids") == true)
        #expect(Self.refused { () throws(TandemClientError) in try app.update((0..<11).map { AppElement("n\($0)") }) }?
            .contains("carries 11 nodes") == true)
        // Exactly the limit goes; the fake's third line is it, so none of the refused ones was sent.
        try app.update((0..<10).map { AppElement("n\($0)") })
        #expect(fake.line(3)?.hasPrefix(#"{"type":"update","nodes":[{"id":"n0"}"#) == true, "\(fake.line(3) ?? "nothing")")
        #expect(fake.lines.count == 3, "\(fake.lines.map { $0.prefix(80) })")
        app.close()
    }

    @Test("a welcome without maxUpdateNodes (an older service) stands for 8,192")
    func olderService() throws {
        let fake = try ScriptedTandem(welcome: #"{"type":"welcome","v":1,"client":"c1","features":["edits"]}"#)
        let app = try TandemApp(name: "Groceries", socketPath: fake.socket, timeout: .seconds(10))
        #expect(app.connection.limits.maxUpdateNodes == 8_192)
        #expect(Self.refused { () throws(TandemClientError) in try app.remove((0..<8_193).map { "r\($0)" }, from: "list") }?
            .contains("over the service's limit of 8192 (maxUpdateNodes)") == true)
        try app.remove((0..<8_192).map { "r\($0)" }, from: "list")
        #expect(fake.line(2)?.hasPrefix(#"{"type":"update","edits":[{"parent":"list","remove":["r0""#) == true, "\(fake.line(2)?.prefix(80) ?? "nothing")")
        app.close()
    }
}
