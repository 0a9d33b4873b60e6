import Foundation
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
        let error = #expect(throws: TestSupportError.self) {
            try ProcessRunner.run(["/bin/sleep", "30"], timeout: .milliseconds(200))
        }
        #expect(error?.description.contains("/bin/sleep 30 did not finish") == true, "\(String(describing: error))")
    }

    @Test("a command that cannot be started is an error naming it")
    func missingExecutable() {
        let error = #expect(throws: TestSupportError.self) {
            try ProcessRunner.run(["/nonexistent/tandem-nothing"])
        }
        #expect(error?.description.contains("cannot run /nonexistent/tandem-nothing") == true, "\(String(describing: error))")
    }
}
