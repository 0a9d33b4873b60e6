import Foundation

/// Looks at `observe` every 5 ms until `condition` holds for what it sees or `timeout` has
/// passed; whether it held, and the last value seen (`observe` returns nil while there is
/// nothing to see yet).
///
/// For what a test cannot be told about, only look at: a daemon's capture file, a display's
/// state file, what a runner thread has recorded. The timeout is a bound on a failing test,
/// not a timing assertion.
public func waitFor<Value>(timeout: Duration = .seconds(5), _ observe: () -> Value?,
                           until condition: (Value) -> Bool) -> (ok: Bool, last: Value?) {
    let end = ContinuousClock.now + timeout
    var last: Value?
    while true {
        if let value = observe() {
            last = value
            if condition(value) { return (true, value) }
        }
        if ContinuousClock.now >= end { return (false, last) }
        Thread.sleep(forTimeInterval: 0.005)
    }
}

/// Checks `condition` every 5 ms until it holds or `timeout` has passed; whether it held.
@discardableResult
public func waitUntil(timeout: Duration = .seconds(5), _ condition: () -> Bool) -> Bool {
    let end = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= end { return false }
        Thread.sleep(forTimeInterval: 0.005)
    }
    return true
}
