import TandemModel
import TandemNavigator
import TandemOutputs
import TandemPresentation
import TandemService
import TandemSession
import TandemVocabulary
import TandemPOSIX

/// Measures one catalog size, in a process of its own (so that its peak memory is its own).
struct SizeBenchmark {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let size: Int
    let plan: Plan
    private var notes: [String] = []

    init(size: Int, quick: Bool) {
        self.size = size
        self.plan = Plan.forSize(size, quick: quick)
    }

    @Sendable static func translator(for p: Profile) -> any BrailleTranslator {
        LouisTranslator(contracted: p.contracted, computerBrailleAtCursor: p.computerBrailleAtCursor)
    }

    mutating func run() throws -> SizeResult {
        // Compiling the braille tables first keeps them out of the per-element figures.
        let missing = LouisTranslator().checkTables()
        if !missing.isEmpty { notes.append("liblouis tables missing (\(missing.joined(separator: ", "))): braille is blank cells") }
        let residentAtStart = ProcessMemory.resident

        let (generated, generateTime) = Monotonic.measure { CatalogGenerator.generate(elements: size) }
        let json = generated.json

        // Memory of one load: reset the peak, decode, keep the catalog, free the rest.
        let peakBeforeLoad = ProcessMemory.peak
        ProcessMemory.trim()
        let residentBefore = ProcessMemory.resident
        let heapBefore = ProcessMemory.heapInUse
        let canReset = ProcessMemory.resetPeak()
        if !canReset { notes.append("/proc/self/clear_refs refused: load peak not measured") }
        let catalog = try decode(json)
        let loadPeak = ProcessMemory.peak
        let heapAfter = ProcessMemory.heapInUse

        let elements = catalog.screens.reduce(0) { $0 + $1.elements.count }
        guard elements == size else { throw Failure(description: "decoded \(elements) elements, expected \(size)") }
        let load = try timeLoads(json)

        // Starting builds the screen's reading order, then focuses the screen's `focus`.
        var nav = Navigator(catalog: catalog)
        let build = Monotonic.measure { nav.start() }.nanoseconds
        let order = nav.readingOrder()
        let next = timeNext(&nav)
        let increment = try timeIncrement(catalog, stepper: generated.middleStepper)
        let sessionNext = timeSessionNext(catalog)
        let sessionIncrement = timeSessionIncrement(catalog, stepper: generated.middleStepper)
        let structural = try timeStructuralAction(catalog, cell: generated.middleCellWithActions)
        let (replay, replayFixed, failures) = try timeReplay(catalog)
        if failures > 0 { notes.append("\(failures) expect lines of the generated scenario failed at \(size) elements") }

        var peak = ProcessMemory.peak
        if let a = peak, let b = peakBeforeLoad { peak = max(a, b) }
        return SizeResult(
            requested: size, elements: elements, reachable: order.elements.count, jsonBytes: json.count, plan: plan,
            generateNanoseconds: Double(generateTime),
            load: load, orderBuildNanoseconds: Double(build), next: next, increment: increment,
            sessionNext: sessionNext, sessionIncrement: sessionIncrement, structuralAction: structural,
            replayCommands: plan.replayCommands, replayRuns: replay, replayFixed: replayFixed, replayFailures: failures,
            elementStride: MemoryLayout<Element>.stride,
            startBytes: residentAtStart, peakBytes: peak,
            loadPeakBytes: canReset ? both(loadPeak, residentBefore).map { $0.0 - $0.1 } : nil,
            catalogBytes: both(heapAfter, heapBefore).map { $0.0 - $0.1 },
            notes: notes)
    }

    func decode(_ json: [UInt8]) throws -> Catalog {
        var decoder = CatalogDecoder(file: "generated.catalog.json")
        do { return try decoder.decode(json) } catch { throw Failure(description: "the generated catalog does not load: \(error)") }
    }

    // MARK: load

    func timeLoads(_ json: [UInt8]) throws -> Summary {
        var samples: [UInt64] = []
        for _ in 0..<plan.loads {
            var decoder = CatalogDecoder(file: "generated.catalog.json")
            let start = Monotonic.now()
            let catalog = try? decoder.decode(json)
            samples.append(Monotonic.now() - start)
            guard catalog != nil else { throw Failure(description: "the generated catalog stopped loading") }
        }
        return Summary(nanoseconds: samples)
    }

    // MARK: navigator

    /// `next` through the whole order, back to `first` at the end (not timed).
    func timeNext(_ nav: inout Navigator) -> Summary {
        var samples: [UInt64] = []
        samples.reserveCapacity(plan.navigatorSteps)
        for _ in 0..<plan.navigatorSteps {
            let start = Monotonic.now()
            let events = nav.perform(.next)
            samples.append(Monotonic.now() - start)
            if case .boundary(.end)? = events.first { _ = nav.perform(.first) }
        }
        return Summary(nanoseconds: samples)
    }

