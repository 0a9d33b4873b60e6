import Foundation
import Testing
@testable import TandemSuites

/// When an app case takes its app as idle (`AppProcess.isIdle`): every thread waiting for input
/// (read twice, with no time slice run between the reads), and never a thread that runs.
@Suite("app process: idle means every thread waits at once")
struct AppProcessTests {
    /// `python3 -c script` started as an app case starts its app; stopped by the caller.
    static func start(_ script: String) throws -> (AppProcess, String) {
        let folder = try AppRun.privateFolder()
        let process = try AppProcess(command: ["python3", "-c", script], folder: folder, environment: [:], logPath: folder + "/app.log")
        return (process, folder)
    }

    /// Waits until the app runs `threads` threads (Python has started them), at most 20 s.
    static func waitForThreads(_ process: AppProcess, _ threads: Int) {
        let end = Date(timeIntervalSinceNow: 20)
        while Date() < end {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/task")) ?? []
            if tasks.count >= threads { usleep(200_000); return }
            usleep(10_000)
        }
    }

    @Test("two threads each blocked reading a pipe: idle")
    func blockedThreadsAreIdle() throws {
        let (process, folder) = try Self.start("""
            import os, threading
            r1, w1 = os.pipe(); r2, w2 = os.pipe()
            threading.Thread(target=lambda: os.read(r2, 1)).start()
            os.read(r1, 1)
            """)
        defer { process.stop(); try? FileManager.default.removeItem(atPath: folder) }
        Self.waitForThreads(process, 2)
        let end = Date(timeIntervalSinceNow: 20)
        var idle = false
        while !idle && Date() < end { idle = process.isIdle; if !idle { usleep(10_000) } }
        #expect(idle)
        #expect(process.exitStatus == nil)
    }

    @Test("a thread that spins is never idle")
    func spinningIsNotIdle() throws {
        let (process, folder) = try Self.start("while True: pass")
        defer { process.stop(); try? FileManager.default.removeItem(atPath: folder) }
        Self.waitForThreads(process, 1)
        var seen = 0
        for _ in 0..<200 where process.isIdle { seen += 1 }
        #expect(seen == 0)
    }
}
