import Foundation
import Glibc

/// `tandem serve --realtime`: the service's threads scheduled ahead of ordinary programs
/// (SCHED_FIFO at a low real-time priority), so a key's speech does not wait for a CPU that an
/// app flooding updates, a build or a load generator keeps busy (Docs/server.md#real-time).
enum RealtimeScheduling {
    /// The real-time priority asked for: the lowest, above every ordinary program, below what
    /// audio servers and the kernel's own threads use.
    static let priority: Int32 = 1
    /// Puts every thread the process has now in SCHED_FIFO at `priority` (each thread is
    /// scheduled on its own, and threads started through Foundation do not inherit their
    /// starter's policy: so this comes once the session's thread and the outputs' workers
    /// run). A thread started after this inherits the policy from the thread that starts it
    /// (a libdispatch worker, a braille call's deadline thread): without
    /// `SCHED_RESET_ON_FORK`, which would make every later thread ordinary, as it did; the
    /// service starts no program that could inherit it. Nil when done, else the system's
    /// reason: it needs CAP_SYS_NICE or an RLIMIT_RTPRIO of at least `priority`.
    static func enter() -> String? {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var param = sched_param(sched_priority: priority)
        for tid in tasks.compactMap({ pid_t($0) }) {
            guard sched_setscheduler(tid, Int32(SCHED_FIFO), &param) != 0 else { continue }
            // A thread that ended since the folder was read is no failure.
            if errno == ESRCH { continue }
            return String(cString: strerror(errno))
        }
        return nil
    }
}
