import Foundation
import TandemModel
import TandemOutputs
import TandemService
import TandemSession
import TandemVocabulary

enum ReplayCommand {
    static func run(_ args: Arguments) throws(CLIError) -> Int32 {
        if let recording = args.options["--session"] { return try runSession(recording, args) }
        let p = try args.exactly(2, "CATALOG SCENARIO")
        let inputs = try ReplayInputs(catalogPath: p[0], scenarioPath: p[1], profileName: args.options["--profile"])
        if args.options["--speech"] != nil || args.options["--braille"] != nil {
            return try runLive(inputs, args)
        }
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

extension ReplayCommand {
    /// The same scenario through a real speech-dispatcher and/or BRLTTY, on the real clock.
    static func runLive(_ inputs: ReplayInputs, _ args: Arguments) throws(CLIError) -> Int32 {
        let r = inputs.replay
        var outputs: [any LiveOutput] = []
        if let address = args.options["--speech"] {
            outputs.append(SpeechDispatcherOutput(address: address, voice: r.profile.voiceSettings))
        }
        if let host = args.options["--braille"] {
            outputs.append(BrlAPIOutput(host: host, auth: ProcessInfo.processInfo.environment["BRLAPI_AUTH"], keyMap: r.profile.keyMap))
        }
        let live = LiveReplay(catalog: r.catalog, scenario: r.scenario, profile: r.profile, profiles: r.profiles,
                              makeTranslator: r.makeTranslator)
        let path = args.options["--out"] ?? args.options["--transcript"]
        let handle: FileHandle
        if let path {
            guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else {
                throw .input(Diagnostic(file: path, line: nil, path: "", message: "cannot write the file"))
            }
            handle = h
        } else {
            handle = .standardOutput
        }
        let sink = TranscriptSink(handle: handle)
        let failures: [Diagnostic]
        do { failures = try live.run(transcript: sink, outputs: outputs) } catch { throw .input(error) }
        sink.flush()
        for f in failures { printErr("tandem: error: \(f)") }
        return failures.isEmpty ? 0 : 1
    }
}

/// Collects transcript lines in memory.
final class LineSink: OutputSink, @unchecked Sendable {  // one replay, on one thread, fills it; read after the replay returns
    private(set) var lines: [String] = []
    func emit(_ record: Record, at time: Int) {
        lines.append(Transcript.line(for: record, at: time).json)
    }
}

enum CheckCommand {
    static func run(_ args: Arguments) throws(CLIError) -> Int32 {
        // A recorded serve session kept as a test: `check NAME.session.record GOLDEN`.
        let recording = args.positional.count == 2 && args.positional[0].hasSuffix(SessionReplay.recordingSuffix)
        let p = recording ? try args.exactly(2, "RECORDING GOLDEN") : try args.exactly(3, "CATALOG SCENARIO GOLDEN")
        let sink = LineSink()
        let result: Replay.Result
        if recording {
            guard args.options["--profile"] == nil else { throw .usage("a recording replays in the profile it was recorded in: leave out --profile") }
            try ReplayInputs.checkBrailleTables()
            do { result = try SessionReplay.load(p[0], profiles: ProfileStore(), makeTranslator: ReplayInputs.translator).run(sink: sink) } catch { throw .input(error) }
        } else {
            let inputs = try ReplayInputs(catalogPath: p[0], scenarioPath: p[1], profileName: args.options["--profile"])
            do { result = try inputs.replay.run(sink: sink) } catch { throw .input(error) }
        }
        let goldenArgument = p[p.count - 1]
        let golden = try InputFile.text(goldenArgument)
        var expected = golden.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if expected.last == "" { expected.removeLast() }
        let changes = TranscriptDiff.changes(expected: expected, got: sink.lines)
        for f in result.failures { printErr("tandem: error: \(f)") }
        if changes.isEmpty {
            print("\(InputFile.name(goldenArgument)): ok (\(sink.lines.count) lines)")
            return result.failures.isEmpty ? 0 : 1
        }
        printErr("tandem: \(InputFile.name(goldenArgument)): the transcript differs from the golden file (\(changes.count) changed line\(changes.count == 1 ? "" : "s")):")
        printErr(TranscriptDiff.render(changes))
        return 1
    }
}

extension ReplayCommand {
    /// `tandem replay --session FILE`: a `tandem serve --record` recording, headless.
    static func runSession(_ path: String, _ args: Arguments) throws(CLIError) -> Int32 {
        guard args.positional.isEmpty else { throw .usage("--session takes no catalog or scenario") }
        try ReplayInputs.checkBrailleTables()
        let replay: SessionReplay
        do { replay = try SessionReplay.load(path, profiles: ProfileStore(), makeTranslator: ReplayInputs.translator) } catch { throw .input(error) }
        let out = args.options["--out"]
        let tmp = out.map { $0 + ".tmp-\(getpid())" }
        let handle: FileHandle
        if let tmp {
            guard FileManager.default.createFile(atPath: tmp, contents: nil), let h = FileHandle(forWritingAtPath: tmp) else {
                throw .input(Diagnostic(file: out!, line: nil, path: "", message: "cannot write the file"))
            }
            handle = h
        } else {
            handle = .standardOutput
        }
        let sink = TranscriptSink(handle: handle)
        do {
            _ = try replay.run(sink: sink)
        } catch {
            if let tmp { try? handle.close(); unlink(tmp) }
            throw .input(error)
        }
        sink.flush()
        if let tmp, let out {
            try? handle.close()
            guard rename(tmp, out) == 0 else {
                unlink(tmp)
                throw .input(Diagnostic(file: out, line: nil, path: "", message: "cannot write the file"))
            }
        }
        return 0
    }
}
