/// Checks shared by the harnesses. A failed check traps, which libFuzzer reports as a crash
/// and saves the input that caused it.

/// The number of lines in `bytes` as an editor counts them (a last line without its newline
/// still counts), at least 1.
public func lineCount(_ bytes: UnsafeRawBufferPointer) -> Int {
    var n = 1
    for b in bytes where b == 0x0A { n += 1 }
    return n
}

/// A diagnostic's line, when it has one, must be a line of the input: the CLI prints it for a
/// person to go and look at.
public func checkLine(_ line: Int?, within lines: Int, _ what: @autoclosure () -> String) {
    guard let line else { return }
    precondition((1...lines).contains(line), "line \(line) outside 1...\(lines): \(what())")
}
