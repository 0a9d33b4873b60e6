import Foundation
import Glibc
import Testing
import TandemTestSupport

/// The spawner every process-driving test relies on: status, streams, folder, environment,
/// signals and the timeout.
@Suite("process runner")
struct ProcessRunnerTests {
    @Test("the exit status and both streams come back apart")
    func statusAndStreams() throws {
        let r = try ProcessRunner.run(["/bin/sh", "-c", "echo out; echo err >&2; exit 3"])
        #expect(r.status == 3)
        #expect(r.stdout == "out\n")
        #expect(r.stderr == "err\n")
    }

    @Test("the command runs in the folder and with exactly the environment given")
    func folderAndEnvironment() throws {
        #expect(try ProcessRunner.run(["/bin/pwd"], directory: "/usr").stdout == "/usr\n")
        #expect(try ProcessRunner.run(["/usr/bin/env"], environment: ["TANDEM_ONLY": "1"]).stdout == "TANDEM_ONLY=1\n")
    }

    @Test("a command starts with SIGTERM unblocked, so it can be stopped; its status says so")
    func signalsReachTheCommand() throws {
        // With the test thread's blocked mask inherited, the shell would survive this and exit 0.
        let r = try ProcessRunner.run(["/bin/sh", "-c", "kill -TERM $$; exit 0"])
        #expect(r.status == 128 + SIGTERM)
    }

    @Test("a command still running at the timeout is killed and the call throws, naming it")
    func timeout() {
        let error = #expect(throws: ProcessFailure.self) {
            try ProcessRunner.run(["/bin/sleep", "30"], timeout: .milliseconds(200))
        }
        #expect(error?.description.contains("/bin/sleep 30 did not finish") == true, "\(String(describing: error))")
    }

    @Test("a command that cannot be started is an error naming it")
    func missingExecutable() {
        let error = #expect(throws: ProcessFailure.self) {
            try ProcessRunner.run(["/nonexistent/tandem-nothing"])
        }
        #expect(error?.description.contains("cannot run /nonexistent/tandem-nothing") == true, "\(String(describing: error))")
    }

    @Test("output appended to a log keeps what was there, both streams in the order written")
    func appendedToALog() throws {
        let folder = try temporaryDirectory(prefix: "tandem-runner-")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/scripts.log"
        try "before\n".write(toFile: log, atomically: false, encoding: .utf8)
        let r = try ProcessRunner.run(["/bin/sh", "-c", "echo out; echo err >&2; exit 4"], output: .appended(toFile: log))
        #expect(r.status == 4)
        #expect(r.output.isEmpty, "nothing is captured when the output goes to the log")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "before\nout\nerr\n")
    }

    @Test("a command inherits no descriptor but the standard three, even one not close-on-exec")
    func onlyTheStandardDescriptors() throws {
        let open = Glibc.open("/dev/null", O_RDONLY)
        #expect(open > 2)
        defer { close(open) }
        let r = try ProcessRunner.run(["/bin/sh", "-c", "ls /proc/$$/fd"])
        let inherited = r.stdout.split(separator: "\n").compactMap { Int32($0) }
        #expect(inherited.sorted() == [0, 1, 2], "\(r.output)")
    }
}
