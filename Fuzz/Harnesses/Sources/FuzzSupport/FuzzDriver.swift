import CLibFuzzer
#if canImport(Glibc)
import Glibc
#endif

/// Hands the process to libFuzzer with `harness` as the function it calls for each input.
///
/// SwiftPM links an executable's entry point as `<module>_main` and aliases `main` to it, so
/// libFuzzer's own `main` cannot be used (with `-parse-as-library` the alias points at nothing
/// and the link fails); each harness's `main.swift` calls this instead, with the same command
/// line libFuzzer's `main` would get.
public func runFuzzer(_ harness: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, harness))
}

/// Runs `body` with LeakSanitizer ignoring what it allocates: for fixtures a harness loads
/// once and keeps. LeakSanitizer cannot follow every pointer Swift keeps (a multi-payload
/// enum such as `LabelText.localized(key:args:)` stores its case in the spare bits of the
/// `args` pointer), so an array a global still holds would be reported as leaked.
public func withoutLeakChecks<T>(_ body: () -> T) -> T {
    tandem_lsan_disable()
    defer { tandem_lsan_enable() }
    return body()
}
