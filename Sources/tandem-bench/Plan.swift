/// How many times each figure is measured for one catalog size. Big catalogs take longer to
/// load and to rebuild, so they get fewer repetitions of those; per-step timings use the same
/// counts at every size so that their medians and p99s compare.
struct Plan: Codable, Sendable {
    var loads: Int
    var navigatorSteps: Int
    var sessionSteps: Int
    var rebuilds: Int
    var replayCommands: Int
    var replayRuns: Int

    static func forSize(_ elements: Int, quick: Bool) -> Plan {
        let big = elements >= 1_000_000, medium = elements >= 50_000
        if quick {
            return Plan(loads: medium ? 5 : 20, navigatorSteps: 5_000, sessionSteps: 2_000,
                        rebuilds: medium ? 5 : 50, replayCommands: 10_000, replayRuns: 3)
        }
        return Plan(loads: big ? 3 : medium ? 15 : 50, navigatorSteps: 20_000, sessionSteps: 5_000,
                    rebuilds: big ? 5 : medium ? 20 : 200, replayCommands: 20_000, replayRuns: big ? 3 : 5)
    }
}
