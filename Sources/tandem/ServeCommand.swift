import Dispatch
import Foundation
import TandemModel
import TandemOutputs
import TandemProtocol
import TandemServer
import TandemService
import TandemSession
import TandemVocabulary

/// `tandem serve`: the service running apps connect to (Docs/protocol.md). One thread owns
/// the session (the `LiveRunner`) and serves the control socket while it waits for input
/// (`HostedServer`): every client's line goes through the runner's inbox, as display keys and
/// speech notices come from the outputs' threads, so the policy sees one ordered stream of
/// input whatever its source, and a command is read on the thread that acts on it.
enum ServeCommand {
    static func run(_ args: Arguments) throws(CLIError) -> Int32 {
        _ = try args.exactly(0, "no arguments")
        let store = ProfileStore()
        let profileName = args.options["--profile"] ?? "default"
        var profile = try ReplayInputs.loadProfile(profileName, from: store)
        if let address = args.options["--speech"] { profile.speechAddress = address }
        if let host = args.options["--braille"] { profile.brailleHost = host }
        let catalogPath = args.options["--catalog"].map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let catalog = try catalogPath.map { (p) throws(CLIError) in try ReplayInputs.loadCatalog(p) }
        try ReplayInputs.checkBrailleTables()
        let log = ServeLog()

        var socketOptions: ControlSocket.Options
        do {
            // Started by a socket unit (Docs/protocol.md#systemd): serve the socket systemd made.
            if let inherited = try SocketActivation.inherited() {
                if let path = args.options["--socket"], path != inherited.path {
                    throw CLIError.usage("--socket \(path) is not the socket systemd passed (\(inherited.path)); leave --socket out of a socket-activated unit")
                }
                socketOptions = .activated(inherited)
            } else if let path = args.options["--socket"] {
                socketOptions = ControlSocket.Options(path: path)
            } else {
                socketOptions = try ControlSocket.Options.standard()
            }
        } catch let e as CLIError { throw e } catch { throw .unavailable("\(error)") }
        if let ms = args.options["--stall-timeout"] {
            guard let n = Int(ms), n > 0 else { throw .usage("--stall-timeout takes milliseconds") }
            socketOptions.stallTimeout = .milliseconds(n)
        }
        if let bytes = args.options["--max-queue"] {
            guard let n = Int(bytes), n >= 4096 else { throw .usage("--max-queue takes bytes (at least 4096)") }
            socketOptions.maxQueuedBytes = n
        }
        if let group = args.options["--allow-group"] {
            guard let gid = Self.groupID(group) else { throw .usage("--allow-group: no group \"\(group)\" in the group database (by name or number)") }
            socketOptions.allowedGroup = gid
        }
        var serviceOptions = Service.Options()
        serviceOptions.maxLine = socketOptions.maxLine
        if let ms = args.options["--user-action-window"] {
            guard let n = Int(ms), n >= 0 else { throw .usage("--user-action-window takes milliseconds (0 or more)") }
            serviceOptions.userActionWindow = n
        }

        let transcript = try args.options["--transcript"].map { (p) throws(CLIError) in try Self.writer(p) }
        var outputs: [any LiveOutput] = []
        // TANDEM_SSIP_TRACE=FILE: every SSIP command and reply with its time, written at the
        // end (tandem-bench serve-load times Tandem's own share with it).
        let trace = ProcessInfo.processInfo.environment["TANDEM_SSIP_TRACE"].flatMap { $0.isEmpty ? nil : (file: $0, log: SSIPTraceLog()) }
        if profile.speech {
            let speech = SpeechDispatcherOutput(address: profile.speechAddress, voice: profile.voiceSettings)
            if let log = trace?.log { speech.trace = { log.record($0) } }
            outputs.append(speech)
        }
        if profile.braille {
            outputs.append(BrlAPIOutput(host: profile.brailleHost, auth: ProcessInfo.processInfo.environment["BRLAPI_AUTH"], keyMap: profile.keyMap))
        }
        // Where records go: each live output, then the transcript file (the outputs first, so
        // that speech and braille never wait for a line to be written).
        var sinks = outputs.map { $0 as any OutputSink }
        if let t = transcript { sinks.append(t.sink) }
        let (session, service) = Service.start(profile: profile, catalog: catalog, options: serviceOptions, sink: MultiplexSink(sinks),
                                               timing: .virtual, makeTranslator: ReplayInputs.translator)
        let runner = LiveRunner(session: session, keyMap: profile.keyMap)
        runner.service = service
        let recording = try args.options["--record"].map { (p) throws(CLIError) in try Self.writer(p) }
        if let r = recording {
            let recorder = SessionRecorder(handle: r.handle)
            let window = serviceOptions.userActionWindow == Service.Options().userActionWindow ? nil : serviceOptions.userActionWindow
            recorder.record(.start(profile: profileName, catalog: catalogPath, userActionWindow: window, speechNotices: true), at: 0)
            runner.hooks.recorder = recorder
        }

        // The socket's clients become the runner's input, on the runner's own thread. The
        // transcript file is written at the end of each batch, after the clients' lines, so a
        // reader of the file (`tail -f`, a test) sees what was said as it happens.
        let transcriptSink = transcript?.sink
        let host: ServeHost
        do {
            host = try ServeHost(runner: runner, options: socketOptions, afterFlush: { transcriptSink?.flush() }) { note in
                switch note {
                case .connected(let id, let peer): log.info("client \(id) connected (\(peer))")
                case .disconnected(let id, let reason): log.info("client \(id) disconnected: \(reason)")
                case .refused(let peer, let reason): log.warning("refused a connection from \(peer): \(reason)")
                }
            }
        } catch { throw .unavailable("cannot serve: \(error)") }

        // A clean stop on SIGTERM, SIGINT and SIGHUP (a closed terminal, `systemctl kill -s HUP`):
        // the socket file removed, the transcript written, the recording's `stop` line kept.
        let stopSignals = [SIGINT, SIGTERM, SIGHUP]
        for sig in stopSignals { signal(sig, SIG_IGN) }
        let signals = stopSignals.map { sig -> any DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                log.info("stopping (signal \(sig))")
                runner.send(.quit)
            }
            source.resume()
            return source
        }

