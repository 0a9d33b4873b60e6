// swift-tools-version:6.0
import PackageDescription

// Data flows down this list: model → navigator → presentation → policy → outputs → service → CLI.
// The first four are pure Swift with no I/O; only TandemOutputs touches C libraries.
let package = Package(
    name: "Tandem",
    products: [
        .executable(name: "tandem", targets: ["tandem"]),
        .executable(name: "tandem-bench", targets: ["tandem-bench"]),
    ],
    targets: [
        // liblouis.pc: -I/usr/include/liblouis -llouis
        .systemLibrary(name: "CLouis", pkgConfig: "liblouis", providers: [.apt(["liblouis-dev"])]),
        // speech-dispatcher.pc: -I/usr/include/speech-dispatcher -lspeechd (Requires: glib-2.0)
        .systemLibrary(name: "CSpeechd", pkgConfig: "speech-dispatcher", providers: [.apt(["libspeechd-dev"])]),
        // libbrlapi-dev ships no pkg-config file: the modulemap links "brlapi" by name.
        .systemLibrary(name: "CBrlAPI", providers: [.apt(["libbrlapi-dev"])]),
        .target(name: "TandemModel"),
        .target(name: "TandemNavigator", dependencies: ["TandemModel"]),
        // Each language's words are a .strings file under Languages/, compiled into the binary.
        .target(name: "TandemPresentation", dependencies: ["TandemModel", "TandemNavigator"],
                resources: [.embedInCode("Languages")]),
        .target(name: "TandemPolicy", dependencies: ["TandemPresentation"]),
        .target(name: "TandemOutputs", dependencies: ["TandemPresentation", "TandemPolicy", "CLouis", "CSpeechd", "CBrlAPI"]),
        .target(name: "TandemService", dependencies: ["TandemModel", "TandemNavigator", "TandemPresentation", "TandemPolicy", "TandemOutputs"]),
        .executableTarget(name: "tandem", dependencies: ["TandemService"]),
        .executableTarget(name: "tandem-bench", dependencies: ["TandemService"]),
        .testTarget(name: "TandemModelTests", dependencies: ["TandemModel"]),
        .testTarget(name: "TandemNavigatorTests", dependencies: ["TandemNavigator"]),
        .testTarget(name: "TandemPresentationTests", dependencies: ["TandemPresentation"]),
        .testTarget(name: "TandemPolicyTests", dependencies: ["TandemPolicy"]),
        .testTarget(name: "TandemOutputsTests", dependencies: ["TandemOutputs", "TandemService"]),
        .testTarget(name: "TandemServiceTests", dependencies: ["TandemService"]),
    ]
)

// One settings loop: the same strict settings for every Swift target.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
    ]
}
