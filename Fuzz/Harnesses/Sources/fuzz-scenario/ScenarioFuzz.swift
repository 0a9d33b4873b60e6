import FuzzSupport
import Foundation
import TandemModel
import TandemService
import TandemSession

/// The sample catalogs, so that `screen`, `post` and element ids in scenarios can resolve.
/// Loaded by `main.swift` before fuzzing starts, out of LeakSanitizer's sight (`withoutLeakChecks`).
let sampleCatalogs: [Catalog] = {
    // Fuzz/Harnesses/Sources/fuzz-scenario/ScenarioFuzz.swift → the package root.
    var root = URL(fileURLWithPath: #filePath)
    for _ in 0..<5 { root.deleteLastPathComponent() }
    return ["grocery", "pizza", "albums", "jobs"].map { name in
        let path = root.appendingPathComponent("Examples/\(name)/\(name).catalog.json").path
        do { return try CatalogLoader.load(path: path).catalog } catch { fatalError("fuzz-scenario: \(error)") }
    }
}()

private let shippedProfiles: Set<String> = ["default", "speech-only", "braille-only", "headless", "contracted"]

/// Any bytes as a scenario, parsed against each sample catalog (a scenario is read as UTF-8,
/// as the CLI reads it): it parses or throws a diagnostic naming a line of the input, never
/// traps; parsed lines keep their order and their line numbers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    guard let text = String(validating: input, as: UTF8.self) else { return 0 }
    let lines = lineCount(input)
    for catalog in sampleCatalogs {
        do {
            let scenario = try Scenario.parse(text, file: "fuzz.scenario", catalog: catalog, profileExists: shippedProfiles.contains)
            var last = 0
            for line in scenario.lines {
                precondition(line.number > last && line.number <= lines, "line \(line.number) after \(last) of \(lines)")
                last = line.number
            }
        } catch {
            checkLine(error.line, within: lines, error.description)
        }
    }
    return 0
}
