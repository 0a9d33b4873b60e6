import Foundation
import Testing
import TandemTestSupport

/// A hostile client against a real `tandem serve` over its socket (issue 27): deep and long
/// chains, a megabyte id, a megabyte announcement, a flood of screen switches, look-alike names.
/// Each is answered within its bound — checked by sizes and counts — and the other clients
/// keep working.
@Suite("tandem serve against a hostile client", .serialized)
struct HostileServeTests {
    typealias Scene = ServeRobustnessTests.Scene

    /// `{"type":"update",…}` hanging a chain `d0` … `d<depth - 1>` under the scene's title.
    static func chain(_ depth: Int) -> String {
        var nodes = [#"{"id":"title","label":"Groceries","children":["d0"]}"#]
        for i in 0..<depth { nodes.append(#"{"id":"d\#(i)"\#(i < depth - 1 ? #","children":["d\#(i + 1)"]"# : "")}"#) }
        return #"{"type":"update","nodes":["# + nodes.joined(separator: ",") + "]}"
    }

    @Test("an 8,000-deep chain in one line is refused naming maxDepth, a 20,000-deep one naming maxUpdateNodes, with short errors; the controller's status still answers")
    func deepChain() throws {
        let s = try Scene()
        s.app.send(Self.chain(8_000))
        let error = s.app.readLine { $0.contains(#""type":"error""#) }
        #expect(error?.contains("deeper than the limit of 250 (maxDepth)") == true, "\(error ?? "nothing")")
        #expect((error?.utf8.count ?? .max) < 1_000)
        s.app.send(Self.chain(20_000))
        let size = s.app.readLine { $0.contains(#""type":"error""#) }
        #expect(size?.contains("the update carries 20001 nodes and edited ids, over the limit of 8192 (maxUpdateNodes)") == true, "\(size ?? "nothing")")
        #expect(s.alive())
        #expect(s.serve.stop() == 0)
    }

    @Test("a 921,600-byte set id gets an error line under 1,000 bytes; a BOM line gets a sentence")
    func hugeIDAndBOM() throws {
        let s = try Scene()
        s.app.send(#"{"type":"set","id":""# + String(repeating: "é", count: 460_800) + #"","value":"x"}"#)
        let error = s.app.readLine { $0.contains(#""type":"error""#) }
        #expect((error?.utf8.count ?? .max) < 1_000, "an error line of \(error?.utf8.count ?? 0) bytes")
        #expect(error?.contains("is too long to echo") == true)
        _ = s.controller.write([0xEF, 0xBB, 0xBF] + Array(#"{"type":"status","id":1}"#.utf8) + [10])
        #expect(s.controller.readLine()?.contains("byte-order mark") == true)
        #expect(s.alive())
        #expect(s.serve.stop() == 0)
    }

    @Test("a 900 KiB announcement reaches the transcript's braille cut to 2,048 characters and a marker")
    func hugeAnnouncement() throws {
        let s = try Scene()
        s.app.send(#"{"type":"notify","notification":"announcement","text":""# + String(repeating: "w", count: 921_600) + #""}"#)
        // A status on the app's own connection is answered after its announcement is handled
        // (replies come in order): the controller's could come first and the service stop
        // before the megabyte line was read.
        #expect(s.alive(s.app))
        #expect(s.alive())
        #expect(s.serve.stop() == 0)
        let braille = s.serve.transcriptLines.filter { $0.contains(#""ch":"braille""#) && $0.contains("www") }
        #expect(!braille.isEmpty)
        #expect(braille.allSatisfy { $0.utf8.count < 20_000 }, "a braille line of \(braille.map(\.utf8.count).max() ?? 0) bytes")
        #expect(braille.contains { $0.contains(#"w…""#) })
    }

    @Test("a second app named Groceries is Groceries (2) in status")
    func lookAlike() throws {
        let s = try Scene()
        let twin = try s.serve.client()
        twin.send(#"{"type":"hello","v":1,"role":"app","name":"Groceries"}"#)
        #expect(twin.readLine()?.contains(#""type":"welcome""#) == true)
        s.controller.send(#"{"type":"status","id":7}"#)
        let status = s.controller.readLine { $0.contains(#""type":"status""#) }
        #expect(status?.contains(#""name":"Groceries (2)""#) == true, "\(status ?? "nothing")")
        #expect(s.serve.stop() == 0)
    }
}
