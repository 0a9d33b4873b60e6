import Foundation
import Glibc
import Testing
import TandemTestSupport

/// `ProcessRunner.spawn`, what `run` and `tandem test`'s app cases share: what `run` alone does
/// not reach — a process group of the command's own, a log made empty first, `PATH` looked up
/// in a folder — and the exit status read from `waitpid`.
@Suite("process spawn")
struct ProcessSpawnTests {
    /// Waits for `pid` and returns its exit status as `run` reports one.
    static func wait(_ pid: pid_t) -> Int32 {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        return ProcessRunner.status(fromWait: raw)
    }

    @Test("a command started in a group of its own leads it, and a signal to the group ends it; otherwise it is in ours")
    func processGroup() throws {
        let own = try ProcessRunner.spawn(["/bin/sleep", "30"], environment: [:], output: .file("/dev/null", append: true),
                                          ownProcessGroup: true)
        #expect(getpgid(own) == own)
        #expect(getpgid(own) != getpgrp())
        kill(-own, SIGKILL)
        #expect(Self.wait(own) == 128 + SIGKILL)

        let shared = try ProcessRunner.spawn(["/bin/sleep", "30"], environment: [:], output: .file("/dev/null", append: true))
        #expect(getpgid(shared) == getpgrp())
        kill(shared, SIGTERM)
        #expect(Self.wait(shared) == 128 + SIGTERM)
    }

    @Test("a log not appended to is made empty first; both streams go into it in the order written")
    func logMadeEmpty() throws {
        let folder = try temporaryDirectory(prefix: "tandem-spawn-")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/app.log"
        try "from the last run\n".write(toFile: log, atomically: false, encoding: .utf8)
        let pid = try ProcessRunner.spawn(["/bin/sh", "-c", "echo out; echo err >&2"], environment: [:], output: .file(log, append: false))
        #expect(Self.wait(pid) == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "out\nerr\n")
    }

    @Test("a command run in a folder is found in the PATH given and runs there")
    func folderAndPath() throws {
        let folder = try temporaryDirectory(prefix: "tandem-spawn-")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/out"
        let arguments = ProcessRunner.command(["pwd"], in: "/usr")
        #expect(arguments == ["/usr/bin/env", "-C", "/usr", "pwd"])
        #expect(ProcessRunner.command(["/bin/pwd"], in: nil) == ["/bin/pwd"])
        let pid = try ProcessRunner.spawn(arguments, environment: ["PATH": "/usr/bin:/bin"], output: .files(stdout: log, stderr: folder + "/err"))
        #expect(Self.wait(pid) == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "/usr\n")
    }

    @Test("a program that cannot be started is named, with the reason")
    func notStarted() {
        let error = #expect(throws: ProcessRunner.SpawnFailure.self) {
            try ProcessRunner.spawn(["/nonexistent/tandem-nothing"], environment: [:], output: .file("/dev/null", append: true))
        }
        #expect(error?.program == "/nonexistent/tandem-nothing")
        #expect(error?.code == ENOENT && error?.reason == "No such file or directory", "\(String(describing: error))")
    }
}
