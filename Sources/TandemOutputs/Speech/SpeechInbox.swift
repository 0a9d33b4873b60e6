import Glibc
import Synchronization
import TandemPolicy
import TandemPresentation

/// Work for the speech worker, in the order the session emitted it.
enum SpeechJob: Sendable {
    /// `external`: when it was emitted, the session waited for speech-dispatcher to report
    /// its end (rather than estimating it), so it must hear about it one way or another.
    case speak(Spoken, external: Bool)
    case cancel(Spoken)
    case sound(SoundIcon)
    case voice(SpeechDispatcherOutput.Voice)
    case stop
}

/// The hand-off between the session's thread and the speech worker: `post` appends under a
/// lock and, when the worker may be asleep, writes one byte to a pipe that the worker polls
/// together with its sockets. Posting never waits for the worker.
final class SpeechInbox: Sendable {
    private struct State {
        var jobs: [SpeechJob] = []
        var wakePending = false
        /// What the session does with speech ends right now (see `SpeechDispatcherOutput.emit`).
        var sessionWaitsForSpeech = false
    }

    private let state = Mutex(State())
    /// Read end (the worker polls it) and write end of the wake pipe.
    let wakeFD: Int32
    private let wakeWriteFD: Int32

    init() {
        (wakeFD, wakeWriteFD) = WakePipe.open()
    }

    deinit {
        if wakeFD >= 0 { close(wakeFD) }
        if wakeWriteFD >= 0 { close(wakeWriteFD) }
    }

    /// Queues a job and wakes the worker.
    func post(_ job: SpeechJob) {
        state.withLock { s in
            s.jobs.append(job)
            wakeLocked(&s)
        }
    }

    /// Queues an utterance stamped with whether the session waits for its end.
    func postSpeak(_ spoken: Spoken) {
        state.withLock { s in
            s.jobs.append(.speak(spoken, external: s.sessionWaitsForSpeech))
            wakeLocked(&s)
        }
    }

    /// The session switched between waiting for speech ends and estimating them.
    func setSessionWaitsForSpeech(_ waits: Bool) {
        state.withLock { $0.sessionWaitsForSpeech = waits }
    }

    /// Everything queued so far, oldest first; empties the pipe.
    func take() -> [SpeechJob] {
        state.withLock { s in
            if s.wakePending {
                var sink = [UInt8](repeating: 0, count: 64)
                while read(wakeFD, &sink, sink.count) > 0 {}
                s.wakePending = false
            }
            defer { s.jobs.removeAll(keepingCapacity: true) }
            return s.jobs
        }
    }

    private func wakeLocked(_ s: inout State) {
        guard !s.wakePending else { return }
        s.wakePending = true
        var one: UInt8 = 1
        _ = write(wakeWriteFD, &one, 1)
    }
}
