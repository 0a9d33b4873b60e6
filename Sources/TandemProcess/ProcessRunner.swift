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
/// (the `tandem` binary, tmux, the scripts that start private daemons). It starts the command
/// with `spawn` (ProcessRunner+Spawn.swift), as `tandem test` starts an app case's app.
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
        let arguments = command(arguments, in: directory)
        let scratch = try temporaryDirectory(prefix: "tandem-process-")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let outPath = scratch + "/stdout", errPath = scratch + "/stderr", inPath = scratch + "/stdin"
        // Standard input from a file too: written whole before the start, it cannot block.
        if let input { try input.write(to: URL(fileURLWithPath: inPath)) }

        let destination: Destination
        switch output {
        case .captured: destination = .files(stdout: outPath, stderr: errPath)
        case .appended(let log): destination = .file(log, append: true)
        }
        let pid: pid_t
        do { pid = try spawn(arguments, environment: environment, input: input == nil ? "/dev/null" : inPath, output: destination) } catch {
            throw ProcessFailure("cannot run \(error.program): \(error.reason)")
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
        let code = Self.status(fromWait: status)
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