    /// `increment` on one stepper, each followed by an untimed `decrement`, so every timed call
    /// really changes the value and runs the stepper's effects.
    func timeIncrement(_ catalog: Catalog, stepper: String) throws -> Summary {
        var nav = Navigator(catalog: catalog)
        _ = nav.start()
        _ = nav.post(.layoutChanged(focus: stepper))
        guard nav.focusedElement?.id == stepper else { throw Failure(description: "cannot focus \(stepper)") }
        // The first change copies the catalog the navigator shares with the caller: once a session.
        _ = nav.perform(.increment); _ = nav.perform(.decrement)
        var samples: [UInt64] = []
        samples.reserveCapacity(plan.navigatorSteps)
        for _ in 0..<plan.navigatorSteps {
            let start = Monotonic.now()
            let events = nav.perform(.increment)
            samples.append(Monotonic.now() - start)
            _ = nav.perform(.decrement)
            if case .boundary? = events.first { throw Failure(description: "increment on \(stepper) did nothing") }
        }
        return Summary(nanoseconds: samples)
    }

    /// A custom action that sets the cell's traits (a "Favoritar" toggle): the reading order is
    /// invalidated and rebuilt in the same call.
    func timeStructuralAction(_ catalog: Catalog, cell: String) throws -> Summary {
        var nav = Navigator(catalog: catalog)
        _ = nav.start()
        _ = nav.post(.layoutChanged(focus: cell))
        _ = nav.perform(.actionNext)
        guard nav.focusedElement?.id == cell, nav.rotor == 0 else { throw Failure(description: "cannot select an action on \(cell)") }
        var samples: [UInt64] = []
        for _ in 0..<plan.rebuilds {
            let start = Monotonic.now()
            _ = nav.perform(.activate)
            samples.append(Monotonic.now() - start)
        }
        return Summary(nanoseconds: samples)
    }

    // MARK: session

    func makeSession(_ catalog: Catalog) -> Session {
        var session = Session(catalog: catalog, profile: Profile(), sink: NullSink(), timing: .virtual,
                              makeTranslator: Self.translator)
        session.start(at: 0)
        session.settle()
        return session
    }

    /// One key press as a user makes it: the whole path to the (null) sink, 100 ms of virtual
    /// time between presses (not timed).
    func timeSessionNext(_ catalog: Catalog) -> Summary {
        var session = makeSession(catalog)
        var samples: [UInt64] = []
        for _ in 0..<plan.sessionSteps {
            let start = Monotonic.now()
            session.perform(.next, at: session.now)
            session.settle()
            samples.append(Monotonic.now() - start)
            if session.navigator.focusedElement?.id == "checkout" { session.perform(.first, at: session.now) }
            session.advance(to: session.now + 100)
        }
        return Summary(nanoseconds: samples)
    }

    func timeSessionIncrement(_ catalog: Catalog, stepper: String) -> Summary {
        var session = makeSession(catalog)
        session.post(.layoutChanged(focus: stepper), at: 0)
        session.perform(.increment, at: 0); session.perform(.decrement, at: 0)
        session.advance(to: 5_000)
        var samples: [UInt64] = []
        for _ in 0..<plan.sessionSteps {
            let start = Monotonic.now()
            session.perform(.increment, at: session.now)
            session.settle()
            samples.append(Monotonic.now() - start)
            session.perform(.decrement, at: session.now)
            session.advance(to: session.now + 100)
        }
        return Summary(nanoseconds: samples)
    }

    // MARK: replay

    /// Whole replays of a generated scenario into a null sink, after one warm-up run; and,
    /// interleaved with them so that both meet the same state of the heap, replays of a
    /// one-line scenario, which cost what every run pays whatever its length: the session's
    /// first reading order, the copy of the catalog that its first change makes, and freeing
    /// both at the end.
    func timeReplay(_ catalog: Catalog) throws -> (runs: Summary, fixed: Summary, failures: Int) {
        let scenario = try ScenarioGenerator.scenario(commands: plan.replayCommands, catalog: catalog)
        let oneLine = try Scenario.parse(#"post { "set": "cart.total", "value": "R$ 0,00" }"#, file: "fixed.scenario", catalog: catalog)
        var replay = Replay(catalog: catalog, scenario: scenario, profile: Profile(), profiles: ProfileStore(searchPath: []),
                            makeTranslator: Self.translator)
        let sink = NullSink()
        let warmup = try replay.run(sink: sink)
        var samples: [UInt64] = [], fixed: [UInt64] = []
        for _ in 0..<plan.replayRuns {
            replay.scenario = scenario
            samples.append(try Monotonic.measure { () throws(Diagnostic) in try replay.run(sink: sink) }.nanoseconds)
            replay.scenario = oneLine
            fixed.append(try Monotonic.measure { () throws(Diagnostic) in try replay.run(sink: sink) }.nanoseconds)
        }
        return (Summary(nanoseconds: samples), Summary(nanoseconds: fixed), warmup.failures.count)
    }
}

/// Both values, or nil.
private func both<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
