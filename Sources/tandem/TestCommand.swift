import Foundation
import TandemModel
import TandemOutputs
import TandemService
import TandemSession
import TandemSuites

/// `tandem test [PATH…]`: every suite under the paths, in parallel; one line a case, the
/// `check` diff under a failure, a closing `N passed, N failed in T s`; JUnit and HTML reports;
/// golden files written with `--update`; a stable shard with `--shard K/N`.
/// Exit 1 when a case fails, 2 when something could not run (bad input).
enum TestCommand {
    static func run(_ args: Arguments) throws(CLIError) -> Int32 {
        try args.oneStandardInput()
        let paths = try self.paths(args.positional)
        let jobs = try self.jobs(args.options["--jobs"])
        let shard: Shard?
        do { shard = try args.options["--shard"].map(Shard.parse) } catch { throw .invalid(error.description) }
        let filter = try self.filter(args.options["--filter"])
        let junit = args.options["--junit"]
        let html = args.options["--html"]
        for target in [junit, html.map { SuitePath.join($0, "index.html") }].compactMap({ $0 }) { try canWrite(target) }

        let store = ProfileStore()
        try ReplayInputs.checkBrailleTables()
        var plan: TestPlan
        do { plan = try SuiteFinder(profileExists: store.exists).plan(paths) } catch { throw .input(error) }
        for w in plan.warnings { printErr("tandem: warning: \(w)") }
        if plan.suites.isEmpty && plan.problems.isEmpty {
            throw .invalid("no suites under \(paths.joined(separator: " ")) (a suite is a NAME.catalog.json beside its NAME.scenario files; see Docs/ci.md)")
        }
        if let filter { plan = plan.keeping { $0.contains(filter) } }
        if let shard { plan = plan.keeping(shard.contains) }

        var runner = SuiteRunner(jobs: jobs, profiles: store, makeTranslator: ReplayInputs.translator)
        runner.update = args.flags.contains("--update")
        runner.keepTranscripts = html != nil
        let summary = runner.run(plan) { r in print(caseLines(r)) }

        let written = summary.written
        if !written.isEmpty {
            print("\(written.count) golden file\(written.count == 1 ? "" : "s") written:")
            for w in written {
                switch w {
                case .recorded(let g): print("  recorded \(g)")
                case .updated(let g, let n): print("  updated  \(g) (\(n) changed line\(n == 1 ? "" : "s"))")
                }
            }
        }
        print(summary.closingLine + (shard.map { " (shard \($0))" } ?? ""))

        var notes = ["tandem test " + CommandLine.arguments.dropFirst(2).joined(separator: " ")]
        if let shard { notes.append("Shard \(shard) of the suite.") }
        do {
            if let junit { try AtomicFile.write(JUnitReport.xml(summary), to: junit) }
            if let html { try AtomicFile.write(HTMLReport.html(summary, notes: notes), to: SuitePath.join(html, "index.html")) }
        } catch {
            throw .invalid(error.description)
        }
        if summary.errors > 0 { return 2 }
        return summary.failed > 0 ? 1 : 0
    }

    /// The lines printed for one case: a status word, the name, the time; what failed, with
    /// the diff `tandem check` prints, indented under it.
    static func caseLines(_ r: CaseResult) -> String {
        let ms = "(\(Int(r.milliseconds.rounded())) ms)"
        switch r.outcome {
        case .passed:
            var line = "ok     \(r.name) \(ms)"
            switch r.written {
            case .recorded(let g)?: line += " — recorded \(g)"
            case .updated(let g, _)?: line += " — updated \(g)"
            case nil: break
            }
            return line
        case .failed(let failures):
            var lines = ["FAIL   \(r.name) \(ms)"]
            for f in failures {
                lines.append("       " + f.summary(scenario: r.file))
                if let d = f.details { lines += d.split(separator: "\n").map { "       " + $0 } }
            }
            return lines.joined(separator: "\n")
        case .error(let d):
            return "ERROR  \(r.name)\n       \(d)"
        }
    }

    /// The positional paths; `-` is a list of paths on standard input, one a line; none is `.`.
    static func paths(_ positional: [String]) throws(CLIError) -> [String] {
        var out: [String] = []
        for p in positional {
            if p == "-" {
                let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                out += text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            } else {
                out.append(p)
            }
        }
        if positional.isEmpty { return ["."] }
        if out.isEmpty { throw .invalid("no paths on standard input") }
        return out
    }

    static func jobs(_ value: String?) throws(CLIError) -> Int {
        guard let value else { return max(1, ProcessInfo.processInfo.activeProcessorCount) }
        guard let n = Int(value), (1...1024).contains(n) else { throw .invalid("-j takes a number of threads (1…1024), not \"\(value)\"") }
        return n
    }

    static func filter(_ pattern: String?) throws(CLIError) -> Regex<AnyRegexOutput>? {
        guard let pattern else { return nil }
        do { return try Regex(pattern) } catch { throw .invalid("--filter \"\(pattern)\" is not a regular expression: \(error)") }
    }

    /// A report's folder must exist or be creatable before minutes of running, not after.
    static func canWrite(_ path: String) throws(CLIError) {
        let folder = SuitePath.folder(of: path)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw .invalid("\(path): \(folder) is not a folder") }
        } else {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw .invalid("\(path): cannot create the folder \(folder)")
            }
        }
        guard access(folder, W_OK) == 0 else { throw .invalid("\(path): cannot write in \(folder)") }
    }
}
