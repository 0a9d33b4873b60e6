// swift-tools-version:6.0
import PackageDescription

// libFuzzer harnesses, one executable a harness, kept out of the main package so its normal
// build never sees `-sanitize=fuzzer`. Built and run by `scripts/fuzz.sh`:
//   swift build -c release -Xswiftc -sanitize=fuzzer,address
// Each harness is a `@_cdecl("LLVMFuzzerTestOneInput")` function that its `main.swift` hands
// to libFuzzer's driver (`FuzzSupport/FuzzDriver.swift` says why not libFuzzer's `main`).
// The folder is `Fuzz/Harnesses`, not `Fuzz`: SwiftPM names a package by its folder, and a
// checkout named `fuzz` would otherwise clash with this package.
let package = Package(
    name: "TandemFuzz",
    dependencies: [.package(name: "Tandem", path: "../..")],
    targets: [
        .systemLibrary(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"]),
        .executableTarget(name: "fuzz-catalog", dependencies: [
            "FuzzSupport", .product(name: "TandemModel", package: "Tandem"), .product(name: "TandemNavigator", package: "Tandem"),
        ]),
        .executableTarget(name: "fuzz-scenario", dependencies: [
            "FuzzSupport", .product(name: "TandemModel", package: "Tandem"), .product(name: "TandemService", package: "Tandem"),
            .product(name: "TandemSession", package: "Tandem"),
        ]),
        .executableTarget(name: "fuzz-profile", dependencies: [
            "FuzzSupport", .product(name: "TandemModel", package: "Tandem"), .product(name: "TandemService", package: "Tandem"),
            .product(name: "TandemSession", package: "Tandem"),
        ]),
        .executableTarget(name: "fuzz-protocol", dependencies: [
            "FuzzSupport", .product(name: "TandemVocabulary", package: "Tandem"), .product(name: "TandemNavigator", package: "Tandem"),
            .product(name: "TandemProtocol", package: "Tandem"),
        ]),
        .executableTarget(name: "fuzz-ssip", dependencies: [
            "FuzzSupport", .product(name: "TandemOutputs", package: "Tandem"),
        ]),
        .executableTarget(name: "fuzz-service", dependencies: [
            "FuzzSupport", .product(name: "TandemService", package: "Tandem"), .product(name: "TandemProtocol", package: "Tandem"),
            .product(name: "TandemOutputs", package: "Tandem"), .product(name: "TandemModel", package: "Tandem"),
            .product(name: "TandemSession", package: "Tandem"), .product(name: "TandemVocabulary", package: "Tandem"),
            .product(name: "TandemFuzzSurface", package: "Tandem"),
        ]),
        .executableTarget(name: "fuzz-transport", dependencies: [
            "FuzzSupport", .product(name: "TandemFuzzSurface", package: "Tandem"), .product(name: "TandemVocabulary", package: "Tandem"),
        ]),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
