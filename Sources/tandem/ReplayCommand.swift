import Foundation
import TandemModel
import TandemOutputs
import TandemService

enum ReplayCommand {
    static func run(_ args: Arguments) throws(CLIError) -> Int32 {
        let p = try args.exactly(2, "CATALOG SCENARIO")
        if args.options["--speech"] != nil || args.options["--braille"] != nil {
            throw .unavailable("--speech and --braille (replay through real daemons) are not built yet; run without them for a headless replay")
        }
        let inputs = try ReplayInputs(catalogPath: p[0], scenarioPath: p[1], profileName: args.options["--profile"])
        let result: Replay.Result
        if let out = args.options["--out"] {
            // Written to a temporary file beside the target and renamed, so a failed run leaves
            // no partial transcript.
            let tmp = out + ".tmp-\(getpid())"
            guard FileManager.default.createFile(atPath: tmp, contents: nil), let handle = FileHandle(forWritingAtPath: tmp) else {
                throw .input(Diagnostic(file: out, line: nil, path: "", message: "cannot write the file"))
            }
            let sink = TranscriptSink(handle: handle)
            do {
                result = try inputs.replay.run(sink: sink)
            } catch {
                try? handle.close()
                unlink(tmp)
                throw .input(error)
            }
            sink.flush()
            try? handle.close()
            if rename(tmp, out) != 0 {
                unlink(tmp)
                throw .input(Diagnostic(file: out, line: nil, path: "", message: "cannot write the file"))
            }
        } else {
            let sink = TranscriptSink(handle: .standardOutput)
            do { result = try inputs.replay.run(sink: sink) } catch { throw .input(error) }
            sink.flush()
        }
        if result.cutShort { printErr("tandem: warning: output was still going after 24 h of virtual time; the run was cut short") }
        for f in result.failures { printErr("tandem: error: \(f)") }
        return result.failures.isEmpty ? 0 : 1
    }
}

/// Collects transcript lines in memory.
final class LineSink: OutputSink, @unchecked Sendable {
    private(set) var lines: [String] = []
    func emit(_ record: Record, at time: Int) {
        lines.append(Transcript.line(for: record, at: time).json)
    }
}

enum CheckCommand {
    static func run(_ args: Arguments) throws(CLIError) -> Int32 {
        let p = try args.exactly(3, "CATALOG SCENARIO GOLDEN")
        let inputs = try ReplayInputs(catalogPath: p[0], scenarioPath: p[1], profileName: args.options["--profile"])
        guard let data = FileManager.default.contents(atPath: p[2]), let golden = String(validating: data, as: UTF8.self) else {
            throw .input(Diagnostic(file: p[2], line: nil, path: "", message: "no such file, or not UTF-8"))
        }
        let sink = LineSink()
        let result: Replay.Result
        do { result = try inputs.replay.run(sink: sink) } catch { throw .input(error) }
        var expected = golden.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if expected.last == "" { expected.removeLast() }
        let changes = TranscriptDiff.changes(expected: expected, got: sink.lines)
        for f in result.failures { printErr("tandem: error: \(f)") }
        if changes.isEmpty {
            print("\(p[2]): ok (\(sink.lines.count) lines)")
            return result.failures.isEmpty ? 0 : 1
        }
        printErr("tandem: \(p[2]): the transcript differs from the golden file (\(changes.count) changed line\(changes.count == 1 ? "" : "s")):")
        printErr(TranscriptDiff.render(changes))
        return 1
    }
}
