import TandemService
import TandemSession
import TandemVocabulary

/// A self-contained HTML report of a run (`tandem test --html DIR` writes `DIR/index.html`):
/// no script, no network, no external file. Per case: a heading, its facts, for a failure the
/// expected and actual lines side by side, and the speech timeline (what started, what was
/// cut, dropped or postponed and why, by priority) and the braille display's windows, as
/// cells and text.
///
/// Accessible itself: one `h2` a part and one `h3` a case; every table has a caption and
/// header cells; results are words with a symbol (colour only repeats them); speech text is
/// marked with its language, so a screen reader speaks Portuguese and Russian in their voices.
public enum HTMLReport {
    /// `notes`: lines under the title (the command, the shard). `failuresOnly`: passing cases
    /// are counted but not listed, which keeps a report of thousands of cases small.
    public static func html(_ summary: RunSummary, notes: [String] = [], failuresOnly: Bool = false) -> String {
        var h = HTMLWriter()
        h.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        h.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        h.raw("<title>\(Markup.escape("Tandem test report: " + summary.closingLine))</title>\n")
        h.raw("<style>\n\(style)</style>\n</head>\n<body>\n")
        h.raw("<a class=\"skip\" href=\"#cases\">Skip to the cases</a>\n<header>\n")
        h.element("h1", "Tandem test report")
        h.raw("<p class=\"totals\">")
        h.text(summary.closingLine)
        h.raw("</p>\n")
        for n in notes { h.element("p", n) }
        h.raw("</header>\n<main>\n")
        // What needs looking at comes first: failures and errors, then the passes, each in run order.
        let numbered = summary.results.enumerated().map { (number: $0.offset + 1, result: $0.element) }
        let listed = numbered.filter { !$0.result.passed } + (failuresOnly ? [] : numbered.filter(\.result.passed))
        summaryTable(summary, listed, &h)
        h.raw("<section id=\"cases\" aria-labelledby=\"cases-title\">\n")
        h.raw("<h2 id=\"cases-title\">Cases</h2>\n")
        if failuresOnly && summary.passed > 0 {
            h.element("p", "\(summary.passed) passing case\(summary.passed == 1 ? " is" : "s are") counted but not listed (--html-failures-only).")
        }
        for c in listed { section(c.result, number: c.number, &h) }
        h.raw("</section>\n</main>\n</body>\n</html>\n")
        return h.out
    }

    /// "Passed", "Failed", "Error", with a symbol that repeats the word.
    static func resultWord(_ r: CaseResult) -> (symbol: String, word: String, css: String) {
        switch r.outcome {
        case .passed: r.written == nil ? ("✓", "Passed", "pass") : ("✓", "Passed, golden written", "pass")
        case .failed: ("✗", "Failed", "fail")
        case .error: ("!", "Error", "error")
        }
    }

    static func summaryTable(_ summary: RunSummary, _ listed: [(number: Int, result: CaseResult)], _ h: inout HTMLWriter) {
        h.raw("<section aria-labelledby=\"summary-title\">\n<h2 id=\"summary-title\">Summary</h2>\n")
        h.raw("<table class=\"summary\">\n")
        let which = listed.count == summary.results.count ? "Every case" : "Every case not passed"
        h.element("caption", "\(which), failures first, then in run order: \(summary.closingLine)")
        h.raw("<thead><tr><th scope=\"col\">Case</th><th scope=\"col\">Result</th><th scope=\"col\">Time (ms)</th><th scope=\"col\">Golden file</th></tr></thead>\n<tbody>\n")
        for (i, r) in listed.map({ ($0.number - 1, $0.result) }) {
            let w = resultWord(r)
            h.raw("<tr><th scope=\"row\"><a href=\"#case-\(i + 1)\">")
            h.text(r.name)
            h.raw("</a></th><td class=\"\(w.css)\"><span aria-hidden=\"true\">\(w.symbol) </span>\(w.word)</td><td class=\"num\">\(Int(r.milliseconds.rounded()))</td><td>")
            h.text(r.golden ?? "—")
            h.raw("</td></tr>\n")
        }
        h.raw("</tbody>\n</table>\n</section>\n")
    }

