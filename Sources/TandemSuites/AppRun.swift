import Dispatch
import Foundation
import Synchronization
import TandemModel
import TandemOutputs
import TandemPresentation
import TandemServer
import TandemService
import TandemSession
import TandemVocabulary

/// One app case run (Docs/ci.md#apps): a private `tandem serve`-like host — the service, a
/// `LiveRunner` on a `SteppedClock`, a control socket in a private folder — the app started
/// against it, driven by the case's steps.
///
/// **When the clock moves.** Never by itself: only a `wait N` step (and, after the last step,
/// the end of the run) moves it, to each timer due on the way (a speech end, a loading step, a
/// message's end) and then to the wait's end. Before the next step and after each move, the
/// run waits until the app is **quiet**: the service has handled everything sent so far (two
/// barriers through the runner's inbox, `LiveInput.mark`, the second after the socket was read
/// again), every thread of the app waits for input (`AppProcess.isIdle`), and no line came from
/// it meanwhile. Everything the app sends in answer to a step thus lands at the step's time,
/// so two runs give the same transcript, byte for byte. Each wait for quiet has `timeout` real
/// seconds; an app that exits, never connects or stays busy fails the case with a sentence.
struct AppRun {
    var app: AppCase
    var file: String
    var profile: Profile
    var profiles: ProfileStore
    var makeTranslator: @Sendable (Profile) -> any BrailleTranslator
    var settleLimit: Milliseconds = 24 * 3_600_000

    struct Result {
        var failures: [Diagnostic] = []
        var appFailure: Diagnostic?
        var cutShort = false
    }

    /// Why the run stopped early: a sentence about the app, at a line of the case file.
    struct Stop: Error { var diagnostic: Diagnostic }

