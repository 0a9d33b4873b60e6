import Foundation
import Synchronization

/// Where a session's records go. One method taking one value; a sink must not block for long
/// (a live sink hands slow work to its own queue) and must never throw into the session.
public protocol OutputSink: AnyObject, Sendable {
    func emit(_ record: Record, at time: Int)
}

/// Discards everything (the "silence" driver that always exists).
public final class NullSink: OutputSink {
    public init() {}
    public func emit(_ record: Record, at time: Int) {}
}

/// Keeps every record, for tests.
public final class RecordingSink: OutputSink, Sendable {
    private let stored = Mutex<[(time: Int, record: Record)]>([])
    public init() {}

    public func emit(_ record: Record, at time: Int) {
        stored.withLock { $0.append((time, record)) }
    }

    public var records: [(time: Int, record: Record)] {
        stored.withLock { $0 }
    }
}

/// Sends every record to several sinks, in order.
public final class MultiplexSink: OutputSink {
    public let sinks: [any OutputSink]
    public init(_ sinks: [any OutputSink]) { self.sinks = sinks }
    public func emit(_ record: Record, at time: Int) {
        for s in sinks { s.emit(record, at: time) }
    }
}
