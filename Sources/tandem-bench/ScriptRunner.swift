import Foundation
import Glibc
import TandemOutputs

/// Runs a service script and waits for it, as the tests' `ProcessRunner` does and for the same
/// reasons: posix_spawn and waitpid (Foundation's `Process` can miss the exit of a script
/// whose daemons live on, and a pipe they inherit never reaches its end), output into a file,
/// signals unblocked and at their defaults in the child, and a timeout.
enum ScriptRunner {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Runs `arguments` (an absolute path first) with `environment`; its output goes to
    /// `log` (appended). Throws when it fails or outlives `timeout` seconds (then it is killed).
    static func run(_ arguments: [String], environment: [String: String], log: String, timeout: Double = 60) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw Failure(description: "cannot run \(arguments[0]): \(String(cString: strerror(spawned)))") }

        var status: Int32 = 0
        let end = WorkerClock.now() + UInt64(timeout * 1e9)
        var pause: useconds_t = 500
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0 && errno != EINTR { throw Failure(description: "waitpid for \(arguments[0]) failed: errno \(errno)") }
            if WorkerClock.now() >= end {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                throw Failure(description: "\(arguments.joined(separator: " ")) did not finish within \(timeout) s; killed (output in \(log))")
            }
            usleep(pause)
            pause = min(pause * 2, 5_000)
        }
        // exited normally when the low 7 bits are 0 (WIFEXITED is a macro)
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        guard code == 0 else { throw Failure(description: "\(arguments.joined(separator: " ")) failed (\(code)); output in \(log)") }
    }
}
