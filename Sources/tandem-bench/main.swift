import Foundation

// `tandem-bench`: generates catalogs of 1k, 100k and 1M elements and measures loading,
// navigation steps, whole sessions and replays on them (Docs/benchmarks.md).
//
//   tandem-bench               all sizes (about 3 minutes)
//   tandem-bench quick         1k and 100k, fewer repetitions (under 30 s)
//   tandem-bench one SIZE      internal: measure one size, print the result as JSON
//   tandem-bench policy-flood  the speech policy under a flood of events
//   tandem-bench hostile [modal] what one hostile app can make the service do (Docs/reliability.md); modal: only the rounds that change the whole order
//   tandem-bench hostile worst [SHAPE]  the single lines within the limits that cost most (Docs/reliability.md#line-bound)
//   tandem-bench import [ios|android]  tandem import of a 5,000-element page source (Docs/benchmarks.md#import)
//   tandem-bench braille HOST  braille output latency against a real BRLTTY
//   tandem-bench suites [CATALOGS SCENARIOS]
//                              a generated suite of 100 × 100 cases through tandem test
//   tandem-bench updates       an app's changes through the service, at 1k, 10k and 100k elements
//   tandem-bench serve-load    a real tandem serve under an app's stream and many clients
//   tandem-bench soak [--speechd N] [--brltty M] [--seconds S] [--seed X] [--ms-per-char C]
//                              a long live replay while the daemons are killed (Docs/reliability.md)
//   tandem-bench profile load|parse|next|replay SIZE [N]
//                              one piece of work alone, N times, for a profiler

let usage = """
    OVERVIEW: Benchmarks Tandem on generated catalogs.

    USAGE: tandem-bench [full | quick | policy-flood | suites [C S] | braille HOST | speech-latency ADDRESS
                         | updates [SIZE…] | serve-load [OPTIONS] | profile WHAT SIZE [N]]

    SUBCOMMANDS:
      full (default)   1k, 100k and 1M elements
      quick            1k and 100k elements, fewer repetitions
      policy-flood     the speech policy under a flood of events
      hostile          deep chains, huge texts and floods from one app through the service;
                       hostile fair: a key's wait behind one client's round, through the runner
      hostile modal    only its rounds of small lines that change the whole reading order
      hostile worst    the single lines within the limits that cost most, wall and CPU
      import [ios|android]
                       importing a 5,000-element page source (iOS, Android, or one) against loading its catalog
      suites [CATALOGS SCENARIOS]
                       a generated suite (default 100 catalogs × 100 scenarios) run as tandem
                       test runs it: -j1, -j2 and four shards (Docs/benchmarks.md)
      braille HOST     braille output latency against the BRLTTY at HOST (Docs/braille.md)
      speech-latency ADDRESS
                       key press to SSIP SPEAK against the speech-dispatcher at ADDRESS (Docs/speech.md)
      updates [SIZE…] [--layout sections|flat] [--seconds S]
                       one change an app sends (set, update, screen) through the service, on app
                       screens of SIZE elements (default 1000 10000 100000), in both layouts;
                       each figure takes up to 2000 samples or S seconds (default 2)
      serve-load [--seconds S | --full] [--elements N] [--updates N] [--readers N] [--speech ADDRESS] [--pin] [--gap MS]
                       [--keep DIR] [--realtime]
                       a real tandem serve (the tandem beside this binary) over its socket: an app of
                       N elements (default 10000) sending N sets a second (default 1000), N
                       controllers reading the transcript (default 8), one navigating and timing
                       each command to its speech, one that stops reading; memory once a second.
                       S seconds measured (default 60; --full: 600) after 5 s of warm-up;
                       --pin: tandem serve alone on CPU 0, the benchmark on the other CPUs;
                       --gap: ms from a command's speech to the next command (default 20);
                       --keep: the SSIP trace and each command's times kept in DIR;
                       --realtime: tandem serve --realtime (SCHED_FIFO; root or an rtprio limit)
      soak [--speechd N] [--brltty M] [--seconds S] [--seed X] [--port-offset P] [--ms-per-char C] [--keep]
                       a live replay through a private speech-dispatcher and BRLTTY, SIGKILLed
                       and restarted N (1000) and M (200) times at seeded random moments;
                       lost and doubled announcements, recovery times (Docs/reliability.md)
      atspi [N]        the AT-SPI bridge on a private desktop with the GTK test app and Chromium:
                       focus event to speech and to SSIP SPEAK at a private speech-dispatcher
                       (beside the protocol's), a 1,000-node page read, one
                       changed node a frame; N samples (default 50) (Docs/atspi.md#speed)
      profile WHAT SIZE [N]
                       WHAT (load, parse, next, replay) alone, N times (default 5), to run under
                       perf or callgrind
      one SIZE         (internal) measure one size and print JSON
      suite-run DIR …  (internal) run one suite and print JSON
      suite-write DIR C S, catalog-write SIZE FILE
                       (internal) write a generated suite or catalog and keep it
    """

