import Foundation
import Glibc
import Testing
import TandemClient
import TandemTestSupport

/// Docs/protocol.md#swift works as written: its `Package.swift` resolves against this package,
/// its app is the example target this package builds (in Swift 6 language mode), and that app,
/// started as a user would, is heard through a real `tandem serve`.
@Suite("the Swift client's docs, as written")
struct SwiftDocTests {
    /// The fenced blocks of the Swift client's section, in order.
    static func swiftBlocks() throws -> [String] {
        try DocBlock.all("Docs/protocol.md", language: "swift", after: "### `TandemClient` (Swift)", before: "### Python")
    }

    @Test("the app on the page is Examples/clients/swift-counter/main.swift, word for word")
    func appIsTheBuiltExample() throws {
        let blocks = try Self.swiftBlocks()
        let app = try String(contentsOfFile: PackageRoot.path("Examples/clients/swift-counter/main.swift"), encoding: .utf8)
        #expect(blocks.contains(app))
        #expect(app.hasPrefix("import TandemClient\n\n"), "one import is all an app needs")
    }

    @Test("the page's Package.swift resolves against this package, cloned beside the app as `tandem`")
    func manifestResolves() throws {
        let manifest = try #require(try Self.swiftBlocks().first { $0.contains("import PackageDescription") })
        let root = try temporaryDirectory(prefix: "tandem-swift-doc")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createSymbolicLink(atPath: root + "/tandem", withDestinationPath: PackageRoot.path)
        try FileManager.default.createDirectory(atPath: root + "/Counter/Sources/Counter", withIntermediateDirectories: true)
        try manifest.write(toFile: root + "/Counter/Package.swift", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: PackageRoot.path("Examples/clients/swift-counter/main.swift"),
                                        toPath: root + "/Counter/Sources/Counter/main.swift")
        let swift = try #require(["/opt/swift/usr/bin/swift", "/usr/bin/swift"].first { FileManager.default.isExecutableFile(atPath: $0) }
                                 ?? Self.which("swift"))
        let r = try ProcessRunner.run([swift, "package", "--package-path", root + "/Counter", "show-dependencies"], timeout: .seconds(120))
        #expect(r.status == 0, "\(r.output)")
        #expect(r.stdout.contains("tandem<"), "\(r.output)")
    }

    static func which(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test("the counter, started as a user would (default socket), is heard: increment says its new value, 1")
    func counterIsHeard() throws {
        let serve = try ServeProcess()
        defer { serve.stop() }
        // The default socket is $XDG_RUNTIME_DIR/tandem/control.sock: point it at the service's.
        let runtime = try temporaryDirectory(prefix: "tandem-runtime")
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        try FileManager.default.createSymbolicLink(atPath: runtime + "/tandem", withDestinationPath: serve.folder)
        let app = Process()
        app.executableURL = TandemBinary.buildDirectory.appendingPathComponent("tandem-example-counter")
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime
        app.environment = env
        app.standardOutput = FileHandle.nullDevice
        try app.run()
        defer { if app.isRunning { kill(app.processIdentifier, SIGKILL) } }
        let controller = try TandemController(socketPath: serve.socket)
        #expect(waitUntil(timeout: .seconds(15)) { ((try? controller.status())?.focus) == "count" }, "the counter's screen is in front")
        try controller.command(.increment)
        #expect(waitUntil(timeout: .seconds(10)) {
            serve.transcriptLines.contains { $0.contains(#""op":"speak""#) && $0.contains(#""text":"1""#) && $0.contains(#""src":"value""#) }
        }, "\(serve.transcriptLines.filter { $0.contains("speak") })")
        // The service going away ends the app's `for try await` loop, and the app ends normally.
        serve.stop()
        #expect(waitUntil(timeout: .seconds(10)) { !app.isRunning })
        #expect(app.terminationReason == .exit && app.terminationStatus == 0, "the loop ended, nothing thrown")
    }
}
