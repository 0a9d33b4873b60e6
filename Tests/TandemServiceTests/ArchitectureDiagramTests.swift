import Foundation
import Testing
import TandemTestSupport

/// Docs/architecture.md's module diagram is the package's: every module is in it, and every
/// module's dependencies are drawn above it (data flows down; a module imports only those above).
@Suite("Docs/architecture.md's diagram matches Package.swift")
struct ArchitectureDiagramTests {
    /// The package's own Swift targets (not system libraries, not tests or their support, not
    /// the example apps) and the package targets each depends on, read from Package.swift.
    static func targets() throws -> [String: [String]] {
        let text = try String(contentsOfFile: PackageRoot.path("Package.swift"), encoding: .utf8)
        var out: [String: [String]] = [:]
        let calls = [".target(name: \"", ".executableTarget(name: \""]
        var rest = Substring(text)
        while let start = calls.compactMap({ rest.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            let afterName = rest[start.upperBound...]
            guard let nameEnd = afterName.firstIndex(of: "\"") else { break }
            let name = String(afterName[..<nameEnd])
            // The call's text: up to its closing parenthesis.
            var depth = 1
            var i = afterName.startIndex
            while depth > 0, i < afterName.endIndex {
                if afterName[i] == "(" { depth += 1 } else if afterName[i] == ")" { depth -= 1 }
                i = afterName.index(after: i)
            }
            let call = afterName[nameEnd..<i]
            rest = afterName[i...]
            if call.contains("path: \"Tests") || call.contains("path: \"Examples") { continue }
            var deps: [String] = []
            if let list = call.range(of: "dependencies: [") {
                let body = call[list.upperBound...].prefix { $0 != "]" }
                // Names are between quotes: every second piece, counting the empty one before the
                // first quote (split's default drops it, which made every name a ", ").
                deps = body.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            }
            out[name] = deps
        }
        return out
    }

    /// Module names in the order the diagram first draws them.
    static func diagramOrder(known: Set<String>) throws -> [String] {
        let doc = try String(contentsOfFile: PackageRoot.path("Docs/architecture.md"), encoding: .utf8)
        guard let open = doc.range(of: "```\n"), let close = doc.range(of: "```", range: open.upperBound..<doc.endIndex) else { return [] }
        var order: [String] = []
        // A module is drawn where its name opens a line, or follows "└→"; the words of the
        // descriptions beside it ("tandem serve", "tandem-bench's soak") draw nothing.
        for line in doc[open.upperBound..<close.lowerBound].split(separator: "\n") {
            var text = Substring(line)
            if let arrow = text.range(of: "└→") {
                text = text[arrow.upperBound...].drop(while: { $0 == " " })
            } else if text.first?.isLetter != true {
                continue
            }
            let names = text.range(of: "  ").map { text[..<$0.lowerBound] } ?? text
            for word in names.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "-" }) {
                let w = String(word)
                if known.contains(w), !order.contains(w) { order.append(w) }
            }
        }
        return order
    }

    @Test("every module of Package.swift is in the diagram, and each one's dependencies are drawn above it")
    func diagramMatchesPackage() throws {
        let targets = try Self.targets()
        #expect(targets["TandemSession"] != nil && targets["tandem"] != nil, "Package.swift was read: \(targets.keys.sorted())")
        #expect(targets["TandemImport"]?.contains("TandemModel") == true && targets["TandemImport"]?.contains("CByteScan") == true,
                "dependencies were read: \(targets["TandemImport"] ?? [])")
        let order = try Self.diagramOrder(known: Set(targets.keys))
        let missing = targets.keys.filter { !order.contains($0) }.sorted()
        #expect(missing.isEmpty, "modules missing from Docs/architecture.md's diagram: \(missing)")
        for (k, module) in order.enumerated() {
            let above = Set(order[..<k])
            let below = (targets[module] ?? []).filter { targets[$0] != nil && !above.contains($0) }
            #expect(below.isEmpty, "\(module) depends on \(below), drawn below it in Docs/architecture.md")
        }
    }

    @Test("the pure modules import no C library (header-only byte scans aside) and no I/O module")
    func pureModulesStayPure() throws {
        let targets = try Self.targets()
        let pure = ["TandemVocabulary", "TandemModel", "TandemNavigator", "TandemPresentation", "TandemPolicy", "TandemProtocol",
                    "TandemSession", "TandemLint", "TandemImport"]
        let io: Set = ["TandemOutputs", "TandemService", "TandemServer", "TandemSuites", "TandemProcess", "TandemClient", "TandemATSPI"]
        // C a pure module may use: header-only functions of bytes in memory, nothing linked.
        let headerOnly: [String: Set<String>] = ["TandemImport": ["CByteScan"]]
        for module in pure {
            let deps = try #require(targets[module], "\(module) is in Package.swift")
            let bad = deps.filter { ($0.hasPrefix("C") && !(headerOnly[module] ?? []).contains($0)) || io.contains($0) }
            #expect(bad.isEmpty, "\(module) depends on \(bad)")
        }
    }

    @Test("the C a pure module uses is header only: no library linked, nothing but byte arithmetic included")
    func headerOnlyCStaysPure() throws {
        let map = try String(contentsOfFile: PackageRoot.path("Sources/CByteScan/module.modulemap"), encoding: .utf8)
        #expect(!map.contains("link"), "CByteScan links nothing")
        let header = try String(contentsOfFile: PackageRoot.path("Sources/CByteScan/shim.h"), encoding: .utf8)
        let includes = header.split(separator: "\n").filter { $0.hasPrefix("#include") }.map(String.init)
        #expect(Set(includes) == ["#include <stdint.h>", "#include <string.h>", "#include <emmintrin.h>"], "\(includes)")
        // Every function is `static inline`: compiled into its caller, no symbol of its own.
        let functions = header.split(separator: "\n").filter { $0.contains("(") && $0.hasSuffix("{") && !$0.hasPrefix(" ") && !$0.hasPrefix("#") }
        #expect(!functions.isEmpty && functions.allSatisfy { $0.hasPrefix("static inline ") }, "\(functions)")
    }
}