func printErr(_ s: String) { FileHandle.standardError.write(Data((s + "\n").utf8)) }

func runSizes(_ sizes: [Int], quick: Bool) -> Int32 {
    var results: [SizeResult] = []
    for size in sizes {
        printErr("tandem-bench: measuring \(Report.sizeName(size)) elements…")
        do { results.append(try ChildRun.measure(size: size, quick: quick)) } catch {
            printErr("tandem-bench: error: \(error)")
            return 1
        }
    }
    print(Report(mode: quick ? "quick" : "full", machine: .current(), results: results).render())
    return 0
}

let args = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch args.first {
case nil, "full":
    status = runSizes([1_000, 100_000, 1_000_000], quick: false)
case "quick":
    status = runSizes([1_000, 100_000], quick: true)
case "one":
    if args.count >= 2, let size = Int(args[1]), size >= CatalogGenerator.smallest {
        do {
            try ChildRun.runChild(size: size, quick: args.dropFirst(2).contains("--quick"))
            status = 0
        } catch {
            printErr("tandem-bench: error: \(error)")
            status = 1
        }
    } else {
        printErr("tandem-bench: error: one takes a number of elements (at least \(CatalogGenerator.smallest))")
        status = 64
    }
case "profile":
    if args.count >= 3, let target = ProfileTarget(rawValue: args[1]), let size = Int(args[2]), size >= CatalogGenerator.smallest {
        do {
            print(try target.run(size: size, times: args.count >= 4 ? max(1, Int(args[3]) ?? 5) : 5))
            status = 0
        } catch {
            printErr("tandem-bench: error: \(error)")
            status = 1
        }
    } else {
        printErr("tandem-bench: error: profile takes one of \(ProfileTarget.allCases.map(\.rawValue).joined(separator: ", ")) and a number of elements")
        status = 64
    }
case "suites":
    let numbers = args.dropFirst().compactMap { Int($0) }
    if numbers.count == args.count - 1, numbers.count == 0 || (numbers.count == 2 && numbers.allSatisfy { $0 >= 1 }) {
        do {
            print(try SuiteBenchmark.run(catalogs: numbers.first ?? 100, scenarios: numbers.last ?? 100))
            status = 0
        } catch {
            printErr("tandem-bench: error: \(error)")
            status = 1
        }
    } else {
        printErr("tandem-bench: error: suites takes a number of catalogs and a number of scenarios each (default 100 100)")
        status = 64
    }
case "import":
    do {
        // `import ios` or `import android`: one platform only (to profile one).
        print(try ImportBenchmark.run(only: args.count > 1 ? args[1] : nil), terminator: "")
        status = 0
    } catch {
        printErr("tandem-bench: error: \(error)")
        status = 1
    }
case "catalog-write":
    // Internal: writes one generated catalog (to time `tandem lint` or `tandem run` on it).
    if args.count == 3, let size = Int(args[1]), size >= CatalogGenerator.smallest {
        do {
            try Data(CatalogGenerator.generate(elements: size).json).write(to: URL(fileURLWithPath: args[2]))
            status = 0
        } catch {
            printErr("tandem-bench: error: \(error)")
            status = 1
        }
    } else {
        printErr("tandem-bench: error: catalog-write takes a number of elements and a file")
        status = 64
    }
case "suite-write":
    // Internal: writes the generated suite to a folder and keeps it (for profiling a run).
    if args.count == 4, let c = Int(args[2]), let s = Int(args[3]) {
        do {
            _ = try SuiteBenchmark.generate(root: args[1], catalogs: c, scenarios: s)
            status = 0
        } catch {
            printErr("tandem-bench: error: \(error)")
            status = 1
        }
    } else {
        printErr("tandem-bench: error: suite-write takes a folder, a number of catalogs and of scenarios")
        status = 64
    }
case "suite-run":
    do {
        try SuiteBenchmark.runChild(Array(args.dropFirst()))
        status = 0
    } catch {
        printErr("tandem-bench: error: \(error)")
        status = 1
    }
case "policy-flood":
    print(PolicyFloodBenchmark.run())
    status = 0
case "hostile" where args.count >= 2 && args[1] == "worst":
    print(WorstLineBenchmark.run(only: args.count >= 3 && args[2] != "all" ? args[2] : nil, runs: args.count >= 4 ? Int(args[3]) ?? 5 : 5))
    status = 0
case "hostile":
    if args.count >= 2 && args[1] == "fair" {
        print(FairRoundBenchmark.run())
    } else {
        print(args.count >= 2 && args[1] == "modal" ? HostileBenchmark.runModalRounds(only: args.count >= 3 ? args[2] : nil) : HostileBenchmark.run())
    }
    status = 0
case "braille":
    if args.count >= 2 {
        print(BrailleLatencyBenchmark.run(host: args[1]))
        status = 0
    } else {
        printErr("tandem-bench: error: braille takes a BrlAPI host (as in BRLAPI_HOST, e.g. 127.0.0.1:0)")
        status = 64
    }
case "speech-latency":
    if args.count >= 2 {
        print(SpeechLatencyBenchmark.run(address: args[1]), terminator: "")
        status = 0
    } else {
        printErr("tandem-bench: error: speech-latency takes a speech-dispatcher address (unix_socket:PATH); see Docs/speech.md")
        status = 64
    }
case "atspi":
    // the AT-SPI bridge on a private desktop (Docs/atspi.md#speed)
    do { print(try AtspiBenchmark.run(samples: Int(args.dropFirst().first ?? "") ?? 50), terminator: ""); status = 0 } catch {
        printErr("tandem-bench: error: \(error)")
        status = 1
    }
case "updates":
    var options = UpdatesBenchmark.Options()
    var sizes: [Int] = []
    var rest = args.dropFirst()[...]
    var bad: String?
    while let a = rest.popFirst() {
        switch a {
        case "--layout":
            if let v = rest.popFirst(), let l = AppScreen.Layout(rawValue: v) { options.layouts = [l] } else { bad = "--layout takes sections or flat" }
        case "--seconds":
            if let v = rest.popFirst(), let s = Double(v), s > 0 { options.secondsPerFigure = s } else { bad = "--seconds takes a number of seconds" }
        default:
            if let n = Int(a), n >= AppScreen.smallest { sizes.append(n) } else { bad = "updates takes sizes of at least \(AppScreen.smallest) elements, --layout and --seconds; found \"\(a)\"" }
        }
    }
    if let bad {
        printErr("tandem-bench: error: \(bad)")
        status = 64
    } else {
        if !sizes.isEmpty { options.sizes = sizes }
        print(UpdatesBenchmark.run(options), terminator: "")
        status = 0
    }
case "serve-load":
    var options = ServeLoadBenchmark.Options()
    var rest = args.dropFirst()[...]
    var bad: String?
    func count(_ v: String?, atLeast n: Int) -> Int? { v.flatMap { Int($0) }.flatMap { $0 >= n ? $0 : nil } }
    while let a = rest.popFirst() {
        switch a {
        case "--seconds":
            if let v = rest.popFirst(), let s = Double(v), s >= 4 { options.seconds = s } else { bad = "--seconds takes a number of seconds (at least 4)" }
        case "--full": options.seconds = 600
        case "--elements":
            if let n = count(rest.popFirst(), atLeast: AppScreen.smallest) { options.elements = n } else { bad = "--elements takes a number of at least \(AppScreen.smallest)" }
        case "--updates":
            if let n = count(rest.popFirst(), atLeast: 0) { options.updatesPerSecond = n } else { bad = "--updates takes a number of sets a second" }
        case "--readers":
            if let n = count(rest.popFirst(), atLeast: 0) { options.readers = n } else { bad = "--readers takes a number of controllers" }
        case "--speech":
            if let v = rest.popFirst() { options.speechAddress = v } else { bad = "--speech takes a speech-dispatcher address (unix_socket:PATH)" }
        case "--pin": options.pin = true
        case "--gap":
            if let n = count(rest.popFirst(), atLeast: 0) { options.commandGapMs = n } else { bad = "--gap takes milliseconds between commands (0 or more)" }
        case "--realtime": options.realtime = true
        case "--keep":
            if let v = rest.popFirst() { options.keep = v } else { bad = "--keep takes a folder" }
        default: bad = "serve-load does not take \"\(a)\""
        }
    }
    if let bad {
        printErr("tandem-bench: error: \(bad)")
        status = 64
    } else {
        do {
            print(try ServeLoadBenchmark.run(options), terminator: "")
            status = 0
        } catch {
            printErr("tandem-bench: error: \(error)")
            status = 1
        }
    }
case "soak":
    do {
        let report = try Soak(arguments: Array(args.dropFirst())).run()
        print(report.render(), terminator: "")
        status = report.clean ? 0 : 1
    } catch {
        printErr("tandem-bench: error: \(error)")
        status = 1
    }
case "-h", "--help", "help":
    print(usage)
    status = 0
default:
    printErr("tandem-bench: error: unknown subcommand \"\(args[0])\"\n\n\(usage)")
    status = 64
}
exit(status)
