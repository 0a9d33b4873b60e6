import Foundation

/// The printed report: one column per catalog size, one row per figure with its unit, the
/// growth of step times with size, and PASS/MISS against the targets.
struct Report {
    /// The targets.
    static let loadTargetMs = 300.0
    static let loadTargetSize = 100_000
    static let replayTargetStepsPerSecond = 10_000.0
    /// A step "does not grow" when, between 100k and 1M elements (both far beyond the CPU's
    /// caches), 10× the elements costs less than this factor: O(log n) gives 1.2×, O(n) 10×;
    /// the margin above 1.2× is for a shared machine's noise (up to 1.46× seen on O(1) steps).
    static let flatLimit = 2.0
    /// From 1k to 100k the step also pays for leaving the caches (a 1k screen's tables fit in
    /// L2, a 100k screen's do not; the instructions per step are the same), so that ratio is
    /// only held under a tenth of what O(n) would give (100×).
    static let cacheLimit = 10.0

    var mode: String
    var machine: Machine
    var results: [SizeResult]

    func render() -> String {
        var out: [String] = []
        out.append("Tandem benchmark (\(mode)) on \(machine.summary)")
        out.append("Each size runs in its own process; wall-clock times from CLOCK_MONOTONIC; p99 by nearest rank")
        out.append("(with fewer than 100 samples the p99 is the slowest sample).")
        out.append("")
        out += table()
        out.append("")
        out += growth()
        out.append("")
        out += targets()
        let notes = Set(results.flatMap(\.notes)).sorted()
        if !notes.isEmpty {
            out.append("")
            out += notes.map { "note: \($0)" }
        }
        return out.joined(separator: "\n")
    }

    // MARK: the table

    private struct Row {
        var group: String
        var name: String
        var unit: String
        var value: (SizeResult) -> String
    }

