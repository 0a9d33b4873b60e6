import Foundation

/// The `tandem` executable of the build these tests belong to.
public enum TandemBinary {
    /// The folder SwiftPM built this test run in (`.build/<triple>/debug` or `release`): it
    /// holds every product of the same configuration. The test executable is in it, or in an
    /// `.xctest` bundle in it.
    public static var buildDirectory: URL {
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0])
        var dir = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        var walk = dir
        while walk.path != "/" {
            if walk.pathExtension == "xctest" { dir = walk.deletingLastPathComponent(); break }
            walk = walk.deletingLastPathComponent()
        }
        return dir
    }

    /// The path of `tandem` in `buildDirectory`; throws, naming the folder, when it is not built.
    public static func path() throws -> String {
        let candidate = buildDirectory.appendingPathComponent("tandem").path
        guard FileManager.default.isExecutableFile(atPath: candidate) else {
            throw TestSupportError("no tandem executable at \(candidate): build it in the same configuration as the tests "
                + "(swift build --build-tests) before running them")
        }
        return candidate
    }
}
