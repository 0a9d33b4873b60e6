import Foundation
import Synchronization
import TandemTestSupport

/// The release build Examples/ci's workflows make: `swift build -c release --static-swift-stdlib
/// --product tandem`, built once per test run into its own build folder (`.build/ci-static`:
/// the test run's own `.build` is locked by `swift test`), and incremental after the first.
enum StaticTandem {
    /// The build folder every static build of the tests uses.
    static let scratch = PackageRoot.path(".build/ci-static")

    /// A folder holding `swift`: the toolchain's, with `--scratch-path` added to `swift build`
    /// (so a recipe's build command runs as written, into `scratch`) and `--package-path`
    /// resolved, each call logged to the file `SWIFT_CALLS` names.
    static let shim: String = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-swift-shim-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let script = """
            #!/bin/bash
            [ -n "$SWIFT_CALLS" ] && echo "swift $*" >> "$SWIFT_CALLS"
            # The package's real path: the checkout is linked into each scratch job, and one
            # build folder serves every link only under one path.
            args=() prev=
            for a in "$@"; do
              if [ "$prev" = --package-path ]; then args+=("$(readlink -f "$a")"); else args+=("$a"); fi
              prev=$a
            done
            if [ "$1" = build ]; then exec \(realSwift) build --scratch-path "\(scratch)" "${args[@]:1}"; fi
            exec \(realSwift) "${args[@]}"

            """
        _ = FileManager.default.createFile(atPath: dir + "/swift", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
        return dir
    }()

    /// The toolchain's `swift`, found on PATH.
    static let realSwift: String = {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = "\(dir)/swift"
            if FileManager.default.isExecutableFile(atPath: candidate), !candidate.contains("tandem-swift-shim") { return candidate }
        }
        return "/usr/bin/swift"
    }()

    /// An environment for commands the tests run as a CI job would: the test run's own
    /// preloads and logs left out (the close check is for Tandem's tests, not for SwiftPM).
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in ["LD_PRELOAD", "TANDEM_CLOSE_LOG", "XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"] { env[key] = nil }
        env["XDG_CONFIG_HOME"] = "/nonexistent-tandem-test"
        return env.merging(extra) { _, new in new }
    }

    /// The build's outcome, once known: the binary's path, or why there is none.
    private enum Outcome { case built(String), failed(String) }
    private static let outcome = Mutex<Outcome?>(nil)

    /// The static `tandem`, built on first use (the same command the workflows run).
    static func binary() throws -> String {
        let result: Outcome = try outcome.withLock { state in
            if let state { return state }
            let r = try ProcessRunner.run([shim + "/swift", "build", "-c", "release", "--static-swift-stdlib", "--package-path", PackageRoot.path, "--product", "tandem"],
                                          environment: environment(), timeout: .seconds(3600))
            let done: Outcome = r.status == 0 ? .built(scratch + "/release/tandem")
                : .failed("the static build failed (\(r.status)):\n\(r.stdout.suffix(3000))\(r.stderr.suffix(3000))")
            state = done
            return done
        }
        switch result {
        case .built(let path): return path
        case .failed(let message): throw TestSupportError(message)
        }
    }

    /// `tool args…` through bash, captured.
    static func sh(_ script: String, in directory: String, _ extra: [String: String] = [:], timeout: Duration = .seconds(120)) throws -> ProcessResult {
        try ProcessRunner.run(["/bin/bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], environment: environment(extra), directory: directory, timeout: timeout)
    }
}
