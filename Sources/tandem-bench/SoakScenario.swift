/// The soak's scenario, on the grocery sample (`Examples/grocery`): about one second a cycle,
/// each cycle a focus move (`text`), an announcement at `message` and one at `important`
/// priority with texts that are never repeated ("announcement 17 message"), and every 15th
/// cycle a loading indicator (`progress`, its last step at `message`). Pauses after focus
/// moves let hints (`notification`) come. It ends with a quiet tail, so that whatever was
/// kept through the last restart has time to be said.
enum SoakScenario {
    /// Quiet time at the end of the scenario, in ms; no fault is injected in it.
    static let tail = 8_000
    /// The announcements' texts carry this word, so the capture can be searched for them.
    static let word = "announcement"

    /// A scenario of at least `seconds` seconds (plus the tail).
    static func text(seconds: Int) -> String {
        var lines = ["# tandem-bench soak: generated, \(seconds) s plus a \(tail / 1000) s tail"]
        var elapsed = 0
        var cycle = 0
        var number = 0
        while elapsed < seconds * 1000 {
            // six steps forward, six back: the product list, its steppers and the header
            lines.append(cycle % 12 < 6 ? "next" : "previous")
            lines.append("wait 250")
            number += 1
            lines.append("post announcement \(word) \(number) message")
            lines.append("wait 250")
            number += 1
            lines.append("post announcement priority=high \(word) \(number) important")
            lines.append("wait 500")
            elapsed += 1000
            if cycle % 15 == 14 {
                lines.append(#"post {"load": "checkout.loading", "ms": 1200, "steps": 4, "then": []}"#)
                lines.append("wait 1800")
                elapsed += 1800
            }
            cycle += 1
        }
        lines.append("wait \(tail)")
        return lines.joined(separator: "\n") + "\n"
    }
}
