import Foundation
import Glibc
import Synchronization
import TandemPOSIX

/// A BrlAPI call made on a thread of its own, so that the braille worker can stop waiting for
/// it at a deadline of its own clock.
///
/// libbrlapi waits for BRLTTY's packets with no limit: `brlapi__openConnection` polls for the
/// version packet with `poll(-1)`, and every request (the display's size, TTY mode, the keys,
/// the size watch) waits for its answer the same way. A BRLTTY that accepts and never answers
/// — one still starting, one wedged — would hold the thread that called it for ever. So the
/// worker makes such calls here, waits for them until `Settings.answerTimeout`, and abandons
/// one that has not finished:
///
/// - the call's thread is sent SIGURG, whose handler does nothing, until the call has
///   returned: the signal makes libbrlapi's `poll` fail with EINTR, which ends its wait with
///   an error (a blocking `connect` ends the same way);
/// - what the call leaves (a connection it opened, or the connection it was using) is then
///   the thread's to close: `whenAbandoned` gets the call's value.
///
/// SIGURG is ignored by default and nothing else in Tandem uses it, so a handler for it can be
/// installed and the signal sent to a thread of our own.
///
/// The worker waits for the woken call at most `abandonGrace`; a signal may come before the
/// call is inside its wait, so a thread of its own then goes on sending it, less and less
/// often, until the call has returned. One wait no signal can end: libbrlapi reading the rest
/// of a packet BRLTTY sent half of (it retries a `read` on EINTR); that call returns when
/// BRLTTY sends the rest or closes the connection.
final class BrlAPIDeadlineCall<Value: Sendable>: Sendable {
    private struct State {
        var thread: pthread_t?
        var value: Value?
        var finished = false
        var abandoned = false
    }

    private let state = Mutex(State())
    /// Readable once the call has returned (the thread's last act is one byte into it).
    private let returned = WakePipe()
    var finishedFD: Int32 { returned.readFD }

    /// How long `abandon` goes on signalling a thread whose call has not returned.
    static var abandonGrace: Duration { .milliseconds(200) }

    /// Starts `body` on a new thread; returns at once. `whenAbandoned` is called on that
    /// thread with `body`'s value if the call was abandoned before it returned.
    init(_ name: String, _ body: @escaping @Sendable () -> Value, whenAbandoned: @escaping @Sendable (Value) -> Void) {
        Self.installWakeHandler()
        let thread = Thread { [self] in
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            var wake = sigset_t()
            sigemptyset(&wake)
            sigaddset(&wake, SIGURG)
            pthread_sigmask(SIG_UNBLOCK, &wake, nil)
            state.withLock { $0.thread = pthread_self() }
            let value = body()
            let abandoned = state.withLock { s -> Bool in
                s.finished = true
                s.thread = nil
                if !s.abandoned { s.value = value }
                return s.abandoned
            }
            if abandoned { whenAbandoned(value) }
            returned.signal()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit { returned.close() }

    /// The call's value once it has returned (nil until then), taken once.
    ///
    /// Only after the byte the thread writes last has been read: the pipe is then what orders
    /// the thread's work before the caller's, for ThreadSanitizer too (it sees `read` after
    /// `write` on a descriptor; it does not see `Mutex`).
    func take() -> Value? {
        var byte: UInt8 = 0
        guard read(finishedFD, &byte, 1) == 1 else { return nil }
        return state.withLock { s in
            defer { s.value = nil }
            return s.value
        }
    }

    /// A call that BRLTTY answers at once returns within a millisecond or two.
    static var quickAnswer: Int { 50 }

    /// Waits for the call on the real clock, at most `quickAnswer` ms (or `limit`). The worker
    /// waits for the rest on its own clock; this part is for a test's manual clock, which
    /// takes a worker waiting on it for a worker with nothing to do: a call being answered
    /// is not that, and it is done before the test moves the clock.
    func waitForQuickAnswer(within limit: Int) {
        var p = pollfd(fd: finishedFD, events: Int16(POLLIN), revents: 0)
        _ = Glibc.poll(&p, 1, Int32(max(0, min(Self.quickAnswer, limit))))
    }

    /// Gives the call up, unless it has just returned: then its value, as `take` would.
    /// Otherwise the thread is woken (so that libbrlapi fails and the thread cleans up after
    /// it, `whenAbandoned`), and this waits for that at most `abandonGrace`, then leaves the
    /// waking to a thread of its own.
    func abandon() -> Value? {
        let finished = state.withLock { s -> Bool in
            if !s.finished { s.abandoned = true }
            return s.finished
        }
        var p = pollfd(fd: finishedFD, events: Int16(POLLIN), revents: 0)
        if finished {
            // It returned just now: its value is the caller's once its last byte is here, which
            // the thread writes next.
            while true {
                if let value = take() { return value }
                _ = Glibc.poll(&p, 1, -1)
            }
        }
        let end = Monotonic.now() &+ Monotonic.nanoseconds(Self.abandonGrace)
        while Monotonic.now() < end {
            let done = state.withLock { s -> Bool in
                // Under the lock: the thread clears `thread` before it ends, so it is alive here.
                if !s.finished, let thread = s.thread { pthread_kill(thread, SIGURG) }
                return s.finished
            }
            if done { return nil }
            _ = Glibc.poll(&p, 1, 5)
        }
        keepWaking()
        return nil
    }

    /// Sends the signal on a thread of its own until the call has returned: every 5 ms at
    /// first, doubling up to once a second.
    private func keepWaking() {
        let thread = Thread { [self] in
            var interval: Int32 = 5
            while true {
                let finished = state.withLock { s -> Bool in
                    if !s.finished, let thread = s.thread { pthread_kill(thread, SIGURG) }
                    return s.finished
                }
                if finished { return }
                var p = pollfd(fd: finishedFD, events: Int16(POLLIN), revents: 0)
                _ = Glibc.poll(&p, 1, interval)
                interval = min(interval * 2, 1000)
            }
        }
        thread.name = "tandem-braille-wake"
        thread.stackSize = 1 << 18
        thread.start()
    }

    /// Installs, once, a SIGURG handler that does nothing: the signal's only work is to
    /// interrupt a wait. No SA_RESTART, so that `connect` is not restarted either (`poll`
    /// never is).
    private static func installWakeHandler() { _ = wakeHandlerInstalled }
}

private let wakeHandlerInstalled: Void = {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    sigaction(SIGURG, &action, nil)
}()