    private func table() -> [String] {
        let ms = 1e-6, us = 1e-3
        let rows: [Row] = [
            Row(group: "catalog", name: "elements", unit: "", value: { Self.number(Double($0.elements)) }),
            Row(group: "", name: "reachable stops (reading order)", unit: "", value: { Self.number(Double($0.reachable)) }),
            Row(group: "", name: "JSON text", unit: "MB", value: { Self.number(Double($0.jsonBytes) / 1e6) }),
            Row(group: "load", name: "decode + validate, median", unit: "ms", value: { Self.number($0.load.median * ms) }),
            Row(group: "", name: "p99", unit: "ms", value: { Self.number($0.load.p99 * ms) }),
            Row(group: "", name: "throughput (median)", unit: "MB/s", value: { Self.number(Double($0.jsonBytes) / 1e6 / ($0.load.median * 1e-9)) }),
            Row(group: "", name: "samples", unit: "", value: { String($0.load.count) }),
            Row(group: "order", name: "start: first reading-order build", unit: "ms", value: { Self.number($0.orderBuildNanoseconds * ms) }),
            Row(group: "next", name: "Navigator.perform(.next), median", unit: "µs", value: { Self.number($0.next.median * us) }),
            Row(group: "", name: "p99", unit: "µs", value: { Self.number($0.next.p99 * us) }),
            Row(group: "increment", name: "Navigator.perform(.increment), median", unit: "µs", value: { Self.number($0.increment.median * us) }),
            Row(group: "", name: "p99", unit: "µs", value: { Self.number($0.increment.p99 * us) }),
            Row(group: "", name: "samples (each)", unit: "", value: { Self.number(Double($0.next.count)) }),
            Row(group: "session", name: "next: perform + settle, median", unit: "µs", value: { Self.number($0.sessionNext.median * us) }),
            Row(group: "", name: "p99", unit: "µs", value: { Self.number($0.sessionNext.p99 * us) }),
            Row(group: "", name: "increment: perform + settle, median", unit: "µs", value: { Self.number($0.sessionIncrement.median * us) }),
            Row(group: "", name: "p99", unit: "µs", value: { Self.number($0.sessionIncrement.p99 * us) }),
            Row(group: "", name: "samples (each)", unit: "", value: { Self.number(Double($0.sessionNext.count)) }),
            Row(group: "action", name: "sets traits (order rebuilt), median", unit: "ms", value: { Self.number($0.structuralAction.median * ms) }),
            Row(group: "", name: "p99", unit: "ms", value: { Self.number($0.structuralAction.p99 * ms) }),
            Row(group: "replay", name: "steps per second, median", unit: "steps/s", value: { Self.number(Self.stepsPerSecond($0, $0.replayRuns.median)) }),
            Row(group: "", name: "p99 (slowest run)", unit: "steps/s", value: { Self.number(Self.stepsPerSecond($0, $0.replayRuns.p99)) }),
            Row(group: "", name: "commands × runs", unit: "", value: { "\(Self.number(Double($0.replayCommands))) × \($0.replayRuns.count)" }),
            Row(group: "", name: "fixed cost of a run (one-line scenario)", unit: "ms", value: { Self.number($0.replayFixed.median * ms) }),
            Row(group: "", name: "steps per second without it, median", unit: "steps/s",
                value: { Self.number(Self.stepsPerSecond($0, $0.replayRuns.median - $0.replayFixed.median)) }),
            Row(group: "memory", name: "peak RSS of the run", unit: "MB", value: { $0.peakBytes.map { Self.number(Double($0) / 1e6) } ?? "n/a" }),
            Row(group: "", name: "of which the process at start", unit: "MB", value: { $0.startBytes.map { Self.number(Double($0) / 1e6) } ?? "n/a" }),
            Row(group: "", name: "peak above the start, per element", unit: "B",
                value: { r in Self.perElement(r.peakBytes.flatMap { p in r.startBytes.map { p - $0 } }, r) }),
            Row(group: "", name: "load peak above baseline, per element", unit: "B", value: { Self.perElement($0.loadPeakBytes, $0) }),
            Row(group: "", name: "heap the catalog keeps, per element", unit: "B", value: { Self.perElement($0.catalogBytes, $0) }),
            Row(group: "", name: "JSON text, per element", unit: "B", value: { Self.number(Double($0.jsonBytes) / Double($0.elements)) }),
            Row(group: "", name: "Element struct stride (table only)", unit: "B", value: { String($0.elementStride) }),
        ]
        let columnWidth = 13
        var lines: [String] = []
        let header = pad("", 10) + pad("", 42) + pad("unit", 8)
            + results.map { Self.sizeName($0.requested).leftPadded(to: columnWidth) }.joined()
        lines.append(header)
        lines.append(String(repeating: "─", count: header.count))
        for row in rows {
            if !row.group.isEmpty, lines.count > 2 { lines.append("") }
            lines.append(pad(row.group, 10) + pad(row.name, 42) + pad(row.unit, 8)
                         + results.map { row.value($0).leftPadded(to: columnWidth) }.joined())
        }
        return lines
    }

    // MARK: growth and targets

    private static var stepFigures: [(name: String, path: KeyPath<SizeResult, Summary>)] { [
        ("Navigator next", \.next), ("Navigator increment", \.increment),
        ("Session next", \.sessionNext), ("Session increment", \.sessionIncrement),
    ] }

    private func growth() -> [String] {
        guard let small = results.first, results.count > 1 else { return [] }
        var lines = ["Growth of the median with catalog size (O(1) or O(log n): about 1×; O(n): the size ratio):"]
        let figures = Self.stepFigures + [("action that sets traits", \SizeResult.structuralAction)]
        for (name, path) in figures {
            var ratios: [String] = []
            for (a, b) in zip(results, results.dropFirst()) + (results.count > 2 ? [(small, results[results.count - 1])] : []) {
                ratios.append("\(Self.sizeName(b.requested))/\(Self.sizeName(a.requested)) \(Self.ratio(b[keyPath: path].median / a[keyPath: path].median))")
            }
            lines.append("  " + pad(name, 26) + ratios.map { pad($0, 18) }.joined())
        }
        return lines
    }