    func run(sink: any OutputSink) throws(Diagnostic) -> Result {
        let folder: String
        do { folder = try Self.privateFolder() } catch {
            throw Diagnostic(file: file, line: nil, path: "", message: "cannot make a private folder for the service: \(error.message)")
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let socketPath = folder + "/tandem/control.sock"

        let (session, service) = Service.start(profile: profile, catalog: nil, options: Service.Options(), sink: sink,
                                               timing: .virtual, makeTranslator: makeTranslator)
        let clock = SteppedClock()
        let runner = LiveRunner(session: session, keyMap: profile.keyMap, clock: clock)
        runner.service = service
        let counts = Counts()
        let hostReady = DispatchSemaphore(value: 0)
        let runnerDone = DispatchSemaphore(value: 0)
        let hostError = Mutex<String?>(nil)
        // The host serves on the runner's thread, which must be the one that starts it.
        let thread = Thread {
            let host: ServeHost
            do {
                host = try ServeHost(runner: runner, options: ControlSocket.Options(path: socketPath), note: { note in
                    if case .connected = note { counts.connected.add(1, ordering: .sequentiallyConsistent) }
                })
            } catch {
                hostError.withLock { $0 = "\(error)" }
                hostReady.signal()
                runnerDone.signal()
                return
            }
            let handled = runner.hooks.lineHandled
            runner.hooks.lineHandled = { id in
                handled?(id)
                counts.lines.add(1, ordering: .sequentiallyConsistent)
            }
            hostReady.signal()
            runner.run()
            host.finish()
            runnerDone.signal()
        }
        thread.start()
        hostReady.wait()
        if let why = hostError.withLock({ $0 }) {
            runnerDone.wait()
            throw Diagnostic(file: file, line: nil, path: "", message: "cannot start the private service: \(why)")
        }

        var result = Result()
        let process: AppProcess
        do {
            process = try AppProcess(command: app.command, folder: SuitePath.folder(of: file),
                                     environment: ["XDG_RUNTIME_DIR": folder], logPath: folder + "/app.log")
        } catch {
            runner.send(.quit)
            runnerDone.wait()
            throw Diagnostic(file: file, line: nil, path: "command", message: "cannot start the app \(app.commandLine): \(error.message)")
        }
        let driver = Driver(app: app, file: file, process: process, runner: runner, clock: clock, counts: counts)
        do {
            var snapshot = try driver.connect()
            var time: Milliseconds = 0
            for line in app.scenario.lines {
                let step = driver.label(line)
                switch line.step {
                case .command(let c):
                    runner.send(.command(c))
                    snapshot = try driver.settle(after: step, line: line.number)
                case .wait(let ms):
                    let target = time + ms
                    snapshot = try driver.move(to: target, from: snapshot, after: step, line: line.number)
                    time = target
                case .expect(let text):
                    runner.send(.expect(file: file, line: line.number, text: text))
                    snapshot = try driver.barrier(line: line.number)
                case .expectAction(let name):
                    runner.send(.expectAction(file: file, line: line.number, name: name))
                    snapshot = try driver.barrier(line: line.number)
                case .profile(let name):
                    let p: Profile
                    do { p = try profiles.load(name).0 } catch { throw Stop(diagnostic: error) }
                    runner.send(.profile(p))
                    snapshot = try driver.settle(after: step, line: line.number)
                case .screen, .post:
                    break  // refused when the case file is read: the app shows its own screens
                }
            }
            // The end: time passes until nothing is scheduled or said any more.
            let end = time + settleLimit
            while !snapshot.isQuiet, let due = snapshot.nextDeadline, due > snapshot.time {
                if due > end { result.cutShort = true; break }
                snapshot = try driver.move(to: due, from: snapshot, after: "the last step", line: app.scenario.lines.last?.number)
            }
            if let status = process.exitStatus {
                throw Stop(diagnostic: driver.exited(status, when: "before the steps ended", line: app.scenario.lines.last?.number))
            }
        } catch let stop as Stop {
            result.appFailure = stop.diagnostic
        } catch {
            result.appFailure = Diagnostic(file: file, line: nil, path: "", message: "\(error)")
        }
        runner.send(.quit)
        runnerDone.wait()
        process.stop()
        result.failures = runner.failures
        return result
    }

    /// A new folder under /tmp, only the user's, with its `tandem/` subfolder (the socket's
    /// place as the clients find it from `XDG_RUNTIME_DIR`).
    static func privateFolder() throws(AppProcessError) -> String {
        var template = Array("/tmp/tandem-app-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw AppProcessError(message: String(cString: strerror(errno))) }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard mkdir(path + "/tandem", 0o700) == 0 else { throw AppProcessError(message: String(cString: strerror(errno))) }
        return path
    }
}

/// What the host counts for the driver: connections accepted, client lines handled.
final class Counts: Sendable {
    let connected = Atomic<Int>(0)
    let lines = Atomic<Int>(0)
}

/// Drives one app case: steps in, quiet waited for, the clock moved.
struct Driver {
    let app: AppCase
    let file: String
    let process: AppProcess
    let runner: LiveRunner
    let clock: SteppedClock
    let counts: Counts

    var timeout: Duration { .milliseconds(Int64((app.timeout * 1000).rounded())) }
    var seconds: String {
        app.timeout == app.timeout.rounded() ? "\(Int(app.timeout)) s" : "\(app.timeout) s"
    }

    /// `` `next` at line 7 ``, for messages.
    func label(_ line: Scenario.Line) -> String {
        let text = line.number - 1 < app.source.count ? app.source[line.number - 1] : ""
        return "`\(text)` at line \(line.number)"
    }

    /// Waits for the app's connection, then for it to go quiet.
    func connect() throws(AppRun.Stop) -> SessionSnapshot {
        let end = ContinuousClock.now + timeout
        while counts.connected.load(ordering: .sequentiallyConsistent) == 0 {
            if let status = process.exitStatus {
                throw AppRun.Stop(diagnostic: exited(status, when: "before it connected to the service", line: nil))
            }
            if ContinuousClock.now >= end {
                throw AppRun.Stop(diagnostic: fail(nil, "the app \(app.commandLine) did not connect to the service within \(seconds) (it finds the socket as $XDG_RUNTIME_DIR/tandem/control.sock; XDG_RUNTIME_DIR is set to a private folder)" + output()))
            }
            usleep(1_000)
        }
        return try settle(after: nil, line: nil)
    }

    /// Moves the clock to `target` through each timer due on the way, waiting for quiet after each move.
    func move(to target: Milliseconds, from snapshot: SessionSnapshot, after step: String, line: Int?) throws(AppRun.Stop) -> SessionSnapshot {
        var snapshot = snapshot
        while let due = snapshot.nextDeadline, due > snapshot.time, due < target {
            clock.move(to: due)
            snapshot = try settle(after: step, line: line)
        }
        clock.move(to: target)
        return try settle(after: step, line: line)
    }

    /// Waits until the app is quiet (`AppRun`): the service has handled everything, every thread
    /// of the app waits for input, and no line came from it meanwhile.
    func settle(after step: String?, line: Int?) throws(AppRun.Stop) -> SessionSnapshot {
        let end = ContinuousClock.now + timeout
        let when = step.map { "after \($0)" } ?? "after it connected"
        _ = try barrier(line: line, until: end)
        _ = try barrier(line: line, until: end)
        while true {
            let before = counts.lines.load(ordering: .sequentiallyConsistent)
            while !process.isIdle || process.exitStatus != nil {
                if let status = process.exitStatus { throw AppRun.Stop(diagnostic: exited(status, when: when, line: line)) }
                if ContinuousClock.now >= end {
                    throw AppRun.Stop(diagnostic: fail(line, "the app \(app.commandLine) was still busy \(seconds) \(when) (an app case's app must answer and go back to waiting for the service's next message; raise \"timeout\" for a slow one)" + output()))
                }
                usleep(500)
            }
            _ = try barrier(line: line, until: end)
            let snapshot = try barrier(line: line, until: end)
            if counts.lines.load(ordering: .sequentiallyConsistent) == before && process.isIdle && process.exitStatus == nil {
                return snapshot
            }
        }
    }

    /// Everything sent to the runner so far is handled, the replies written and the socket
    /// read once more; the session's state then.
    func barrier(line: Int?, until end: ContinuousClock.Instant? = nil) throws(AppRun.Stop) -> SessionSnapshot {
        let end = end ?? ContinuousClock.now + timeout
        let box = Mutex<SessionSnapshot?>(nil)
        let done = DispatchSemaphore(value: 0)
        runner.send(.mark { snapshot in
            box.withLock { $0 = snapshot }
            done.signal()
        })
        let left = end - ContinuousClock.now
        let nanos = max(0, left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000)
        guard done.wait(timeout: .now() + .nanoseconds(Int(nanos))) == .success, let snapshot = box.withLock({ $0 }) else {
            throw AppRun.Stop(diagnostic: fail(line, "the private service did not answer within \(seconds)"))
        }
        return snapshot
    }

    func exited(_ status: Int32, when: String, line: Int?) -> Diagnostic {
        fail(line, "the app \(app.commandLine) exited with status \(status) \(when)" + output())
    }

    func fail(_ line: Int?, _ message: String) -> Diagnostic {
        Diagnostic(file: file, line: line, path: "", message: message)
    }

    /// The app's last lines of output, for a message: ` — its last output: «…» «…»`.
    func output() -> String {
        let lines = process.lastOutput()
        guard !lines.isEmpty else { return "; it wrote nothing" }
        return "; its last output: " + lines.map { "«\($0)»" }.joined(separator: " ")
    }
}
