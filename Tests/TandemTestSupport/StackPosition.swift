/// Where the stack is: the address of a local of this function, whose frame sits just below
/// its caller's. Tests compare it across calls to see that a call does not grow deeper.
@inline(never)
public func stackPosition() -> UInt {
    var marker = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}
