import Foundation
import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemVocabulary

/// What a sighted colleague sees on the terminal during `tandem run`: the braille window (cells
/// and the text under them) and what is spoken. Append-only lines, no cursor movement, so a
/// screen reader on the same terminal reads them as ordinary output.
final class ScreenView: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private let wanted: Bool
    private var speechDown = false
    private var brailleDown = false
    private var announcedFallback = false

    /// `wanted`: the view was asked for (a terminal, no `--quiet-screen`). It also comes on by
    /// itself when neither speech nor braille can be reached.
    init(wanted: Bool) { self.wanted = wanted }

    private var showing: Bool { wanted || (speechDown && brailleDown) }

    func emit(_ record: Record, at time: Int) {
        lock.lock(); defer { lock.unlock() }
        switch record {
        case .outputStatus(let s):
            switch s.output {
            case .speech: speechDown = !s.available
            case .braille: brailleDown = !s.available
            }
            if speechDown && brailleDown && !announcedFallback {
                announcedFallback = true
                write("tandem: neither speech nor braille is reachable; showing the session here")
            }
        case .braille(let f) where showing:
            write(Self.brailleLine(cells: unicodeBraille(f.cells), text: f.text,
                                   window: f.windowCount > 1 ? "\(f.window + 1)/\(f.windowCount)" : nil, flash: f.flash))
        case .speech(.speak(let s)) where showing:
            write(Self.speechLine(s.utterance.text))
        default:
            break
        }
    }

    /// What is spoken, as the view prints it.
    static func speechLine(_ text: String) -> String { "speech  » \(text)" }

    /// A braille frame as the view prints it: the cells, the text under them, which window of
    /// several (`2/3`; nil for one), whether it is a flash message.
    static func brailleLine(cells: String, text: String, window: String?, flash: Bool) -> String {
        "braille │ \(cells) │ \(text)\(window.map { "  [\($0)]" } ?? "")\(flash ? "  (message)" : "")"
    }

    /// Prints a line of the view's own (`tandem run --connect` prints what the transcript says),
    /// never in the middle of another.
    func print(line: String) {
        lock.lock(); defer { lock.unlock() }
        write(line)
    }

    private func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
