import Foundation
import TandemVocabulary

/// Writes records as JSON Lines to a file handle (stdout, or a file).
public final class TranscriptSink: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private let handle: FileHandle
    private var buffer = ""
    /// Live runs stamp lines with real time; headless runs with the virtual clock.
    public init(handle: FileHandle) { self.handle = handle }

    public func emit(_ record: Record, at time: Int) {
        let text = Transcript.line(for: record, at: time).json + "\n"
        lock.lock(); defer { lock.unlock() }
        buffer += text
        if buffer.utf8.count > 64 * 1024 { flushLocked() }
    }

    /// Writes what is buffered.
    public func flush() {
        lock.lock(); defer { lock.unlock() }
        flushLocked()
    }

    private func flushLocked() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer.utf8))
        buffer = ""
    }
}
