import TandemOutputs
import TandemVocabulary

extension RecordingSink {
    /// The braille frames emitted, in order.
    public var brailleFrames: [BrailleFrame] {
        records.compactMap { if case .braille(let f) = $0.record { f } else { nil } }
    }

    /// The last braille frame emitted.
    public var lastBrailleFrame: BrailleFrame? {
        for r in records.reversed() { if case .braille(let f) = r.record { return f } }
        return nil
    }
}