    static func section(_ r: CaseResult, number: Int, _ h: inout HTMLWriter) {
        let id = "case-\(number)"
        let w = resultWord(r)
        h.raw("<section class=\"case case-\(w.css)\" id=\"\(id)\" aria-labelledby=\"\(id)-title\">\n")
        h.raw("<h3 id=\"\(id)-title\"><span class=\"badge \(w.css)\"><span aria-hidden=\"true\">\(w.symbol) </span>\(w.word)</span> ")
        h.text(r.name)
        h.raw("</h3>\n<dl class=\"facts\">\n")
        func fact(_ term: String, _ value: String?) {
            guard let value else { return }
            h.raw("<dt>\(term)</dt><dd>")
            h.text(value)
            h.raw("</dd>\n")
        }
        fact(r.catalog == nil ? "File" : "Scenario", r.file)
        fact("Catalog", r.catalog)
        fact("Profile", r.profile)
        fact("Language", r.language)
        fact("Golden file", r.golden)
        fact("Time", "\(Int(r.milliseconds.rounded())) ms")
        if let written = r.written {
            switch written {
            case .recorded(let g): fact("Written", "recorded \(g)")
            case .updated(let g, let n): fact("Written", "updated \(g) (\(n) changed line\(n == 1 ? "" : "s"))")
            }
        }
        h.raw("</dl>\n")
        switch r.outcome {
        case .passed: break
        case .error(let d):
            h.raw("<p class=\"problem\"><strong>Could not run:</strong> ")
            h.text(d.description)
            h.raw("</p>\n")
        case .failed(let failures):
            h.raw("<ul class=\"problem\">\n")
            for f in failures { h.element("li", f.summary(scenario: r.file)) }
            h.raw("</ul>\n")
            for f in failures {
                if case .differs(let golden, _, let heard) = f { heardTable(heard, golden: golden, language: r.language, id: id, &h) }
            }
        }
        if let lines = r.transcript {
            let timeline = Timeline(lines: lines)
            h.raw(r.passed ? "<details>\n" : "<details open>\n")
            h.raw("<summary>Speech and braille: \(timeline.speech.count) speech line\(timeline.speech.count == 1 ? "" : "s"), \(timeline.braille.count) braille window\(timeline.braille.count == 1 ? "" : "s")</summary>\n")
            speechTable(timeline, language: r.language, id: id, &h)
            priorityTable(timeline, id: id, &h)
            brailleTable(timeline, language: r.language, id: id, &h)
            h.raw("</details>\n")
        }
        h.raw("</section>\n")
    }

