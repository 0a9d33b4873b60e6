import Foundation
import Testing
import TandemTestSupport

/// The static build of Docs/ci.md#static: built once, copied into a bare folder and run there
/// with no Swift on PATH; the shared libraries it needs are the ones Docs/ci.md lists and
/// `scripts/install.sh --runtime` installs.
@Suite("A static tandem runs from a bare folder on the runtime install", .serialized)
struct StaticBuildTests {
    /// Docs/ci.md#runtime's list of the shared libraries the static binary needs.
    static func documentedLibraries() throws -> [String] {
        let page = try String(contentsOfFile: PackageRoot.path("Docs/ci.md"), encoding: .utf8)
        let start = try #require(page.range(of: "<a id=\"runtime\"></a>"))
        let block = try #require(page[start.upperBound...].firstMatch(of: /Shared libraries the binary needs: ([^\n]+)\.\n/))
        return block.output.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
    }

    static func runtimePackages() throws -> [String] {
        let r = try ProcessRunner.run(["/bin/bash", PackageRoot.path("scripts/install.sh"), "--runtime", "--dry-run"])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    /// The package that installed `path`, which ldd may name through a link or under /lib
    /// where dpkg lists /usr/lib (Debian 12 merged the two).
    static func owner(of path: String) throws -> String {
        let resolved = try ProcessRunner.run(["/usr/bin/readlink", "-f", path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        var candidates: [String] = []
        for p in [path, resolved] {
            candidates += [p, p.hasPrefix("/usr/") ? String(p.dropFirst(4)) : "/usr" + p]
        }
        for candidate in candidates {
            let r = try ProcessRunner.run(["/usr/bin/dpkg", "-S", candidate])
            if r.status == 0 { return String(r.stdout.split(separator: ":").first ?? "") }
        }
        return "no package (\(path))"
    }

    @Test("copied into a bare folder, it prints its version and runs a suite with Debian's folders only on PATH")
    func bareFolder() throws {
        let binary = try StaticTandem.binary()
        let bare = CLITests.temporaryPath("bare")
        defer { try? FileManager.default.removeItem(atPath: bare) }
        try FileManager.default.createDirectory(atPath: bare + "/accessibility", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: binary, toPath: bare + "/tandem")
        try FileManager.default.copyItem(atPath: PackageRoot.path("Tests/Fixtures/ci/bank"), toPath: bare + "/accessibility/bank")
        try FileManager.default.copyItem(atPath: PackageRoot.path("Examples/jobs"), toPath: bare + "/accessibility/jobs")
        var env = ["PATH": "/usr/bin:/bin", "HOME": bare, "LD_LIBRARY_PATH": "", "XDG_CONFIG_HOME": bare + "/.config"]

        // Away from its package, the binary has no shipped profiles: the braille-only walk is
        // bad input until TANDEM_PROFILES names them (as Examples/ci's files do).
        let lost = try ProcessRunner.run([bare + "/tandem", "test", "accessibility"], environment: env, directory: bare)
        #expect(lost.status == 2)
        #expect(lost.stdout.contains("accessibility/jobs/jobs.deafblind.scenario:3: no profile \"braille-only\""), "\(lost.stdout)")
        try FileManager.default.copyItem(atPath: PackageRoot.path("Profiles"), toPath: bare + "/profiles")
        env["TANDEM_PROFILES"] = "profiles"

        let version = try ProcessRunner.run([bare + "/tandem", "--version"], environment: env, directory: bare)
        #expect(version.status == 0)
        #expect(version.stdout == "tandem \(CIVersion.expected)\n")
        let test = try ProcessRunner.run([bare + "/tandem", "test", "accessibility", "--junit", "junit.xml"], environment: env, directory: bare)
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(test.stdout.hasPrefix("ok     accessibility/bank/bank.scenario"))
        #expect(test.stdout.contains("4 passed"))
        let lint = try ProcessRunner.run([bare + "/tandem", "lint", "accessibility/bank/bank.catalog.json"], environment: env, directory: bare)
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
    }

    @Test("it links no Swift library; its shared libraries are Docs/ci.md's list, each from a package install.sh --runtime brings")
    func sharedLibraries() throws {
        let binary = try StaticTandem.binary()
        let readelf = try ProcessRunner.run(["/usr/bin/readelf", "-d", binary])
        #expect(readelf.status == 0, "\(readelf.stderr)")
        let needed = readelf.stdout.matches(of: /\(NEEDED\)\s+Shared library: \[([^\]]+)\]/).map { String($0.output.1) }
        #expect(!needed.isEmpty)
        #expect(needed.allSatisfy { !$0.contains("swift") && !$0.hasPrefix("libFoundation") && !$0.hasPrefix("libdispatch") && !$0.hasPrefix("libBlocksRuntime") },
                "\(needed)")
        #expect(needed.sorted() == (try Self.documentedLibraries()).sorted())

        // Each resolves on this machine (ldd), to a file of a package the runtime install
        // lists, one those depend on, or the C runtime every Debian image has.
        let ldd = try ProcessRunner.run(["/usr/bin/ldd", binary])
        #expect(!ldd.stdout.contains("not found"), "\(ldd.stdout)")
        let packages = try Self.runtimePackages()
        var allowed = Set(packages + ["libc6", "libgcc-s1", "libstdc++6", "zlib1g"])
        for p in packages {
            let depends = try ProcessRunner.run(["/usr/bin/dpkg-query", "-W", "-f=${Depends}", p]).stdout
            for d in depends.split(separator: ",") { allowed.insert(String(d.split(separator: " ").first ?? "").split(separator: ":").first.map(String.init) ?? "") }
        }
        // The dynamic loader, named by its absolute path in ldd's list, is libc6's.
        for library in needed where !library.hasPrefix("ld-linux") {
            let path = try #require(ldd.stdout.firstMatch(of: try Regex("\(NSRegularExpression.escapedPattern(for: library)) => (\\S+)"))?.output[1].substring, "\(library) in \(ldd.stdout)")
            let package = try Self.owner(of: String(path))
            #expect(allowed.contains(package), "\(library) (\(path)) comes from \(package), which install.sh --runtime does not bring")
        }
    }
}

@Suite("scripts/install.sh: the runtime-only and build-only installs")
struct InstallScriptTests {
    @Test("--runtime --dry-run lists liblouis, its tables and the client libraries the binary links, nothing to build with, no daemon, no browser")
    func runtimeList() throws {
        let packages = try StaticBuildTests.runtimePackages()
        #expect(packages == ["liblouis20", "liblouis-data", "libspeechd2", "libbrlapi0.8", "libatspi2.0-0"])
        #expect(packages.allSatisfy { !$0.hasSuffix("-dev") })
        for heavy in ["chromium", "speech-dispatcher", "brltty", "tmux", "xvfb"] { #expect(!packages.contains(heavy)) }
    }

    @Test("--build --dry-run lists the headers the build needs")
    func buildList() throws {
        let r = try ProcessRunner.run(["/bin/bash", PackageRoot.path("scripts/install.sh"), "--build", "--dry-run"])
        #expect(r.status == 0)
        #expect(r.stdout == "liblouis-dev\nlibspeechd-dev\nlibbrlapi-dev\nlibatspi2.0-dev\nlibx11-dev\npkg-config\nliblouis-data\n")
    }

    @Test("run for real with the packages present, --runtime installs nothing and says nothing")
    func runtimeInstallIsANoOpHere() throws {
        let r = try ProcessRunner.run(["/bin/bash", PackageRoot.path("scripts/install.sh"), "--runtime"], timeout: .seconds(600))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty && r.stderr.isEmpty, "\(r.stdout)\(r.stderr)")
    }

    @Test("an unknown option, or --dry-run of the whole install, is a usage error (64)")
    func usage() throws {
        let unknown = try ProcessRunner.run(["/bin/bash", PackageRoot.path("scripts/install.sh"), "--runtim"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr == "tandem: install.sh: unknown option --runtim (--runtime, --build, --dry-run)\n")
        #expect(try ProcessRunner.run(["/bin/bash", PackageRoot.path("scripts/install.sh"), "--dry-run"]).status == 64)
    }
}
