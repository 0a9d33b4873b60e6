import CLinux
import Glibc

/// Starting a command without waiting for it: the posix_spawn set-up `run` and `tandem test`'s
/// app cases (TandemSuites' `AppProcess`) share, so the rules for what a child inherits are
/// written once.
extension ProcessRunner {
    /// Where a started command's standard output and error go.
    public enum Destination: Sendable {
        /// Standard output into one file and standard error into another, each made empty first.
        case files(stdout: String, stderr: String)
        /// Both into one file, in the order written: made empty first, or appended to.
        case file(String, append: Bool)
    }

    /// A command that could not be started: the program posix_spawn was given and its error.
    public struct SpawnFailure: Error, Sendable {
        public var program: String
        public var code: Int32
        /// The error in words (`No such file or directory`).
        public var reason: String { String(cString: strerror(code)) }
    }

    /// `arguments` run in `directory` (as they are when it is nil). Swift's Glibc does not bring
    /// in posix_spawn_file_actions_addchdir_np: env(1) changes folder, then looks the program up
    /// in `PATH` when it has no slash and execs it in its own place.
    public static func command(_ arguments: [String], in directory: String?) -> [String] {
        directory.map { ["/usr/bin/env", "-C", $0] + arguments } ?? arguments
    }

    /// Starts `arguments` (the first an absolute path to an executable) with exactly
    /// `environment`, standard input read from the file at `input`, and returns its pid; the
    /// caller waits for it (`waitpid`, then `status(fromWait:)`).
    ///
    /// - No descriptor of the caller but the three standard ones reaches the child: a daemon or
    ///   a server it leaves behind would keep it open (a socket another test waits to see
    ///   closed, a lock file's lock).
    /// - The caller's threads may block signals and a child inherits the mask: the command
    ///   starts with none blocked and every signal at its default action, or a daemon it starts
    ///   would never see a SIGTERM.
    /// - `ownProcessGroup`: the command leads a new process group (its pid is the group's id),
    ///   so its children can be signalled with it (`kill(-pid, …)`).
    public static func spawn(_ arguments: [String], environment: [String: String], input: String = "/dev/null",
                             output: Destination, ownProcessGroup: Bool = false) throws(SpawnFailure) -> pid_t {
        precondition(!arguments.isEmpty, "no command to start")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        switch output {
        case .files(let stdout, let stderr):
            posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        case .file(let path, let append):
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw SpawnFailure(program: arguments[0], code: spawned) }
        return pid
    }

    /// The exit status in a `waitpid` status: the command's own, or 128 + the signal's number
    /// when a signal ended it. (WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not
    /// import: it exited normally when the low 7 bits are 0.)
    public static func status(fromWait raw: Int32) -> Int32 {
        raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    }
}
