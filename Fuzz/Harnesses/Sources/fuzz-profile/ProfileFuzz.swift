import FuzzSupport
import TandemModel
import TandemService
import TandemSession

/// Any bytes as a profile file: it decodes over the defaults or throws a diagnostic naming a
/// line of the input, never traps; warnings name lines too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProfile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let lines = lineCount(input)
    do {
        let (_, warnings) = try Profile.decode(Array(input), file: "fuzz.json", name: "fuzz")
        for w in warnings { checkLine(w.line, within: lines, w.description) }
    } catch {
        checkLine(error.line, within: lines, error.description)
    }
    return 0
}