    private func targets() -> [String] {
        var lines = ["Targets:"]
        func mark(_ ok: Bool) -> String { ok ? "PASS" : "MISS" }
        let target = results.first { $0.requested == Self.loadTargetSize }
        if let r = target {
            let median = r.load.median * 1e-6
            lines.append("  \(mark(median < Self.loadTargetMs))  load + validate \(Self.sizeName(r.requested)) elements in under \(Int(Self.loadTargetMs)) ms: "
                         + "median \(Self.number(median)) ms, p99 \(Self.number(r.load.p99 * 1e-6)) ms")
        }
        if let small = results.first, let mid = target, small.requested < mid.requested {
            func ratios(_ a: SizeResult, _ b: SizeResult) -> [(String, Double)] {
                Self.stepFigures.map { ($0.name, b[keyPath: $0.path].median / a[keyPath: $0.path].median) }
            }
            func list(_ r: [(String, Double)]) -> String { r.map { "\($0.0) \(Self.ratio($0.1))" }.joined(separator: ", ") }
            let early = ratios(small, mid)
            var ok = early.allSatisfy { $0.1 < Self.cacheLimit }
            var detail = ["\(Self.sizeName(mid.requested))/\(Self.sizeName(small.requested)) under \(Self.ratio(Self.cacheLimit)) (O(n): 100×): \(list(early))"]
            if let big = results.last, big.requested > mid.requested {
                let late = ratios(mid, big)
                ok = ok && late.allSatisfy { $0.1 < Self.flatLimit }
                detail.insert("\(Self.sizeName(big.requested))/\(Self.sizeName(mid.requested)) under \(Self.ratio(Self.flatLimit)) (O(n): 10×): \(list(late))", at: 0)
            } else {
                detail.append("the 1M comparison needs the full run")
            }
            lines.append("  \(mark(ok))  a navigation step does not grow with the catalog:")
            lines += detail.map { "          " + $0 }
        }
        if let r = target {
            let median = Self.stepsPerSecond(r, r.replayRuns.median)
            lines.append("  \(mark(median >= Self.replayTargetStepsPerSecond && r.replayFailures == 0))  replay at least \(Self.number(Self.replayTargetStepsPerSecond)) steps/s on \(Self.sizeName(r.requested)) elements: "
                         + "median \(Self.number(median)), p99 \(Self.number(Self.stepsPerSecond(r, r.replayRuns.p99))) steps/s (whole runs of \(Self.number(Double(r.replayCommands))) commands)"
                         + (r.replayFailures == 0 ? "" : " (\(r.replayFailures) expect lines failed: the walk went astray)"))
        }
        return lines
    }

    // MARK: formatting

    static func stepsPerSecond(_ r: SizeResult, _ nanoseconds: Double) -> Double {
        Double(r.replayCommands) / (nanoseconds * 1e-9)
    }

    static func perElement(_ bytes: Int?, _ r: SizeResult) -> String {
        guard let bytes else { return "n/a" }
        return number(Double(bytes) / Double(r.elements))
    }

    static func sizeName(_ n: Int) -> String {
        if n >= 1_000_000, n % 1_000_000 == 0 { return "\(n / 1_000_000)M" }
        if n >= 1_000, n % 1_000 == 0 { return "\(n / 1_000)k" }
        return String(n)
    }

    static func ratio(_ x: Double) -> String { String(format: x < 10 ? "%.2f×" : "%.0f×", x) }

    /// Three significant figures below 100, whole numbers with thousands separators above.
    static func number(_ x: Double) -> String {
        guard x.isFinite else { return "n/a" }
        if abs(x) < 10 { return String(format: "%.2f", x) }
        if abs(x) < 100 { return String(format: "%.1f", x) }
        let whole = String(Int(x.rounded()))
        var out = ""
        for (i, c) in whole.reversed().enumerated() {
            if i > 0, i % 3 == 0, c != "-" { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }
}

private func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }
}