    /// The changes, a row a scenario step: speech expected and now beside each other, braille
    /// expected and now beside each other (never a speech line beside a braille one); sounds and
    /// events as sentences under the table.
    static func heardTable(_ heard: HeardDiff, golden: String, language: String?, id: String, _ h: inout HTMLWriter) {
        h.raw("<h4 id=\"\(id)-diff\">What changed, step by step</h4>\n<table class=\"diff\">\n<caption>")
        h.text("What the user hears and reads now, beside what \(golden) has: \(heard.counts)")
        h.raw("</caption>\n<thead><tr><th scope=\"col\">After step</th><th scope=\"col\">Speech expected</th><th scope=\"col\">Speech now</th>"
            + "<th scope=\"col\">Braille expected</th><th scope=\"col\">Braille now</th></tr></thead>\n<tbody>\n")
        var others: [(HeardDiff.Step, HeardDiff.Entry)] = []
        let lang = language.map { " lang=\"\(Markup.escape($0))\"" } ?? ""
        for step in heard.steps {
            let speech = step.entries.filter { ($0.got ?? $0.expected)?.channel == "speech" }
            let braille = step.entries.filter { ($0.got ?? $0.expected)?.channel == "braille" }
            others += step.entries.filter { !["speech", "braille"].contains(($0.got ?? $0.expected)?.channel ?? "") }.map { (step, $0) }
            for k in 0..<max(speech.count, braille.count) {
                h.raw("<tr><th scope=\"row\">")
                h.text(k > 0 ? "″" : step.line.map { "\(step.text) (line \($0))" } ?? "start")
                h.raw("</th>")
                for e in [k < speech.count ? speech[k] : nil, k < braille.count ? braille[k] : nil] {
                    for (side, css) in [(e?.expected, "removed"), (e?.got, "added")] {
                        guard let o = side else { h.raw("<td class=\"none\">\(e == nil ? "" : "(none)")</td>"); continue }
                        h.raw("<td class=\"\(css)\"><span class=\"who\">\(Markup.escape(o.verb))</span> <span\(lang)>")
                        h.text(o.value)
                        h.raw("</span>")
                        if let cells = o.cells { h.raw(" <span class=\"cells\">"); h.text(cells); h.raw("</span>") }
                        h.raw(" <span class=\"at\">")
                        h.text("(line \(o.line), \(HeardDiff.seconds(o.time)))")
                        h.raw("</span></td>")
                    }
                }
                h.raw("</tr>\n")
            }
        }
        h.raw("</tbody>\n</table>\n")
        guard !others.isEmpty else { return }
        h.raw("<ul class=\"others\" aria-label=\"Sounds and events that changed\">\n")
        for (step, e) in others {
            h.element("li", (step.line.map { "after \(step.text) (line \($0)): " } ?? "at the start: ") + HeardDiff.sentence(e))
        }
        h.raw("</ul>\n")
    }

    static func speechTable(_ t: Timeline, language: String?, id: String, _ h: inout HTMLWriter) {
        h.raw("<h4 id=\"\(id)-speech\">Speech timeline</h4>\n<table class=\"speech\">\n")
        h.element("caption", "Keys pressed and speech: what started, what was cut, dropped or postponed, and why")
        h.raw("<thead><tr><th scope=\"col\">Time (ms)</th><th scope=\"col\">What</th><th scope=\"col\">Priority</th><th scope=\"col\">Source</th><th scope=\"col\">Text</th><th scope=\"col\">Why</th></tr></thead>\n<tbody>\n")
        for e in t.speech {
            h.raw("<tr class=\"\(e.css)\"><th scope=\"row\" class=\"num\">\(e.time)</th><td>\(e.what)</td><td>")
            h.text(e.priority ?? "")
            h.raw("</td><td>")
            h.text(e.source ?? "")
            h.raw(e.language.map { "</td><td lang=\"\(Markup.escape($0))\">" } ?? "</td><td>")
            h.text(e.text)
            h.raw("</td><td>")
            h.text(e.reason ?? "")
            h.raw("</td></tr>\n")
        }
        h.raw("</tbody>\n</table>\n")
    }

    static func priorityTable(_ t: Timeline, id: String, _ h: inout HTMLWriter) {
        let counts = t.byPriority
        guard !counts.isEmpty else { return }
        h.raw("<h4 id=\"\(id)-priorities\">Speech by priority</h4>\n<table class=\"priorities\">\n")
        h.element("caption", "How many utterances of each priority started, were cut, dropped or postponed")
        h.raw("<thead><tr><th scope=\"col\">Priority</th><th scope=\"col\">Started</th><th scope=\"col\">Cut</th><th scope=\"col\">Dropped</th><th scope=\"col\">Postponed</th></tr></thead>\n<tbody>\n")
        for c in counts {
            h.raw("<tr><th scope=\"row\">")
            h.text(c.priority)
            h.raw("</th><td class=\"num\">\(c.started)</td><td class=\"num\">\(c.cut)</td><td class=\"num\">\(c.dropped)</td><td class=\"num\">\(c.postponed)</td></tr>\n")
        }
        h.raw("</tbody>\n</table>\n")
    }

