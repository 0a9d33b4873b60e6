import CAtspi
import Foundation

/// The one thread that talks to libatspi: it initialises the library, runs GLib's default
/// main loop (where libatspi's D-Bus replies and events arrive), and runs every piece of work
/// given to it there, in order. Nothing else in Tandem touches GLib.
public final class AtspiLoop: @unchecked Sendable {  // `loop` is written once, before `ready` is signalled
    private var loop: OpaquePointer?
    private let ready = DispatchSemaphore(value: 0)
    private var status: Int32 = 0
    private let thread: Thread

    /// Starts the thread and `atspi_init`; throws when libatspi cannot reach the accessibility
    /// bus (no session bus, no AT-SPI bus launcher).
    public init() throws(AtspiError) {
        let box = LoopBox()
        thread = Thread {
            box.loop?.run()
        }
        box.loop = self
        thread.name = "tandem-atspi"
        thread.start()
        ready.wait()
        if status != 0 && status != 1 {  // atspi_init: 0 ok, 1 already initialised
            throw AtspiError("libatspi could not start (atspi_init returned \(status)): is DBUS_SESSION_BUS_ADDRESS set and the AT-SPI bus running?")
        }
    }

    private func run() {
        status = atspi_init()
        // Calls to a toolkit that has gone wait at most this long (ms), not D-Bus's 25 s.
        atspi_set_timeout(1500, 15000)
        loop = g_main_loop_new(nil, 0)
        ready.signal()
        g_main_loop_run(loop)
    }

    /// Runs `body` on the loop thread and returns its result; on the loop thread itself it
    /// runs at once.
    public func sync<T>(_ body: @escaping () -> T) -> T {
        if Thread.current == thread { return body() }
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox<T>()
        async {
            result.value = body()
            done.signal()
        }
        done.wait()
        return result.value!
    }

    /// Runs `body` on the loop thread, later, in order with everything else given to it.
    public func async(_ body: @escaping () -> Void) {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        g_main_context_invoke_full(nil, 0, { data in
            let work = Unmanaged<Work>.fromOpaque(data!).takeRetainedValue()
            work.body()
            return 0  // G_SOURCE_REMOVE
        }, work, nil)
    }

    /// Calls `body` on the loop thread every `milliseconds`, until it returns false.
    public func every(milliseconds: UInt32, _ body: @escaping () -> Bool) {
        let work = Unmanaged.passRetained(Repeat(body)).toOpaque()
        g_timeout_add_full(0, milliseconds, { data in
            let work = Unmanaged<Repeat>.fromOpaque(data!).takeUnretainedValue()
            return work.body() ? 1 : 0
        }, work, { data in Unmanaged<Repeat>.fromOpaque(data!).release() })
    }

    private final class LoopBox: @unchecked Sendable {  // handed once to the new thread
        weak var loop: AtspiLoop?
    }
    private final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
    private final class Repeat {
        let body: () -> Bool
        init(_ body: @escaping () -> Bool) { self.body = body }
    }
    private final class ResultBox<T>: @unchecked Sendable {  // written on the loop thread before the semaphore
        var value: T?
    }
}

/// Something libatspi or the application could not do, in one sentence.
public struct AtspiError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
