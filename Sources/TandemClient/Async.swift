import Foundation
import TandemVocabulary

// async/await for apps and controllers: each call that waits for Tandem (connecting, `sync`,
// a controller's request) waits on a thread of its own, never on a concurrency-pool thread,
// and the events come as an `AsyncThrowingStream`. Sending never waits, so the sending calls
// (`show`, `update`, `set`, `announce`, …) are the same in async code.

/// Runs a blocking client call on a thread of its own and resumes when it is done.
func offThread<T: Sendable>(_ body: @escaping @Sendable () throws(TandemClientError) -> T) async throws(TandemClientError) -> T {
    let result: Result<T, TandemClientError> = await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(returning: Result { () throws(TandemClientError) -> T in try body() })
        }
    }
    return try result.get()
}

/// The messages a connection yields, as an async sequence read by a thread of its own. It
/// ends when the connection does (`connection.closeReason` says why); other errors are thrown.
func stream<T: Sendable>(_ next: @escaping @Sendable () throws(TandemClientError) -> T?) -> AsyncThrowingStream<T, any Error> {
    AsyncThrowingStream { continuation in
        let reader = Thread {
            while true {
                do throws(TandemClientError) {
                    guard let item = try next() else { continue }
                    if case .terminated = continuation.yield(item) { return }
                } catch {
                    if case .closed = error { continuation.finish() } else { continuation.finish(throwing: error) }
                    return
                }
            }
        }
        reader.start()
    }
}

extension TandemApp {
    /// Connects as the app `name`, waiting for Tandem's `welcome` without blocking the caller.
    public static func connect(name: String, language: String = "en", socketPath: String? = nil,
                               timeout: Duration = .seconds(5)) async throws(TandemClientError) -> TandemApp {
        try await offThread { () throws(TandemClientError) in
            try TandemApp(name: name, language: language, socketPath: socketPath, timeout: timeout)
        }
    }

    /// What Tandem tells the app, as it comes: `for try await event in app.events { … }`.
    /// Tandem's error about a message sent without waiting is an event (`.rejected`), so the
    /// loop goes on; the sequence ends when the connection does (`connection.closeReason` says
    /// why). Read it from one task.
    public var events: AsyncThrowingStream<AppEvent, any Error> {
        stream { () throws(TandemClientError) in try self.nextEvent(timeout: nil) }
    }

    /// Waits until Tandem has handled everything sent so far; throws the first error about it.
    public func sync(timeout: Duration? = nil) async throws(TandemClientError) {
        try await offThread { () throws(TandemClientError) in try self.connection.sync(timeout: timeout) }
    }
}

extension TandemController {
    /// Connects as a controller, waiting for Tandem's `welcome` without blocking the caller.
    public static func connect(socketPath: String? = nil, timeout: Duration = .seconds(5)) async throws(TandemClientError) -> TandemController {
        try await offThread { () throws(TandemClientError) in try TandemController(socketPath: socketPath, timeout: timeout) }
    }

    /// Sends the user's command (pressed on `input`, nil: the service's profile decides) and
    /// waits for Tandem to carry it out.
    public func command(_ command: Command, input: InputMethod? = nil) async throws(TandemClientError) {
        try await offThread { () throws(TandemClientError) in try self.command(command, input: input) }
    }

    /// Subscribes to the transcript (all channels, or only `channels`).
    public func subscribe(channels: Set<Channel>? = nil) async throws(TandemClientError) {
        try await offThread { () throws(TandemClientError) in try self.subscribe(channels: channels) }
    }

    /// Tandem's state (apps, front app, speech and braille, screen and focus).
    public func status() async throws(TandemClientError) -> StatusReport {
        try await offThread { () throws(TandemClientError) in try self.status() }
    }

    /// The transcript lines, as they come: `for try await line in controller.lines { … }`. It
    /// ends when the connection does, and throws when Tandem refuses something.
    public var lines: AsyncThrowingStream<TranscriptEntry, any Error> {
        stream { () throws(TandemClientError) in try self.nextTranscriptLine(timeout: nil) }
    }
}
