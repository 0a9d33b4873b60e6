import TandemService
import TandemSession

/// A recording's keys as the steps of a scenario, so that a recorded session's golden diff is
/// told by the key it followed and the recording's line (`after next at line 12: heard …`),
/// as a scenario's is. The app's own lines are not steps: what follows them is told after the
/// key before.
struct RecordedKeys {
    var scenario: Scenario
    /// The recording's lines, as `HeardDiff` quotes a step (the key's name).
    var source: [Substring]

    init(_ inputs: [(time: Int, input: RecordedInput)], file: String) {
        var lines: [Scenario.Line] = []
        var source: [Substring] = []
        var time = 0
        // `RecordedInput.read` skips blank lines; the steps carry their order, which is the
        // line number of a recording written by `tandem serve --record` (no blank lines).
        for (number, (t, input)) in zip(1..., inputs) {
            source.append("")
            guard case .key(let command, _) = input else { continue }
            if t > time {
                lines.append(Scenario.Line(number: number, step: .wait(t - time)))
                time = t
            }
            lines.append(Scenario.Line(number: number, step: .command(command)))
            source[number - 1] = Substring(command.name)
        }
        scenario = Scenario(file: file, lines: lines)
        self.source = source
    }
}
