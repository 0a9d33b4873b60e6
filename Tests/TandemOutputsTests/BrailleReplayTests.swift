import Foundation
import TandemVocabulary
import Testing
import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession
import TandemTestSupport

/// The grocery story played on a real display, driven only by its keys, against the headless run.
@Suite(.serialized) struct BrailleReplayTests {
    /// One step of the story: the keys of a burst (commands at one instant), the wait after
    /// it, and the frame the headless run shows once the wait is over.
    struct Step {
        var commands: [Command] = []
        var wait = 0
        var expected: BrailleFrame?
        var line = 0
    }

    /// The BRLTTY command that `KeyMap.default` binds to `command` (plain BRLTTY commands
    /// before `KEY_*` ones, then by name), or nil when no display key does it.
    static func brailleKey(for command: Command) -> String? {
        if case .route(let cell) = command { return "ROUTE \(cell)" }
        let names = KeyMap.default.braille.filter { $0.value == .command(command) }.map(\.key)
        return names.sorted { ($0.hasPrefix("KEY_") ? 1 : 0, $0) < ($1.hasPrefix("KEY_") ? 1 : 0, $1) }.first
    }

    /// Plays the scenario headless, step by step, keeping the last braille frame after each
    /// wait (and at the end), and checks that this walk writes the same braille as `Replay`.
    static func headlessSteps(catalog: Catalog, scenario: Scenario) throws -> [Step] {
        let records = RecordingSink()
        var session = Session(catalog: catalog, profile: Profile(), sink: records, timing: .virtual, makeTranslator: louisTranslator(for:))
        session.start(at: 0)
        session.settle()
        var steps: [Step] = [Step(expected: records.lastBrailleFrame)]
        var current = Step()
        for line in scenario.lines {
            switch line.step {
            case .command(let c):
                session.perform(c, at: session.now)
                current.commands.append(c)
                current.line = line.number
            case .wait(let ms):
                session.advance(to: session.now + ms)
                current.wait = ms
                current.expected = records.lastBrailleFrame
                steps.append(current)
                current = Step()
            default:
                break
            }
        }
        session.settle()
        while let due = session.nextDeadline { session.advance(to: due) }
        current.expected = records.lastBrailleFrame
        steps.append(current)

        let reference = RecordingSink()
        _ = try Replay(catalog: catalog, scenario: scenario, profile: Profile(), profiles: ProfileStore(searchPath: []),
                       makeTranslator: louisTranslator(for:)).run(sink: reference)
        #expect(records.brailleFrames == reference.brailleFrames, "the step-by-step walk shows what Replay shows")
        return steps
    }

    @Test func groceryDrivenByDisplayKeysShowsTheHeadlessFramesAtEveryStep() throws {
        let (catalog, scenario) = try BrailleCatalogs.grocery()
        let steps = try Self.headlessSteps(catalog: catalog, scenario: scenario)
        #expect(steps.count > 15)

        let braille = try BrailleFixture(cells: 40)
        defer { braille.stop() }
        let live = try braille.showSession(catalog: catalog)
        let first = try #require(steps.first?.expected)
        #expect(braille.waitForDisplay { $0.shows(first) }.ok, "the opening frame")

        var pressed = 0
        for (i, step) in steps.enumerated().dropFirst() {
            for command in step.commands {
                if let key = Self.brailleKey(for: command) {
                    braille.press(key)
                    pressed += 1
                } else {
                    live.send(command)
                }
            }
            Thread.sleep(forTimeInterval: Double(step.wait) / 1000)
            guard let expected = step.expected else { continue }
            let result = braille.waitForDisplay(timeout: .seconds(3)) { $0.shows(expected) }
            let keys = step.commands.map { $0.name }.joined(separator: " ")
            let want = unicodeBraille(DisplayState.cells(showing: expected, columns: 40))
            #expect(result.ok, "step \(i) (line \(step.line), after \(keys)): display \(result.state?.description ?? "-"), headless \(want)")
        }
        #expect(pressed == steps.reduce(0) { $0 + $1.commands.count }, "every command had a display key")
        #expect(live.events.brailleCommands.count == pressed)
    }
}
