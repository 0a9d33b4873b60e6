// swift-tools-version:6.0
import PackageDescription

// Data flows down this list: model → navigator → presentation → policy → outputs → service → CLI.
// TandemVocabulary, below them all, holds the words they pass on. The pure modules do no I/O
// and import no C library; C libraries come in through the .systemLibrary targets below.
let package = Package(
    name: "Tandem",
    products: [
        .executable(name: "tandem", targets: ["tandem"]),
        .executable(name: "tandem-bench", targets: ["tandem-bench"]),
        // For Fuzz/, a package of its own that depends on this one by path.
        .library(name: "TandemVocabulary", targets: ["TandemVocabulary"]),
        .library(name: "TandemModel", targets: ["TandemModel"]),
        .library(name: "TandemNavigator", targets: ["TandemNavigator"]),
        .library(name: "TandemOutputs", targets: ["TandemOutputs"]),
        .library(name: "TandemProtocol", targets: ["TandemProtocol"]),
        .library(name: "TandemSession", targets: ["TandemSession"]),
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
        // Header-only byte scans for the page source reader (SSE2, a plain C loop elsewhere).
        .systemLibrary(name: "CByteScan"),
        // atspi-2.pc: -I/usr/include/at-spi-2.0 (+ GLib, D-Bus) -latspi; only TandemATSPI uses it.
        .systemLibrary(name: "CAtspi", pkgConfig: "atspi-2", providers: [.apt(["libatspi2.0-dev"])]),
        // x11.pc: -lX11; TandemATSPI asks X which window typed keys go to (Docs/atspi.md#actions).
        .systemLibrary(name: "CX11", pkgConfig: "x11", providers: [.apt(["libx11-dev"])]),
        // The words every layer passes on: records and sinks, the transcript's line format,
        // commands, app actions, utterances and speech decisions. Pure; imports nothing.
        .target(name: "TandemVocabulary"),
        // The POSIX helpers written once (Sources/TandemPOSIX): the monotonic clock, the pipe2 wake
        // mailbox, Unix socket addresses, the line buffer. Glibc and the CLinux shim header only
        // (nothing linked), so the app-facing TandemClient may use it and stays free of C libraries.
        .target(name: "TandemPOSIX", dependencies: ["CLinux"]),
        .target(name: "TandemModel", dependencies: ["TandemVocabulary"]),
        .target(name: "TandemNavigator", dependencies: ["TandemVocabulary", "TandemModel"]),
        // Each language's words are a .strings file under Languages/, compiled into the binary.
        .target(name: "TandemPresentation", dependencies: ["TandemVocabulary", "TandemModel", "TandemNavigator"],
                resources: [.embedInCode("Languages")]),
        // The accessibility audit (`tandem lint`): pure, on the navigator's reading order.
        .target(name: "TandemLint", dependencies: ["TandemVocabulary", "TandemModel", "TandemNavigator"]),
        .target(name: "TandemPolicy", dependencies: ["TandemVocabulary", "TandemPresentation"]),
        // `tandem import`: WebDriverAgent and UiAutomator page sources to catalogs (its own XML reader, Docs/import.md#reader).
        .target(name: "TandemImport", dependencies: ["TandemVocabulary", "TandemModel", "TandemNavigator", "CByteScan"]),
        .target(name: "TandemOutputs", dependencies: ["TandemVocabulary", "TandemModel", "TandemPresentation", "TandemPolicy", "CLouis", "CSpeechd", "CBrlAPI", "CLinux", "TandemPOSIX"]),
        // The control protocol's messages (Docs/protocol.md): pure, decoded on the catalogs' JSON tape.
        .target(name: "TandemProtocol", dependencies: ["TandemVocabulary", "TandemModel"]),
        // The session and the service with their one entry (SessionCore.apply): pure, no clock, no I/O.
        .target(name: "TandemSession", dependencies: ["TandemVocabulary", "TandemModel", "TandemNavigator", "TandemPresentation",
                                                      "TandemPolicy", "TandemProtocol"]),
        .target(name: "TandemService", dependencies: ["TandemVocabulary", "TandemSession", "TandemModel", "TandemNavigator", "TandemPresentation", "TandemPolicy", "TandemOutputs", "TandemProtocol",
                                                      "TandemServer"]),
        // Regression suites for CI (`tandem test`): discovery, shards, parallel runs, JUnit, HTML.
        .target(name: "TandemSuites", dependencies: ["TandemVocabulary", "TandemModel", "TandemPresentation", "TandemOutputs", "TandemService", "TandemSession", "TandemServer", "TandemProcess"]),
        // The control socket's I/O (Unix socket, poll loop); knows nothing of the protocol.
        .target(name: "TandemServer", dependencies: ["TandemVocabulary", "CLinux", "TandemPOSIX"]),
        // A client of the control socket for Swift apps and tests: pure Swift and Glibc sockets.
        .target(name: "TandemClient", dependencies: ["TandemVocabulary", "TandemModel", "TandemProtocol", "TandemPOSIX"]),
        // `tandem atspi`: a running Linux app's AT-SPI tree, mirrored into `tandem serve` as a client (Docs/atspi.md).
        .target(name: "TandemATSPI", dependencies: ["CAtspi", "CX11", "TandemVocabulary", "TandemModel", "TandemPresentation", "TandemClient"]),
        .executableTarget(name: "tandem", dependencies: ["TandemVocabulary", "TandemService", "TandemSession", "TandemServer", "TandemProtocol", "TandemLint", "TandemSuites", "TandemClient",
                                                         "TandemATSPI", "TandemImport"]),
        .executableTarget(name: "tandem-bench", dependencies: ["TandemVocabulary", "TandemService", "TandemSession", "TandemSuites", "TandemProtocol", "TandemProcess", "TandemImport", "CLinux", "TandemPOSIX"]),
        // The example app of Examples/clients/swift: the grocery screen over the socket.
        .executableTarget(name: "tandem-example-grocery", dependencies: ["TandemClient"], path: "Examples/clients/swift"),
        // The counter of Docs/protocol.md#swift, word for word (a test compares the two).
        .executableTarget(name: "tandem-example-counter", dependencies: ["TandemClient"], path: "Examples/clients/swift-counter"),
        // Starting a command and waiting for it (posix_spawn, a timeout, output into files): for
        // the tests and tandem-bench, which start the same daemon scripts, and for an app case's
        // app in TandemSuites (its spawn alone).
        .target(name: "TandemProcess", dependencies: ["CLinux"]),
        // What the tests share: package paths, the process spawner (re-exported), the tandem binary, seeded
        // randomness, waiting, live sessions. Only test targets depend on it.
        .target(name: "TandemTestSupport",
                dependencies: ["TandemVocabulary", "TandemModel", "TandemNavigator", "TandemPresentation", "TandemPolicy", "TandemOutputs", "TandemService", "TandemSession",
                               "TandemProcess", "CLinux", "TandemPOSIX"],
                path: "Tests/TandemTestSupport"),
        .testTarget(name: "TandemModelTests", dependencies: ["TandemModel", "TandemTestSupport"]),
        .testTarget(name: "TandemNavigatorTests", dependencies: ["TandemVocabulary", "TandemNavigator", "TandemTestSupport"]),
        .testTarget(name: "TandemImportTests", dependencies: ["TandemVocabulary", "TandemImport", "CByteScan", "TandemLint", "TandemModel", "TandemNavigator", "TandemService", "TandemSession", "TandemTestSupport"]),
        .testTarget(name: "TandemLintTests", dependencies: ["TandemLint", "TandemPresentation", "TandemTestSupport"]),
        .testTarget(name: "TandemPresentationTests", dependencies: ["TandemVocabulary", "TandemPresentation"]),
        .testTarget(name: "TandemPolicyTests", dependencies: ["TandemVocabulary", "TandemPolicy", "TandemTestSupport"]),
        .testTarget(name: "TandemOutputsTests", dependencies: ["TandemVocabulary", "TandemOutputs", "TandemService", "TandemSession", "TandemTestSupport"]),
        .testTarget(name: "TandemServiceTests", dependencies: ["TandemVocabulary", "TandemService", "TandemSession", "TandemServer", "TandemTestSupport"]),
        .testTarget(name: "TandemSuitesTests", dependencies: ["TandemSuites", "TandemService", "TandemSession", "TandemTestSupport"]),
        .testTarget(name: "TandemProtocolTests", dependencies: ["TandemVocabulary", "TandemProtocol"]),
        .testTarget(name: "TandemPOSIXTests", dependencies: ["TandemPOSIX", "TandemTestSupport"]),
        .testTarget(name: "TandemServerTests", dependencies: ["TandemServer", "TandemTestSupport"]),
        .testTarget(name: "TandemClientTests", dependencies: ["TandemVocabulary", "TandemClient", "TandemProtocol", "TandemTestSupport"]),
        .testTarget(name: "TandemTestSupportTests", dependencies: ["TandemTestSupport"]),
        .testTarget(name: "TandemATSPITests", dependencies: ["TandemATSPI", "TandemPresentation", "TandemClient", "TandemProtocol", "TandemTestSupport"]),
    ]
)

// One settings loop: the same strict settings for every Swift target.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
    ]
}
