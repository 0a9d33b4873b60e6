import Foundation
import TandemProcess
#if canImport(Glibc)
import Glibc
#endif

/// An app case's app (Docs/ci.md#apps): its command started in a process group of its own,
/// with the private service's socket in its environment, its output kept in a file; whether it
/// is still running, and whether it is **idle**: every thread of every process of its group
/// blocked waiting for input (a read, a poll, a futex), none running or sleeping on a timer.
final class AppProcess: @unchecked Sendable {  // used by the one thread that runs its case
    let pid: pid_t
    let logPath: String
    private var status: Int32?

    /// Starts `command` in `folder` with `environment` added to this process's; standard input
    /// is /dev/null, standard output and error go to `logPath`.
    init(command: [String], folder: String, environment: [String: String], logPath: String) throws(AppProcessError) {
        self.logPath = logPath
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        // A group of its own: the app's children are the app too, and are stopped with it.
        do {
            pid = try ProcessRunner.spawn(ProcessRunner.command(command, in: folder), environment: env,
                                          output: .file(logPath, append: false), ownProcessGroup: true)
        } catch {
            throw AppProcessError(message: "cannot start \(error.program): \(error.reason)")
        }
    }

    /// The exit status once the app has ended (128 + N for a signal N), nil while it runs.
    var exitStatus: Int32? {
        if let status { return status }
        var raw: Int32 = 0
        let done = waitpid(pid, &raw, WNOHANG)
        guard done == pid else { return nil }
        status = ProcessRunner.status(fromWait: raw)
        return status
    }

    /// Every thread of the app's process group waits for input: blocked in a system call that
    /// waits on a file descriptor, a futex or a child (`idleCalls`), none running, in disk
    /// sleep or sleeping on a timer (`nanosleep`: the app means to do more when it wakes).
    /// Read from /proc (`/proc/PID/task/TID/syscall`); where the system call cannot be read, a
    /// sleeping thread counts as waiting.
    ///
    /// The threads are read one after another, so one pass alone can see each of two threads
    /// waiting at a different moment while one of them always ran (a thread handing work to
    /// another and then waiting). So the group is read twice, and is idle only when every
    /// thread waited in both passes and ran no time slice between them (`schedstat`): then all
    /// of them waited at once, from the last read of the first pass to the first of the second.
    var isIdle: Bool {
        guard let first = waitingThreads(), let second = waitingThreads() else { return false }
        return first == second
    }

    /// Each thread of the group with the number of time slices it has run, when every one waits
    /// for input; nil when one does not.
    private func waitingThreads() -> [Int32: UInt64]? {
        var threads: [Int32: UInt64] = [:]
        for member in groupMembers() {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(member)/task")) ?? []
            for task in tasks {
                let base = "/proc/\(member)/task/\(task)"
                guard let tid = Int32(task), let state = Self.stat(base + "/stat")?.state else { continue }  // gone meanwhile
                if state == "Z" || state == "X" { continue }
                if state != "S" { return nil }
                if let call = Self.read(base + "/syscall") {
                    let number = call.split(separator: " ").first.flatMap { Int($0) }
                    guard let number, Self.idleCalls.contains(number) else { return nil }
                }
                // The third field: how many times the thread was put on a CPU (0 where unreadable).
                let slices = Self.read(base + "/schedstat").flatMap { $0.split(separator: " ").dropFirst(2).first }
                threads[tid] = slices.flatMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
            }
        }
        return threads
    }

    /// The processes of the app's group (its own pid is the group's id), zombies included.
    private func groupMembers() -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var out: [Int32] = []
        for e in entries {
            guard let p = Int32(e), let s = Self.stat("/proc/\(e)/stat"), s.group == pid else { continue }
            if s.state == "Z" { continue }
            out.append(p)
        }
        return out
    }

    /// Ends the app: SIGTERM to its group, SIGKILL after `grace` seconds.
    func stop(grace: Double = 2) {
        if exitStatus == nil {
            kill(-pid, SIGTERM)
            let end = Date(timeIntervalSinceNow: grace)
            while exitStatus == nil && Date() < end { usleep(2_000) }
        }
        kill(-pid, SIGKILL)  // what is left of the group
        if exitStatus == nil {
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            status = ProcessRunner.status(fromWait: raw)
        }
    }

    /// The last `count` lines the app wrote to its standard output and error.
    func lastOutput(lines count: Int = 6) -> [String] {
        guard let data = FileManager.default.contents(atPath: logPath) else { return [] }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        return Array(lines.suffix(count))
    }

    /// The state letter and process group of a `stat` file.
    private static func stat(_ path: String) -> (state: Character, group: Int32)? {
        guard let text = read(path), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 3, let state = fields[0].first, let group = Int32(fields[2]) else { return nil }
        return (state, group)
    }

    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n], as: UTF8.self)
    }

    /// System calls that wait for input from outside the thread: reading, polling, accepting,
    /// a futex (another thread's hand-over), waiting for a child or a signal. Not `nanosleep`
    /// nor `clock_nanosleep`: an app sleeping on a timer is not done.
    static let idleCalls: Set<Int> = {
        #if arch(x86_64)
        // read, readv, poll, select, pause, accept, recvfrom, recvmsg, wait4, rt_sigtimedwait,
        // rt_sigsuspend, futex, epoll_wait, waitid, pselect6, ppoll, epoll_pwait, accept4,
        // recvmmsg, epoll_pwait2, futex_waitv
        [0, 19, 7, 23, 34, 43, 45, 47, 61, 128, 130, 202, 232, 247, 270, 271, 281, 288, 299, 441, 449]
        #elseif arch(arm64)
        // epoll_pwait, read, readv, pselect6, ppoll, waitid, futex, rt_sigsuspend,
        // rt_sigtimedwait, accept, recvfrom, recvmsg, accept4, recvmmsg, wait4, epoll_pwait2, futex_waitv
        [22, 63, 65, 72, 73, 95, 98, 133, 137, 202, 207, 212, 242, 243, 260, 441, 449]
        #else
        []
        #endif
    }()
}

struct AppProcessError: Error {
    var message: String
}
