import TandemVocabulary
extension BrlAPIOutput {
    /// How the braille output paces writes and retries BRLTTY. The defaults suit a person at
    /// a real display; tests and benchmarks may shorten them.
    public struct Settings: Sendable {
        /// The least time between two writes (25 a second by default: a display's pins need
        /// tens of milliseconds to settle). Frames arriving faster replace each other; the
        /// newest is written when the interval ends.
        public var minimumWriteInterval: Duration = .milliseconds(40)
        /// The wait before the first retry after BRLTTY could not be reached or was lost; each
        /// further retry waits twice as long, up to `longestRetry` (`Backoff`).
        public var firstRetry: Duration = .milliseconds(50)
        public var longestRetry: Duration = .seconds(1)
        /// How long BRLTTY may take to answer before the connection is given up and tried
        /// again by backoff: to open it (its version packet, the authentication, the display's
        /// size, TTY mode and the keys, together), and to take a frame off a full socket.
        /// libbrlapi itself waits for BRLTTY's packets with no limit at all.
        public var answerTimeout: Duration = .seconds(2)
        /// How long `stop()` waits for the writer to give the display back to BRLTTY.
        public var stopTimeout: Duration = .seconds(1)
        /// Called on the writer's thread after each write (benchmarks and tests); must be quick.
        public var onWrite: (@Sendable (BrailleWriteEvent) -> Void)?

        public init() {}
    }
}

/// One write to the display, as seen by `BrlAPIOutput.Settings.onWrite`.
public struct BrailleWriteEvent: Sendable {
    /// The frame written (its cells cut or padded to `columns`).
    public var frame: BrailleFrame
    /// The display's width at the time.
    public var columns: Int
    /// Just before `brlapi__write` was called (`WorkerClock`, nanoseconds).
    public var started: UInt64
    /// How long the call took, in nanoseconds (it returns once the packet is on the socket).
    public var callDuration: UInt64
    /// True for the write that shows the current state to a newly (re)connected BRLTTY.
    public var afterConnect: Bool
}
