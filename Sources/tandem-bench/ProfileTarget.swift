import TandemModel
import TandemNavigator
import TandemOutputs
import TandemService
import TandemSession
import TandemVocabulary
import TandemPOSIX

/// One piece of work, repeated with nothing else around it, for running under a profiler
/// (`perf record`, `valgrind --tool=callgrind`): `tandem-bench profile load 100000`.
enum ProfileTarget: String, CaseIterable {
    /// `CatalogDecoder.decode`, N times.
    case load
    /// `JSONParser.parse` alone (the first stage of `load`), N times.
    case parse
    /// `Navigator.perform(.next)`, N × 100,000 steps.
    case next
    /// `Replay.run` of a 20,000-command scenario, N times.
    case replay

    /// Runs the work `times` times and describes what was timed.
    func run(size: Int, times: Int) throws -> String {
        let generated = CatalogGenerator.generate(elements: size)
        var decoder = CatalogDecoder(file: "generated.catalog.json")
        let catalog = try decoder.decode(generated.json)
        var samples: [UInt64] = []
        var unit = "ms", scale = 1e-6, what = ""
        switch self {
        case .load:
            what = "decode"
            for _ in 0..<times {
                var d = CatalogDecoder(file: "generated.catalog.json")
                samples.append(try Monotonic.measure { () throws(Diagnostic) in try d.decode(generated.json) }.nanoseconds)
            }
        case .parse:
            what = "JSON parse alone"
            for _ in 0..<times {
                samples.append(try Monotonic.measure { () throws(JSONParser.SyntaxError) in try JSONParser.parse(generated.json) }.nanoseconds)
            }
        case .next:
            what = "100,000 × next"
            var nav = Navigator(catalog: catalog)
            _ = nav.start()
            for _ in 0..<times {
                samples.append(Monotonic.measure {
                    for _ in 0..<100_000 where nav.perform(.next).first == .boundary(.end) { _ = nav.perform(.first) }
                }.nanoseconds)
            }
        case .replay:
            what = "replay of 20,000 commands"
            let scenario = try ScenarioGenerator.scenario(commands: 20_000, catalog: catalog)
            let replay = Replay(catalog: catalog, scenario: scenario, profile: Profile(), profiles: ProfileStore(searchPath: []),
                                makeTranslator: SizeBenchmark.translator)
            for _ in 0..<times {
                samples.append(try Monotonic.measure { () throws(Diagnostic) in try replay.run(sink: NullSink()) }.nanoseconds)
            }
            unit = "ms"; scale = 1e-6
        }
        let s = Summary(nanoseconds: samples)
        return "\(what), \(Report.sizeName(size)) elements: median \(Report.number(s.median * scale)) \(unit), "
            + "p99 \(Report.number(s.p99 * scale)) \(unit) (\(s.count) runs)"
    }
}
