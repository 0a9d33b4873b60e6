import Foundation
import Testing
import TandemProtocol
import TandemTestSupport

/// `tandem serve`'s `welcome` over its real socket: the features it announces
/// (Docs/protocol.md#features), and the docs' examples of it, which must be what it sends.
@Suite("tandem serve's welcome", .serialized)
struct WelcomeTests {
    /// The `features` member of a `welcome` line, as sent.
    static func features(_ line: String) -> [String]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return object["features"] as? [String]
    }

    @Test("apps and controllers are welcomed with every protocol feature's name, sorted, edits among them")
    func featuresOverTheSocket() throws {
        let serve = try ServeProcess()
        let app = try serve.client()
        app.send(#"{"type":"hello","v":1,"role":"app","name":"Groceries"}"#)
        let appWelcome = app.readLine() ?? "nothing"
        let controller = try serve.client()
        controller.send(#"{"type":"hello","v":1,"role":"controller"}"#)
        let controllerWelcome = controller.readLine() ?? "nothing"
        let names = Self.features(appWelcome)
        #expect(names == ProtocolFeature.allCases.map(\.rawValue).sorted(), "\(appWelcome)")
        #expect(names?.contains("edits") == true)
        #expect(Self.features(controllerWelcome) == names, "\(controllerWelcome)")
        guard case .success(.welcome(let client, _, let decoded)) = ServerMessageDecoder.decode(appWelcome, line: 1) else {
            Issue.record("not a welcome: \(appWelcome)"); return
        }
        #expect(client == "c1" && decoded == .all)
        #expect(serve.stop() == 0)
    }

    /// Every `{"type":"welcome",…}` object written in the docs, the README and the examples'
    /// pages, with the file it is in.
    static func documentedWelcomes() throws -> [(file: String, line: String)] {
        let root = PackageRoot.path
        var files = ["README.md"]
        for folder in ["Docs", "Examples"] {
            let found = FileManager.default.enumerator(atPath: root + "/" + folder)?.compactMap { $0 as? String } ?? []
            files += found.filter { $0.hasSuffix(".md") || $0.hasSuffix(".1") }.map { folder + "/" + $0 }
        }
        var out: [(String, String)] = []
        for file in files.sorted() {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            var rest = text[...]
            while let start = rest.range(of: #"{"type":"welcome""#) {
                // The object runs to the brace that closes it (no brace inside its strings).
                var depth = 0
                var end = start.lowerBound
                for i in rest[start.lowerBound...].indices {
                    if rest[i] == "{" { depth += 1 } else if rest[i] == "}" { depth -= 1 }
                    if depth == 0 { end = rest.index(after: i); break }
                }
                guard end > start.lowerBound else { out.append((file, String(rest[start.lowerBound...].prefix(200)))); break }
                out.append((file, String(rest[start.lowerBound..<end])))
                rest = rest[end...]
            }
        }
        return out
    }

    @Test("the protocol page's Features table has one row for each feature, in the order welcome sends them")
    func featuresTable() throws {
        let page = try String(contentsOfFile: PackageRoot.path("Docs/protocol.md"), encoding: .utf8)
        guard let start = page.range(of: "<a id=\"features\"></a>") else { Issue.record("no #features section"); return }
        let table = page[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("| name |") }.dropFirst(2).prefix { $0.hasPrefix("|") }
        let names = table.compactMap { row in row.firstMatch(of: /^\| `([^`]+)` \|/).map { String($0.1) } }
        #expect(names.count == table.count, "every row starts with a name: \(Array(table))")
        #expect(names == ProtocolFeature.allCases.map(\.rawValue).sorted())
    }

    @Test("every welcome the docs show is the line the service sends, but for the client id")
    func documentedWelcomesAreReal() throws {
        let serve = try ServeProcess()
        let app = try serve.client()
        app.send(#"{"type":"hello","v":1,"role":"app","name":"Groceries"}"#)
        let sent = app.readLine() ?? "nothing"
        #expect(sent.contains(#""client":"c1""#), "\(sent)")
        let documented = try Self.documentedWelcomes()
        #expect(documented.count >= 3, "the protocol page's row and its example session's two: \(documented.map(\.file))")
        for (file, line) in documented {
            let asSent = line.replacing(/"client":"c\d+"/, with: #""client":"c1""#)
            #expect(asSent == sent, "\(file): \(line)")
        }
        #expect(serve.stop() == 0)
    }
}
