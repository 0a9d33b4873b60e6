import Foundation
import Synchronization
import TandemOutputs
import TandemPolicy
import TandemPresentation
import TandemVocabulary

/// What a sighted colleague sees on the terminal during `tandem run`: the braille window (cells
/// and the text under them) and what is spoken. Append-only lines, no cursor movement, so a
/// screen reader on the same terminal reads them as ordinary output.
final class ScreenView: OutputSink, Sendable {
    private struct Outputs {
        var speechDown = false
        var brailleDown = false
        var announcedFallback = false
    }
    private let wanted: Bool
    /// Which outputs are down; held while a line is written, so lines never interleave.
    private let outputs = Mutex(Outputs())

    /// `wanted`: the view was asked for (a terminal, no `--quiet-screen`). It also comes on by
    /// itself when neither speech nor braille can be reached.
    init(wanted: Bool) { self.wanted = wanted }

    func emit(_ record: Record, at time: Int) {
        outputs.withLock { o in
            let showing = wanted || (o.speechDown && o.brailleDown)
            switch record {
            case .outputStatus(let s):
                switch s.output {
                case .speech: o.speechDown = !s.available
                case .braille: o.brailleDown = !s.available
                }
                if o.speechDown && o.brailleDown && !o.announcedFallback {
                    o.announcedFallback = true
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
        outputs.withLock { _ in write(line) }
    }

    private func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
