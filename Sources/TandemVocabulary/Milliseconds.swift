/// A point on the policy's clock, in milliseconds. Headless runs start at 0.
public typealias Milliseconds = Int
