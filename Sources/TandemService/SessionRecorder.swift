import Foundation
import Synchronization
import TandemModel
import TandemNavigator
import TandemSession
import TandemOutputs
import TandemPolicy
import TandemVocabulary

/// Writes every input of a live session with its time, one JSON object a line, so that a
/// session a tester found a bug in can be replayed headless as a regression test.
public final class SessionRecorder: Sendable {
    /// Lines from several threads (the runner's, a signal's) are written whole, one at a time.
    private let handle: Mutex<FileHandle>

    public init(handle: FileHandle) { self.handle = Mutex(handle) }

    public func record(_ input: RecordedInput, at time: Int) {
        let line = "{\"t\":\(time),\(input.fields)}\n"
        handle.withLock { $0.write(Data(line.utf8)) }
    }
}
