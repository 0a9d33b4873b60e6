import Foundation
import Glibc
import TandemTestSupport
import Testing

/// `scripts/test.sh` and `scripts/demo.sh` must stop when the build fails, never go on to run
/// the test bundles or the `tandem` binary an earlier build left behind.
///
/// Each case copies the two scripts into a scratch package with a stand-in `swift` first on
/// PATH: its `build` fails like a compile error (or succeeds, to show the scripts do go on
/// when it should), its `test` passes, a stand-in `python3` passes the Python client's tests, a
/// stand-in `close-check.sh` finds no descriptor closed twice (or finds one, when told),
/// and a stale `.build/release/tandem` is there to be run.
/// Every call is logged, so the test sees exactly what the script did after the build.
@Suite("build scripts stop on a failed build")
struct BuildScriptTests {
    struct Run { var status: Int32; var stderr: String; var calls: [String] }

    static func run(_ script: String, build: String, closes: String = "none") throws -> Run {
        let fm = FileManager.default
        let dir = fm.temporaryDirectory.appendingPathComponent("tandem-scripts-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: dir) }
        let scripts = dir.appendingPathComponent("scripts"), bin = dir.appendingPathComponent("bin")
        let release = dir.appendingPathComponent(".build/release")
        for d in [scripts, bin, release] { try fm.createDirectory(at: d, withIntermediateDirectories: true) }
        try fm.copyItem(at: PackageRoot.url("scripts/\(script)"), to: scripts.appendingPathComponent(script))
        let log = dir.appendingPathComponent("calls.log").path

        // Written through a close-on-exec descriptor: a child another test starts meanwhile
        // must not inherit the file open for writing, or running it fails with ETXTBSY
        // ("Text file busy": the script then reports a failed build it never ran).
        func executable(_ url: URL, _ text: String) throws {
            let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
            guard fd >= 0 else { throw TestSupportError("cannot write \(url.path): errno \(errno)") }
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            guard written == bytes.count else { throw TestSupportError("cannot write \(url.path)") }
        }
        try executable(scripts.appendingPathComponent("install-deps.sh"), "#!/bin/sh\nexit 0\n")
        // The double-close check test.sh builds and reports on (its library path: none here).
        try executable(scripts.appendingPathComponent("close-check.sh"), """
            #!/bin/sh
            echo "close-check $1" >> "\(log)"
            if [ "$1" = report ] && [ "$STUB_CLOSES" = found ]; then exit 1; fi
            exit 0

            """)
        try executable(bin.appendingPathComponent("swift"), """
            #!/bin/sh
            echo "swift $*" >> "\(log)"
            if [ "$1" = build ] && { [ "$STUB_BUILD" = fail ] || { [ "$STUB_BUILD" = fail-static ] && [ "$4" = --static-swift-stdlib ]; }; }; then
              echo "Sources/TandemModel/Catalog.swift:3:1: error: expected declaration" >&2
              exit 1
            fi
            exit 0

            """)
        try executable(release.appendingPathComponent("tandem"), "#!/bin/sh\necho \"tandem $1\" >> \"\(log)\"\n")
        // The Python client's tests, which test.sh runs after the Swift ones.
        try executable(bin.appendingPathComponent("python3"), "#!/bin/sh\necho \"python3 $*\" >> \"\(log)\"\n")

        var env = ProcessInfo.processInfo.environment
        env["PATH"] = bin.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["STUB_BUILD"] = build
        env["STUB_CLOSES"] = closes
        let r = try ProcessRunner.run(["/bin/bash", scripts.appendingPathComponent(script).path], environment: env,
                                      directory: dir.path, timeout: .seconds(30))
        let calls = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return Run(status: r.status, stderr: r.stderr, calls: calls.split(separator: "\n").map(String.init))
    }

    @Test("test.sh fails on a compile error and never runs the old test bundles")
    func testScriptStopsOnACompileError() throws {
        let r = try Self.run("test.sh", build: "fail")
        #expect(r.status != 0)
        #expect(r.calls == ["swift build --build-tests"])
        #expect(r.stderr.contains("tandem: build failed"))
    }

    @Test("test.sh runs the tests when the build succeeds")
    func testScriptRunsTestsAfterABuild() throws {
        let r = try Self.run("test.sh", build: "ok")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.calls == ["swift build --build-tests", "swift build -c release --static-swift-stdlib --product tandem --scratch-path .build/ci-static",
                            "close-check build", "swift test --skip-build", "close-check report",
                            "python3 -m unittest discover -s Examples/clients"])
    }

    @Test("test.sh stops when the static build Examples/ci's tests run fails, before the tests")
    func testScriptStopsOnAFailedStaticBuild() throws {
        let r = try Self.run("test.sh", build: "fail-static")
        #expect(r.status != 0)
        #expect(r.calls == ["swift build --build-tests", "swift build -c release --static-swift-stdlib --product tandem --scratch-path .build/ci-static"])
        #expect(r.stderr.contains("tandem: static build failed"))
    }

    @Test("test.sh fails when the tests passed but Tandem's code closed a descriptor twice")
    func testScriptFailsOnADoubleClose() throws {
        let r = try Self.run("test.sh", build: "ok", closes: "found")
        #expect(r.status != 0)
        #expect(r.calls == ["swift build --build-tests", "swift build -c release --static-swift-stdlib --product tandem --scratch-path .build/ci-static",
                            "close-check build", "swift test --skip-build", "close-check report"])
    }

    @Test("demo.sh fails on a compile error and never replays with the old binary")
    func demoScriptStopsOnACompileError() throws {
        let r = try Self.run("demo.sh", build: "fail")
        #expect(r.status != 0)
        #expect(r.calls == ["swift build -c release --product tandem"])
        #expect(r.stderr.contains("error: expected declaration"))
        #expect(r.stderr.contains("tandem: build failed"))
    }

    @Test("demo.sh replays the sample when the build succeeds")
    func demoScriptReplaysAfterABuild() throws {
        let r = try Self.run("demo.sh", build: "ok")
        #expect(r.status == 0)
        #expect(r.calls == ["swift build -c release --product tandem", "tandem replay"])
    }
}
