import Foundation
import Glibc
import Testing
import TandemTestSupport

/// `tandem serve --realtime`: the service's threads ahead of ordinary programs when the system
/// allows it, and a plain warning when it does not (Docs/server.md#real-time).
@Suite("tandem serve --realtime")
struct RealtimeServeTests {
    /// Each thread's scheduling policy (`/proc/PID/task/TID/stat`, field 41: 0 ordinary, 1 SCHED_FIFO).
    static func policies(of pid: Int32) -> [Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { tid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After the command name in parentheses, fields start at 3 (the state).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 38 ? Int(fields[38]) : nil
        }
    }

    @Test("allowed (root, as in CI), every thread of the service runs SCHED_FIFO and it says so", .enabled(if: geteuid() == 0))
    func realtimeWhenAllowed() throws {
        let serve = try ServeProcess(extra: ["--realtime"])
        defer { serve.stop() }
        #expect(serve.standardError.contains("real-time scheduling: SCHED_FIFO, priority 1"))
        let policies = Self.policies(of: serve.pid)
        #expect(policies.count >= 2, "the session's thread and the outputs' workers: \(policies)")
        #expect(policies.allSatisfy { $0 == 1 }, "\(policies)")
        // A thread the service starts later (a libdispatch worker, a braille call's deadline
        // thread) inherits the policy only when SCHED_RESET_ON_FORK is not set: with it, such a
        // thread ran ordinary (seen as [1, 1, 1, 1, 0] in a loaded full run).
        let asked = Self.threads(of: serve.pid).map { sched_getscheduler($0) }
        #expect(!asked.isEmpty && asked.allSatisfy { $0 == Int32(SCHED_FIFO) }, "\(asked)")
    }

    /// The process's threads by id.
    static func threads(of pid: Int32) -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).compactMap { pid_t($0) }
    }

    @Test("refused (no CAP_SYS_NICE, no rtprio limit), it warns and serves at normal priority", .enabled(if: geteuid() == 0))
    func normalWhenRefused() throws {
        let serve = try ServeProcess(extra: ["--realtime"], launcher: ["/usr/bin/setpriv", "--bounding-set=-sys_nice"])
        defer { serve.stop() }
        #expect(serve.standardError.contains("no real-time scheduling (Operation not permitted); serving at normal priority"))
        let policies = Self.policies(of: serve.pid)
        #expect(!policies.isEmpty && policies.allSatisfy { $0 == 0 }, "\(policies)")
        let client = try serve.client()
        #expect(client.send(#"{"type":"hello","v":1,"role":"controller"}"#))
        #expect(client.readLine()?.contains(#""type":"welcome""#) == true, "it serves")
    }

    @Test("without the flag the service is an ordinary program")
    func ordinaryByDefault() throws {
        let serve = try ServeProcess()
        defer { serve.stop() }
        #expect(!serve.standardError.contains("real-time"))
        #expect(Self.policies(of: serve.pid).allSatisfy { $0 == 0 })
    }
}
