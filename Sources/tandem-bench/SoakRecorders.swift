import Foundation
import Synchronization
import TandemOutputs
import TandemPolicy
import TandemVocabulary

/// Keeps what a session decided to say (`speak` records) and its latest braille frame, each
/// stamped with `WorkerClock` (the monotonic clock the soak's other timings use).
final class SoakSessionRecorder: OutputSink {
    struct Said: Sendable { var time: UInt64; var priority: Priority; var text: String }
    private let state = Mutex<(said: [Said], frame: BrailleFrame?)>(([], nil))

    func emit(_ record: Record, at time: Int) {
        switch record {
        case .speech(.speak(let s)):
            let said = Said(time: WorkerClock.monotonic.now(), priority: s.priority, text: s.utterance.text)
            state.withLock { $0.said.append(said) }
        case .braille(let frame):
            state.withLock { $0.frame = frame }
        default: break
        }
    }

    var said: [Said] { state.withLock { $0.said } }
    var frame: BrailleFrame? { state.withLock { $0.frame } }
}

/// Follows speech-dispatcher's capture file (`DIR/spoken.log`) as it grows, stamping each line
/// with the monotonic time it was seen (polled every 2 ms), so the capture format the tests
/// read stays as it is: one `SAY` line a message from the instant module, or a `BEGIN` line
/// when the module starts a message and an `END` line when it has spoken all of it.
final class CaptureFollower: Sendable {
    struct Line: Sendable {
        enum Kind: String, Sendable { case say = "SAY", begin = "BEGIN", end = "END" }
        var time: UInt64
        var kind: Kind
        var text: String
        /// Speech started: the instant module's `SAY`, or a `BEGIN`.
        var started: Bool { kind != .end }
        /// Heard whole: the instant module's `SAY` (it cannot be cut), or an `END`.
        var heard: Bool { kind != .begin }
    }
    private let path: String
    private let state = Mutex<(lines: [Line], stop: Bool)>(([], false))
    private let done = DispatchSemaphore(value: 0)

    init(path: String) {
        self.path = path
        let thread = Thread { [self] in follow() }
        thread.start()
    }

    private func follow() {
        var offset: UInt64 = 0
        var partial = Data()
        while !state.withLock({ $0.stop }) {
            if let handle = FileHandle(forReadingAtPath: path) {
                // `restart` appends; a smaller file means it was made anew (not in a soak)
                let size = (try? handle.seekToEnd()) ?? 0
                if size < offset { offset = 0; partial = Data() }
                if size > offset {
                    try? handle.seek(toOffset: offset)
                    let data = handle.readData(ofLength: Int(size - offset))
                    offset += UInt64(data.count)
                    partial.append(data)
                    let now = WorkerClock.monotonic.now()
                    var lines: [Line] = []
                    while let newline = partial.firstIndex(of: 0x0A) {
                        let line = String(decoding: partial[partial.startIndex..<newline], as: UTF8.self)
                        partial.removeSubrange(partial.startIndex...newline)
                        let fields = line.split(separator: "\t", maxSplits: 6, omittingEmptySubsequences: false)
                        if fields.count == 7, let kind = Line.Kind(rawValue: String(fields[0])) {
                            lines.append(Line(time: now, kind: kind, text: String(fields[6])))
                        }
                    }
                    state.withLock { $0.lines += lines }
                }
                try? handle.close()
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
        done.signal()
    }

    /// Stops following; the lines seen.
    func finish() -> [Line] {
        state.withLock { $0.stop = true }
        done.wait()
        return state.withLock { $0.lines }
    }
}

/// This process's resident memory and open descriptors.
struct ProcessUsage: Sendable {
    var resident: Int
    var descriptors: Int

    static func now() -> ProcessUsage {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
        return ProcessUsage(resident: ProcessMemory.resident ?? -1, descriptors: fds)
    }

    var summary: String { String(format: "RSS %.1f MiB, %d open descriptors", Double(resident) / 1_048_576, descriptors) }
}
