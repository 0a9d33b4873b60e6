import Foundation

extension LiveRunner {
    /// Starts `run()` on a thread of its own and returns `finished`, signalled when `run()`
    /// returns (after `.quit`): what a replay, a benchmark or a test that drives the runner from
    /// outside needs. The stack is larger than a secondary thread's 512 KiB default, as deep
    /// screens recurse in the reading order and the JSON reader.
    @discardableResult
    public func startThread(stackSize: Int = 8 << 20, signalling finished: DispatchSemaphore = DispatchSemaphore(value: 0)) -> DispatchSemaphore {
        let thread = Thread { [self] in
            _ = run()
            finished.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        return finished
    }
}
