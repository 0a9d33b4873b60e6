/// Everything measured for one catalog size; the child process prints it as JSON for the
/// parent to tabulate. Times are in nanoseconds, memory in bytes.
struct SizeResult: Codable, Sendable {
    var requested: Int
    var elements: Int
    var reachable: Int
    var jsonBytes: Int
    var plan: Plan
    var generateNanoseconds: Double

    /// `CatalogDecoder.decode`: parse, build the element tables, validate every reference.
    var load: Summary
    /// `Navigator.start()`: the first reading order of the big screen and the first focus
    /// (what a screen's first visit, or a structural change, costs once).
    var orderBuildNanoseconds: Double
    /// `Navigator.perform(.next)`, one call each.
    var next: Summary
    /// `Navigator.perform(.increment)` on a stepper whose `adjust` runs an effect.
    var increment: Summary
    /// `Session.perform` + `settle`: navigator, presentation, speech policy, liblouis, sink.
    var sessionNext: Summary
    var sessionIncrement: Summary
    /// A custom action whose effect sets `traits`: it invalidates the reading order, which the
    /// navigator rebuilds at once to settle focus.
    var structuralAction: Summary

    var replayCommands: Int
    /// Wall time of whole `Replay.run` calls.
    var replayRuns: Summary
    /// Wall time of replays of a one-line scenario: what each run costs whatever its length.
    var replayFixed: Summary
    var replayFailures: Int
    /// `MemoryLayout<Element>.stride`: the flat table's bytes per element before any heap
    /// storage (strings, arrays) it points to.
    var elementStride: Int

    /// `VmRSS` when the child starts measuring (runtime, Foundation, braille tables).
    var startBytes: Int?
    /// `VmHWM` of the whole child process: generated text, parse tree, catalog, sessions.
    var peakBytes: Int?
    /// Peak during one decode, above the resident size just before it.
    var loadPeakBytes: Int?
    /// Heap the decoded catalog keeps (`mallinfo2`, so the freed parse tree does not count).
    var catalogBytes: Int?
    var notes: [String]
}
