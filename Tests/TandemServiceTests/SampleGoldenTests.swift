import Testing
import TandemTestSupport

/// The sample stories under `Examples/` replay to their golden transcripts, byte for byte,
/// every time.
@Suite("sample golden transcripts")
struct SampleGoldenTests {
    static let samples = ["pizza", "albums", "jobs"]

    @Test("a sample's replay equals its golden file byte for byte", arguments: samples)
    func replayEqualsGolden(sample: String) throws {
        let run = try ReplayHarness.replay(example: sample)
        let golden = try Example(sample).golden()
        #expect(run.transcript == golden)
        if run.transcript != golden {
            let got = run.lines.map(\.json)
            let want = golden.split(separator: "\n").map(String.init)
            let i = got.indices.first { $0 >= want.count || got[$0] != want[$0] } ?? got.count
            Issue.record("first difference at line \(i + 1):\n  golden: \(i < want.count ? want[i] : "(none)")\n  replay: \(i < got.count ? got[i] : "(none)")")
        }
    }

    @Test("two runs of a sample are byte-identical", arguments: samples)
    func runsAreDeterministic(sample: String) throws {
        let a = try ReplayHarness.replay(example: sample)
        let b = try ReplayHarness.replay(example: sample)
        #expect(!a.transcript.isEmpty)
        #expect(a.transcript == b.transcript)
    }

    @Test("every expect line of a sample's scenario holds, and the run ends by itself", arguments: samples)
    func expectationsHold(sample: String) throws {
        let run = try ReplayHarness.replay(example: sample)
        #expect(run.result.failures.isEmpty, "\(run.result.failures)")
        #expect(!run.result.cutShort)
        #expect(run.events("expect-failed").isEmpty)
    }
}
