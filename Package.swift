// swift-tools-version:6.0
import PackageDescription

// Data flows down this list: model → navigator → presentation → policy → outputs → service → CLI.
// The first four are pure Swift with no I/O; only TandemOutputs touches C libraries.
let package = Package(
    name: "Tandem",
    products: [
        .executable(name: "tandem", targets: ["tandem"]),
        .executable(name: "tandem-bench", targets: ["tandem-bench"]),
        // For Fuzz/, a package of its own that depends on this one by path.
        .library(name: "TandemModel", targets: ["TandemModel"]),
        .library(name: "TandemNavigator", targets: ["TandemNavigator"]),
        .library(name: "TandemOutputs", targets: ["TandemOutputs"]),
        .library(name: "TandemProtocol", targets: ["TandemProtocol"]),
        .library(name: "TandemService", targets: ["TandemService"]),
        .library(name: "TandemFuzzSurface", targets: ["TandemPresentation", "TandemPolicy", "TandemServer"]),
        // For apps and tests talking to `tandem serve` (Docs/protocol.md#swift).
        .library(name: "TandemClient", targets: ["TandemClient"]),
        .executable(name: "tandem-example-grocery", targets: ["tandem-example-grocery"]),
    ],
    targets: [
        // liblouis.pc: -I/usr/include/liblouis -llouis
        .systemLibrary(name: "CLouis", pkgConfig: "liblouis", providers: [.apt(["liblouis-dev"])]),
        // speech-dispatcher.pc: -I/usr/include/speech-dispatcher -lspeechd (Requires: glib-2.0)
        .systemLibrary(name: "CSpeechd", pkgConfig: "speech-dispatcher", providers: [.apt(["libspeechd-dev"])]),
        // libbrlapi-dev ships no pkg-config file: the modulemap links "brlapi" by name.
        .systemLibrary(name: "CBrlAPI", providers: [.apt(["libbrlapi-dev"])]),
        // glibc calls Swift's Glibc module leaves out (it is built without _GNU_SOURCE).
        .systemLibrary(name: "CLinux"),
        // atspi-2.pc: -I/usr/include/at-spi-2.0 (+ GLib, D-Bus) -latspi; only TandemATSPI uses it.
        .systemLibrary(name: "CAtspi", pkgConfig: "atspi-2", providers: [.apt(["libatspi2.0-dev"])]),
        .target(name: "TandemModel"),
        .target(name: "TandemNavigator", dependencies: ["TandemModel"]),
        // Each language's words are a .strings file under Languages/, compiled into the binary.
        .target(name: "TandemPresentation", dependencies: ["TandemModel", "TandemNavigator"],
                resources: [.embedInCode("Languages")]),
        // The accessibility audit (`tandem lint`): pure, on the navigator's reading order.
        .target(name: "TandemLint", dependencies: ["TandemModel", "TandemNavigator"]),
        .target(name: "TandemPolicy", dependencies: ["TandemPresentation"]),
        // `tandem import`: WebDriverAgent and UiAutomator page sources to catalogs (Foundation's XMLParser).
        .target(name: "TandemImport", dependencies: ["TandemModel", "TandemNavigator"]),
        .target(name: "TandemOutputs", dependencies: ["TandemModel", "TandemPresentation", "TandemPolicy", "CLouis", "CSpeechd", "CBrlAPI", "CLinux"]),
        // The control protocol's messages (Docs/protocol.md): pure, decoded on the catalogs' JSON tape.
        .target(name: "TandemProtocol", dependencies: ["TandemModel", "TandemNavigator"]),
        .target(name: "TandemService", dependencies: ["TandemModel", "TandemNavigator", "TandemPresentation", "TandemPolicy", "TandemOutputs", "TandemProtocol"]),
        // Regression suites for CI (`tandem test`): discovery, shards, parallel runs, JUnit, HTML.
        .target(name: "TandemSuites", dependencies: ["TandemModel", "TandemPresentation", "TandemOutputs", "TandemService"]),
        // The control socket's I/O (Unix socket, poll loop); knows nothing of the protocol.
        .target(name: "TandemServer", dependencies: ["CLinux"]),
        // A client of the control socket for Swift apps and tests: pure Swift and Glibc sockets.
        .target(name: "TandemClient", dependencies: ["TandemModel", "TandemNavigator", "TandemProtocol"]),
        // `tandem atspi`: a running Linux app's AT-SPI tree, mirrored into `tandem serve` as a client (Docs/atspi.md).
        .target(name: "TandemATSPI", dependencies: ["CAtspi", "TandemModel", "TandemClient"]),
        .executableTarget(name: "tandem", dependencies: ["TandemService", "TandemServer", "TandemProtocol", "TandemLint", "TandemSuites", "TandemClient",
                                                         "TandemATSPI", "TandemImport"]),
        .executableTarget(name: "tandem-bench", dependencies: ["TandemService", "TandemSuites", "TandemProtocol", "TandemProcess", "TandemImport", "CLinux"]),
        // The example app of Examples/clients/swift: the grocery screen over the socket.
        .executableTarget(name: "tandem-example-grocery", dependencies: ["TandemClient"], path: "Examples/clients/swift"),
        // The counter of Docs/protocol.md#swift, word for word (a test compares the two).
        .executableTarget(name: "tandem-example-counter", dependencies: ["TandemClient"], path: "Examples/clients/swift-counter"),
        // Starting a command and waiting for it (posix_spawn, a timeout, output into files): for
        // the tests and tandem-bench, which start the same daemon scripts.
        .target(name: "TandemProcess", dependencies: ["CLinux"]),
        // What the tests share: package paths, the process spawner (re-exported), the tandem binary, seeded
        // randomness, waiting, live sessions. Only test targets depend on it.
        .target(name: "TandemTestSupport",
                dependencies: ["TandemModel", "TandemNavigator", "TandemPresentation", "TandemPolicy", "TandemOutputs", "TandemService",
                               "TandemProcess", "CLinux"],
                path: "Tests/TandemTestSupport"),
        .testTarget(name: "TandemModelTests", dependencies: ["TandemModel", "TandemTestSupport"]),
        .testTarget(name: "TandemNavigatorTests", dependencies: ["TandemNavigator", "TandemTestSupport"]),
        .testTarget(name: "TandemImportTests", dependencies: ["TandemImport", "TandemLint", "TandemModel", "TandemNavigator", "TandemService", "TandemTestSupport"]),
        .testTarget(name: "TandemLintTests", dependencies: ["TandemLint", "TandemPresentation", "TandemTestSupport"]),
        .testTarget(name: "TandemPresentationTests", dependencies: ["TandemPresentation"]),
        .testTarget(name: "TandemPolicyTests", dependencies: ["TandemPolicy", "TandemTestSupport"]),
        .testTarget(name: "TandemOutputsTests", dependencies: ["TandemOutputs", "TandemService", "TandemTestSupport"]),
        .testTarget(name: "TandemServiceTests", dependencies: ["TandemService", "TandemTestSupport"]),
        .testTarget(name: "TandemSuitesTests", dependencies: ["TandemSuites", "TandemService", "TandemTestSupport"]),
        .testTarget(name: "TandemProtocolTests", dependencies: ["TandemProtocol"]),
        .testTarget(name: "TandemServerTests", dependencies: ["TandemServer", "TandemTestSupport"]),
        .testTarget(name: "TandemClientTests", dependencies: ["TandemClient", "TandemProtocol", "TandemTestSupport"]),
        .testTarget(name: "TandemTestSupportTests", dependencies: ["TandemTestSupport"]),
        .testTarget(name: "TandemATSPITests", dependencies: ["TandemATSPI", "TandemClient", "TandemProtocol", "TandemTestSupport"]),
    ]
)

// One settings loop: the same strict settings for every Swift target.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
    ]
}
