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
        let changeList = args.positional.contains("-")
        let paths = try self.paths(args.positional)
        let jobs = try self.jobs(args.options["--jobs"])
        let shard: Shard?
        do { shard = try args.options["--shard"].map(Shard.parse) } catch { throw .invalid(error.description) }
        let filter = try self.filter(args.options["--filter"])
        let style = try diffStyle(args.options["--diff"])
        let junit = args.options["--junit"]
        let html = args.options["--html"]
        for target in [junit, html.map { SuitePath.join($0, "index.html") }].compactMap({ $0 }) { try canWrite(target) }

        let store = ProfileStore()
        try ReplayInputs.checkBrailleTables()
        var plan: TestPlan
        let finder = SuiteFinder(profileExists: store.exists)
        if changeList {
            plan = finder.plan(changed: paths)
        } else {
            do { plan = try finder.plan(paths) } catch { throw .input(error) }
        }
        for w in plan.warnings { printErr("tandem: warning: \(w)") }
        for f in plan.skippedCheckouts {
            printErr("tandem: note: skipped \(f): a checkout of its own (a submodule or clone); name it to test its suites")
        }
        for line in ChangeNotes.lines(plan.ignoredChanges) { printErr("tandem: note: \(line)") }
        if plan.cases.isEmpty && plan.problems.isEmpty {
            if changeList {
                // A pull request that touches no suite passes: there is nothing of it to test.
                print("nothing to test: none of the \(paths.count) changed path\(paths.count == 1 ? "" : "s") is a suite's file")
                try writeReports(RunSummary(results: [], seconds: 0), started: Date(), junit: junit, html: html, notes: [])
                return 0
            }
            throw .invalid("no suites under \(paths.joined(separator: " ")) (a suite is a NAME.catalog.json beside its NAME.scenario files, a NAME.session.record or a NAME.app.json; see Docs/ci.md)")
        }
        if let filter, let pattern = args.options["--filter"] {
            let before = plan.cases.count + plan.problems.count
            let example = plan.cases.first?.name ?? plan.problems.first?.name ?? ""
            plan = plan.keeping { $0.contains(filter) }
            if plan.cases.isEmpty && plan.problems.isEmpty && !changeList {
                // A run that tests nothing must not pass: the pattern is most likely wrong.
                throw .invalid("--filter \"\(pattern)\" matches none of the \(before) case\(before == 1 ? "" : "s") (a case's name looks like \"\(example)\")")
            }
        }
        if let shard { plan = plan.keeping(shard.contains) }

        var runner = SuiteRunner(jobs: jobs, profiles: store, makeTranslator: ReplayInputs.translator)
        runner.update = args.flags.contains("--update")
        runner.keepTranscripts = html != nil
        runner.keepPassingTranscripts = !args.flags.contains("--html-failures-only")
        let started = Date()
        let summary = runner.run(plan) { r in print(caseLines(r, style: style)) }

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
        let notPassed = summary.results.filter { !$0.passed }
        if !notPassed.isEmpty && summary.results.count > notPassed.count {
            // A long log ends with what needs looking at, not only with its counts.
            print("Not passed:")
            for r in notPassed { print("  \(r.isError ? "ERROR" : "FAIL ")  \(r.name)") }
        }
        print(summary.closingLine + (shard.map { " (shard \($0))" } ?? ""))

        var notes = ["tandem test " + CommandLine.arguments.dropFirst(2).joined(separator: " ")]
        if let shard { notes.append("Shard \(shard) of the suite.") }
        try writeReports(summary, started: started, junit: junit, html: html, notes: notes, failuresOnly: !runner.keepPassingTranscripts)
        if summary.errors > 0 { return 2 }
        return summary.failed > 0 ? 1 : 0
    }

    /// The JUnit and HTML reports, each written whole or not at all.
    static func writeReports(_ summary: RunSummary, started: Date, junit: String?, html: String?, notes: [String], failuresOnly: Bool = false) throws(CLIError) {
        do {
            if let junit {
                try AtomicFile.write(JUnitReport.xml(summary, timestamp: JUnitReport.timestamp(started), hostname: ProcessInfo.processInfo.hostName), to: junit)
            }
            if let html {
                try AtomicFile.write(HTMLReport.html(summary, notes: notes, failuresOnly: failuresOnly), to: SuitePath.join(html, "index.html"))
            }
        } catch {
            throw .invalid(error.description)
        }
    }

    /// The lines printed for one case: a status word, the name, the time; what failed, with
    /// the diff `tandem check` prints, indented under it.
    static func caseLines(_ r: CaseResult, style: DiffStyle = .words) -> String {
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
                if let d = f.details(style) { lines += d.split(separator: "\n").map { "       " + $0 } }
            }
            return lines.joined(separator: "\n")
        case .error(let d):
            return "ERROR  \(r.name)\n       \(d)"
        }
    }

    /// The positional paths; `-` is a list of changed paths on standard input, one a line (it may
    /// be empty); none is `.`.
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
        return out
    }

    static func diffStyle(_ value: String?) throws(CLIError) -> DiffStyle {
        guard let value else { return .words }
        guard let style = DiffStyle(rawValue: value) else {
            throw .invalid("--diff takes \(DiffStyle.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(value)\"")
        }
        return style
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
