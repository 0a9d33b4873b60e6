import Foundation
import TandemVocabulary
import Synchronization

/// Writes records as JSON Lines to a file handle (stdout, or a file).
public final class TranscriptSink: OutputSink, Sendable {
    private let handle: FileHandle
    /// Lines not yet written.
    private let buffer = Mutex("")
    /// Live runs stamp lines with real time; headless runs with the virtual clock.
    public init(handle: FileHandle) { self.handle = handle }

    public func emit(_ record: Record, at time: Int) {
        let text = Transcript.line(for: record, at: time).json + "\n"
        buffer.withLock { buffer in
            buffer += text
            if buffer.utf8.count > 64 * 1024 { write(&buffer) }
        }
    }

    /// Writes what is buffered.
    public func flush() {
        buffer.withLock { write(&$0) }
    }

    private func write(_ buffer: inout String) {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer.utf8))
        buffer = ""
    }
}
