import FuzzSupport
import TandemModel
import TandemNavigator

/// Any bytes as a `*.catalog.json`: the decoder either returns a catalog or throws a
/// diagnostic, never traps, and every diagnostic names a line of the input. A catalog it
/// accepts must be usable: its start screen exists and the navigator can walk it end to end.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalog(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let lines = lineCount(input)
    var decoder = CatalogDecoder(file: "fuzz.catalog.json")
    do {
        let catalog = try decoder.decode(Array(input))
        precondition(catalog.screen(catalog.start) != nil, "accepted a catalog whose start screen \"\(catalog.start)\" is missing")
        var navigator = Navigator(catalog: catalog)
        _ = navigator.start()
        for _ in 0...navigator.screen.elements.count { _ = navigator.perform(.next) }
        _ = navigator.perform(.last)
        _ = navigator.perform(.previous)
        _ = navigator.perform(.first)
    } catch {
        checkLine(error.line, within: lines, error.description)
    }
    for d in decoder.diagnostics.warnings + decoder.diagnostics.errors {
        checkLine(d.line, within: lines, d.description)
    }
    return 0
}
