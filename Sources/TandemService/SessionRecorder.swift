import Foundation
import TandemModel
import TandemNavigator
import TandemSession
import TandemOutputs
import TandemPolicy
import TandemVocabulary

/// Writes every input of a live session with its time, one JSON object a line, so that a
/// session a tester found a bug in can be replayed headless as a regression test.
public final class SessionRecorder: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()

    public init(handle: FileHandle) { self.handle = handle }

    public func record(_ input: RecordedInput, at time: Int) {
        let line = "{\"t\":\(time),\(input.fields)}\n"
        lock.lock(); defer { lock.unlock() }
        handle.write(Data(line.utf8))
    }
}