        for o in outputs { o.start(report: runner.reporter) }
        if args.flags.contains("--realtime") {
            if let why = RealtimeScheduling.enter() {
                log.warning("no real-time scheduling (\(why)); serving at normal priority")
            } else {
                log.info("real-time scheduling: SCHED_FIFO, priority \(RealtimeScheduling.priority)")
            }
        }
        // Once the socket listens and SIGTERM is handled: tests and scripts wait for this line.
        log.info("serving on \(host.socket.path) (profile \(profileName)\(catalogPath.map { ", catalog \($0)" } ?? ""))")
        runner.run()

        host.finish()
        for o in outputs { o.stop() }
        if let trace {
            do { try trace.log.text().write(toFile: trace.file, atomically: true, encoding: .utf8) } catch {
                log.warning("cannot write the SSIP trace \(trace.file): \(error)")
            }
        }
        signals.forEach { $0.cancel() }
        for w in [transcript, recording].compactMap({ $0 }) { w.close() }
        log.info("stopped")
        return 0
    }

    /// A file written as the session goes (transcript, recording).
    struct Writer {
        let handle: FileHandle
        let sink: TranscriptSink
        func close() {
            sink.flush()
            try? handle.close()
        }
    }

    static func writer(_ path: String) throws(CLIError) -> Writer {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw .input(Diagnostic(file: path, line: nil, path: "", message: "cannot write the file: \(Self.openFailure(path, errno: errno))"))
        }
        let h = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
        return Writer(handle: h, sink: TranscriptSink(handle: h))
    }

    /// Why a file could not be opened for writing, naming the folder when it is what is missing.
    static func openFailure(_ path: String, errno code: Int32) -> String {
        let reason = String(cString: strerror(code))
        let folder = (path as NSString).deletingLastPathComponent
        if code == ENOENT, !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            return "\(reason) (the folder \(folder) does not exist)"
        }
        return reason
    }

    /// The group a name or number names in the group database; nil when it has no such group
    /// (a number too must name a group that exists: `--allow-group 4294967295` is refused).
    static func groupID(_ name: String) -> gid_t? {
        if let n = gid_t(name) { return getgrgid(n).map { $0.pointee.gr_gid } }
        return getgrnam(name).map { $0.pointee.gr_gid }
    }
}

/// Log lines on standard error, one event a line: with the kernel's priority prefix (`<6>`)
/// when the journal reads them (`JOURNAL_STREAM` is set), else `tandem serve: …`.
struct ServeLog: Sendable {
    let journal = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil

    func info(_ message: String) { write(6, message) }
    func warning(_ message: String) { write(4, message) }

    private func write(_ priority: Int, _ message: String) {
        let line = (journal ? "<\(priority)>" : "tandem serve: ") + message + "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
