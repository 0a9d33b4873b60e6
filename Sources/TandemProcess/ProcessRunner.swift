import CLinux
import Foundation
import Glibc

/// What a finished command left: its exit status and what it wrote.
public struct ProcessResult: Sendable {
    /// The exit status; 128 + the signal's number when a signal ended it.
    public var status: Int32
    /// What it wrote, when its output was `.captured` (empty when it went to a log).
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status; self.stdout = stdout; self.stderr = stderr
    }

    /// Both streams, standard output first, for a failure message.
    public var output: String { stdout + stderr }
}

/// A command that could not be started, could not be waited for, or outlived its timeout.
/// The message names the command.
public struct ProcessFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Runs a command and waits for it: the one way the tests and `tandem-bench` start a process
/// (the `tandem` binary, tmux, the scripts that start private daemons).
///
/// - posix_spawn and waitpid, not Foundation's `Process`: its `waitUntilExit` can miss the exit
///   of a child whose own children live on (a script that starts a daemon, a tmux client that
///   forks its server) and wait forever.
/// - Output goes to files, not pipes, so a daemon that inherits them keeps no pipe open; no
///   other descriptor of the caller is inherited.
/// - The caller's threads may block signals and a child inherits the mask: the command starts
///   with none blocked and every signal at its default action, or a daemon it starts would
///   never see a SIGTERM.
/// - A command still running after `timeout` is killed (SIGKILL), and the call throws.
public enum ProcessRunner {
    /// Where the command's standard output and error go.
    public enum Output: Sendable {
        /// Into files of a scratch folder, read back into the result.
        case captured
        /// Both appended to the file at this path (a log kept across runs).
        case appended(toFile: String)
    }

    /// Runs `arguments` (the first an absolute path to an executable) with `environment`
    /// (the whole environment, this process's when not given) in `directory`, reading `input`
    /// on standard input (nothing when not given).
    @discardableResult
    public static func run(_ arguments: [String],
                           environment: [String: String] = ProcessInfo.processInfo.environment,
                           directory: String? = nil,
                           input: Data? = nil,
                           output: Output = .captured,
                           timeout: Duration = .seconds(60)) throws -> ProcessResult {
        precondition(!arguments.isEmpty, "no command to run")
        // Swift's Glibc does not bring in posix_spawn_file_actions_addchdir_np: env(1) changes
        // folder, then execs the command in its own place.
        let arguments = directory.map { ["/usr/bin/env", "-C", $0] + arguments } ?? arguments
        let scratch = try temporaryDirectory(prefix: "tandem-process-")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let outPath = scratch + "/stdout", errPath = scratch + "/stderr", inPath = scratch + "/stdin"
        // Standard input from a file too: written whole before the start, it cannot block.
        if let input { try input.write(to: URL(fileURLWithPath: inPath)) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input == nil ? "/dev/null" : inPath, O_RDONLY, 0)
        switch output {
        case .captured:
            posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        case .appended(let log):
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        // Nothing else of ours reaches the child: a daemon or a tmux server it leaves behind
        // would keep it open (a socket another test waits to see closed, a lock file's lock).
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)

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
        guard spawned == 0 else {
            throw ProcessFailure("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        func written() -> (String, String) {
            guard case .captured = output else { return ("", "") }
            return ((try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                    (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
        }

        var status: Int32 = 0
        let end = ContinuousClock.now + timeout
        var pause: useconds_t = 500
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0 && errno != EINTR { throw ProcessFailure("waitpid for \(arguments[0]) failed: errno \(errno)") }
            if ContinuousClock.now >= end {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                let partial: String
                switch output {
                case .captured:
                    let (stdout, stderr) = written()
                    partial = "Output: " + stdout + stderr
                case .appended(let log): partial = "Output in \(log)."
                }
                throw ProcessFailure("\(arguments.joined(separator: " ")) did not finish within \(timeout); killed. \(partial)")
            }
            usleep(pause)
            pause = min(pause * 2, 10_000)
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros: exited normally when the low 7 bits are 0.
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let (stdout, stderr) = written()
        return ProcessResult(status: code, stdout: stdout, stderr: stderr)
    }
}

/// A new, empty folder under /tmp whose name starts with `prefix` (mkdtemp: no two alike).
public func temporaryDirectory(prefix: String) throws -> String {
    var template = Array("/tmp/\(prefix)XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw ProcessFailure("cannot make a folder /tmp/\(prefix)…: errno \(errno)") }
    return String(cString: made)
}