    static func brailleTable(_ t: Timeline, language: String?, id: String, _ h: inout HTMLWriter) {
        guard !t.braille.isEmpty else { return }
        h.raw("<h4 id=\"\(id)-braille\">Braille display</h4>\n<table class=\"braille\">\n")
        h.element("caption", "Every window written to the display: cells, the text they show, and where the cursor is")
        h.raw("<thead><tr><th scope=\"col\">Time (ms)</th><th scope=\"col\">Kind</th><th scope=\"col\">Cells</th><th scope=\"col\">Text</th><th scope=\"col\">Window</th><th scope=\"col\">Cursor</th></tr></thead>\n<tbody>\n")
        for b in t.braille {
            h.raw("<tr><th scope=\"row\" class=\"num\">\(b.time)</th><td>\(b.flash ? "Message" : "Focus")</td><td class=\"cells\">")
            let cells = Array(b.cells)
            for (k, c) in cells.enumerated() {
                if k == b.cursor { h.raw("<mark title=\"cursor\">") }
                h.text(String(c))
                if k == b.cursor { h.raw("</mark>") }
            }
            h.raw(language.map { "</td><td lang=\"\(Markup.escape($0))\">" } ?? "</td><td>")
            h.text(b.text)
            h.raw("</td><td>")
            h.text(b.window)
            h.raw("</td><td>")
            h.text(b.cursor.map { "cell \($0 + 1)" } ?? "none")
            h.raw("</td></tr>\n")
        }
        h.raw("</tbody>\n</table>\n")
    }

    static let style = """
        :root { color-scheme: light; --pass: #0b6b2f; --fail: #a4001c; --error: #8a4b00; --line: #c8c8c8; }
        body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 80rem; padding: 0 1rem 3rem; color: #111; background: #fff; }
        .skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: #ffd; padding: .5rem; }
        h1 { margin-bottom: .25rem; } .totals { font-size: 1.2rem; font-weight: 600; }
        table { border-collapse: collapse; margin: .5rem 0 1.5rem; width: 100%; }
        caption { text-align: left; font-weight: 600; padding: .25rem 0; }
        th, td { border: 1px solid var(--line); padding: .2rem .4rem; text-align: left; vertical-align: top; }
        thead th { background: #f0f0f0; } .num { text-align: right; font-variant-numeric: tabular-nums; }
        .pass { color: var(--pass); } .fail { color: var(--fail); } .error { color: var(--error); }
        td.pass, td.fail, td.error { font-weight: 600; }
        .case { border-top: 3px solid var(--line); margin-top: 2rem; } .case-fail { border-top-color: var(--fail); } .case-error { border-top-color: var(--error); }
        .badge { font-size: .9em; padding: 0 .4rem; border: 2px solid currentColor; border-radius: .3rem; margin-right: .3rem; }
        .facts { display: grid; grid-template-columns: max-content 1fr; gap: 0 1rem; } .facts dt { font-weight: 600; } .facts dd { margin: 0; }
        .problem { border-left: 4px solid var(--fail); padding-left: .75rem; } ul.problem { padding-left: 2rem; }
        .diff code { white-space: pre-wrap; word-break: break-all; font-size: .85rem; }
        .removed { background: #fde8ea; } .added { background: #e6f4ea; } .none { color: #555; font-style: italic; }
        .who { font-size: .85em; color: #444; } .at { font-size: .8em; color: #555; }
        tr.cut td, tr.dropped td { text-decoration: line-through; text-decoration-thickness: 1px; }
        tr.key td { color: #444; font-style: italic; }
        .cells { font-size: 1.3rem; letter-spacing: .05em; white-space: nowrap; }
        mark { background: #ffe066; outline: 2px solid #111; }
        details > summary { cursor: pointer; font-weight: 600; margin: .5rem 0; }
        a:focus, summary:focus { outline: 3px solid #1a5fb4; outline-offset: 2px; }

        """
}

/// HTML text built by appending.
struct HTMLWriter {
    var out = ""
    mutating func raw(_ s: String) { out += s }
    mutating func text(_ s: String) { out += Markup.escape(s) }
    mutating func element(_ name: String, _ text: String) {
        out += "<\(name)>" + Markup.escape(text) + "</\(name)>\n"
    }
}
