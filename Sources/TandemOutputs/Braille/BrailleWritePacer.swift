/// When the writer may write the next frame: at once when the display has rested for
/// `interval` since the last write, else when that interval ends.
///
/// A braille display's pins take tens of milliseconds to settle, and nobody reads faster than
/// that, so frames that arrive closer together than `interval` are not each written: the
/// writer keeps only the newest and writes it when the interval ends (the last frame always
/// reaches the display, never a stale one). A key after a pause is written at once.
struct BrailleWritePacer: Sendable {
    /// The least time between two writes.
    var interval: Duration
    private(set) var lastWrite: ContinuousClock.Instant?

    init(interval: Duration) { self.interval = interval }

    /// How long to wait before writing at `now`; zero when a write may go now.
    func delay(at now: ContinuousClock.Instant) -> Duration {
        guard let last = lastWrite else { return .zero }
        let next = last + interval
        return next > now ? next - now : .zero
    }

    mutating func wrote(at now: ContinuousClock.Instant) { lastWrite = now }
}
