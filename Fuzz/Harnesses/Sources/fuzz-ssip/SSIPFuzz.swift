import FuzzSupport
import TandemOutputs

/// Any bytes as what speech-dispatcher sends. The parser never traps, and bytes arriving in
/// chunks give the same blocks as the same bytes at once (the socket may split a reply
/// anywhere). The first byte picks the chunk sizes, so the fuzzer explores the splits too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSIP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let all = UnsafeRawBufferPointer(start: data, count: size)
    guard let seed = all.first else { return 0 }
    let input = UnsafeRawBufferPointer(rebasing: all.dropFirst())

    var whole = SSIPParser()
    whole.feed(input)
    let expected = drain(&whole)

    var chunked = SSIPParser()
    var got: [SSIPBlock] = []
    var at = 0
    var step = Int(seed % 16) + 1
    while at < input.count {
        let end = min(at + step, input.count)
        chunked.feed(UnsafeRawBufferPointer(rebasing: input[at..<end]))
        got += drain(&chunked)
        at = end
        step = step % 16 + 1
    }
    if input.count <= SSIPParser.maxLine {
        precondition(got == expected, "chunks of \(Int(seed % 16) + 1)… gave \(got), whole gave \(expected)")
    }
    for b in expected {
        precondition((0...999).contains(b.code), "code \(b.code)")
        if let e = SSIPEvent(b) { precondition(b.isEvent && e.messageID == Int(b.parameters[0])) }
    }
    return 0
}

private func drain(_ parser: inout SSIPParser) -> [SSIPBlock] {
    var out: [SSIPBlock] = []
    while let b = parser.next() { out.append(b) }
    return out
}
