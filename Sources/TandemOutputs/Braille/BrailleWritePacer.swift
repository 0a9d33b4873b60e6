/// When the writer may write the next frame: at once when the display has rested for
/// `interval` since the last write, else when that interval ends.
///
/// A braille display's pins take tens of milliseconds to settle, and nobody reads faster than
/// that, so frames that arrive closer together than `interval` are not each written: the
/// writer keeps only the newest and writes it when the interval ends (the last frame always
/// reaches the display, never a stale one). A key after a pause is written at once.
struct BrailleWritePacer: Sendable {
    /// The least time between two writes, in nanoseconds.
    let interval: UInt64
    private(set) var lastWrite: UInt64?

    init(intervalMs: Int) { self.interval = WorkerClock.nanoseconds(intervalMs) }

    /// When the next write may go (a `WorkerClock` time), or nil when it may go `now`.
    func nextWrite(at now: UInt64) -> UInt64? {
        guard let last = lastWrite else { return nil }
        let next = last &+ interval
        return next > now ? next : nil
    }

    mutating func wrote(at now: UInt64) { lastWrite = now }
}
