import Dispatch
import Foundation
import TandemModel
import TandemOutputs
import TandemService
import TandemSession
import TandemVocabulary

/// `tandem run CATALOG`: the interactive session. Terminal keys and braille display keys drive
/// the navigator at once; speech goes to speech-dispatcher and braille to BRLTTY when they are
/// reachable; the policy runs on the real clock.
enum RunCommand {
    static func run(_ args: Arguments) throws(CLIError) -> Int32 {
        if args.options["--connect"] != nil { return try ConnectedRun.run(args) }
        let p = try args.exactly(1, "CATALOG")
        let catalogPath = p[0]
        // The terminal is standard input here, and the catalog is reloaded when its file changes.
        if catalogPath == "-" { throw .usage("run reads keys from standard input; give the catalog as a file") }
        var profile = try ReplayInputs.loadProfile(args.options["--profile"], from: ProfileStore())
        let catalog = try ReplayInputs.loadCatalog(catalogPath)
        try ReplayInputs.checkBrailleTables()
        if let address = args.options["--speech"] { profile.speechAddress = address }
        if let host = args.options["--braille"] { profile.brailleHost = host }

        let transcriptPath: String
        if let given = args.options["--transcript"] { transcriptPath = given } else { transcriptPath = try defaultTranscriptPath() }
        guard FileManager.default.createFile(atPath: transcriptPath, contents: nil),
              let transcriptHandle = FileHandle(forWritingAtPath: transcriptPath) else {
            throw .input(Diagnostic(file: transcriptPath, line: nil, path: "", message: "cannot write the transcript"))
        }
        let transcript = TranscriptSink(handle: transcriptHandle)

        var outputs: [any LiveOutput] = []
        if profile.speech {
            outputs.append(SpeechDispatcherOutput(address: profile.speechAddress, voice: profile.voiceSettings))
        }
        if profile.braille {
            outputs.append(BrlAPIOutput(host: profile.brailleHost, auth: ProcessInfo.processInfo.environment["BRLAPI_AUTH"], keyMap: profile.keyMap))
        }
        let terminal = Terminal()
        let screen = ScreenView(wanted: !args.flags.contains("--quiet-screen") && isatty(STDOUT_FILENO) == 1)
        let keyMap = profile.keyMap
        var session = Session(catalog: catalog, profile: profile,
                              sink: MultiplexSink(outputs.map { $0 as any OutputSink } + [transcript, screen]),
                              timing: .virtual, makeTranslator: ReplayInputs.translator)
        session.helpKeys = keyMap
        session.defaultInput = .keyboard
        let runner = LiveRunner(session: session, keyMap: keyMap)

        // Quit cleanly on SIGINT and SIGTERM: restore the terminal, flush the transcript.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let signals = [SIGINT, SIGTERM].map { sig -> any DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { runner.send(.quit) }
            source.resume()
            return source
        }
        let watcher = CatalogWatcher(path: catalogPath) { result in
            switch result {
            case .success(let c): runner.send(.reload(c))
            case .failure(let d): runner.send(.catalogError(d.description))
            }
        }
        watcher.start()

        terminal.enterRawMode()
        let reader = Thread {
            var decoder = TerminalKeyDecoder()
            while true {
                let bytes = terminal.read()
                if bytes.isEmpty { runner.send(.quit); return }
                var keys = decoder.feed(bytes)
                // A lone ESC is Escape only if nothing follows it quickly.
                if decoder.hasPending && !terminal.waitForInput(ms: 40) { keys += decoder.flush() }
                // The session resolves each key: while the user types into a field, q types.
                for key in keys { runner.send(.terminalKey(key)) }
            }
        }
        reader.start()

        for o in outputs { o.start(report: runner.reporter) }
        runner.run(helpHint: true)

        for o in outputs { o.stop() }
        watcher.stop()
        signals.forEach { $0.cancel() }
        terminal.restore()
        transcript.flush()
        try? transcriptHandle.close()
        printErr("tandem: transcript written to \(transcriptPath)")
        return 0
    }

    /// `$XDG_STATE_HOME/tandem/run-YYYYmmdd-HHMMSS.jsonl` (`~/.local/state` when unset).
    static func defaultTranscriptPath() throws(CLIError) -> String {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((env["HOME"] ?? "/tmp") + "/.local/state")
        let dir = base + "/tandem"
        do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
            throw .input(Diagnostic(file: dir, line: nil, path: "", message: "cannot create the transcript folder"))
        }
        var t = time(nil)
        var tmv = tm()
        localtime_r(&t, &tmv)
        let stamp = String(format: "%04d%02d%02d-%02d%02d%02d", tmv.tm_year + 1900, tmv.tm_mon + 1, tmv.tm_mday, tmv.tm_hour, tmv.tm_min, tmv.tm_sec)
        return "\(dir)/run-\(stamp)-\(getpid()).jsonl"
    }
}

/// Watches a catalog file and reloads it when it changes (polling size and modification time,
/// which works on every filesystem and for editors that replace the file).
final class CatalogWatcher: @unchecked Sendable {  // `timer` is set once in start, before the timer runs, and read by stop; `last` is touched only on the timer's serial queue
    let path: String
    let onChange: @Sendable (Result<Catalog, Diagnostic>) -> Void
    private var timer: (any DispatchSourceTimer)?
    private var last: (Date?, Int?)

    init(path: String, onChange: @escaping @Sendable (Result<Catalog, Diagnostic>) -> Void) {
        self.path = path
        self.onChange = onChange
        last = Self.stamp(path)
    }

    static func stamp(_ path: String) -> (Date?, Int?) {
        let a = try? FileManager.default.attributesOfItem(atPath: path)
        return (a?[.modificationDate] as? Date, (a?[.size] as? NSNumber)?.intValue)
    }

    func start() {
        let t = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "tandem.catalog-watcher"))
        t.schedule(deadline: .now() + .milliseconds(300), repeating: .milliseconds(300))
        t.setEventHandler { [self] in
            let now = Self.stamp(path)
            guard now.0 != last.0 || now.1 != last.1 else { return }
            last = now
            let result: Result<Catalog, Diagnostic>
            do throws(Diagnostic) {
                result = .success(try CatalogLoader.load(path: path).catalog)
            } catch {
                result = .failure(error)
            }
            onChange(result)
        }
        t.resume()
        timer = t
    }

    func stop() { timer?.cancel() }
}
