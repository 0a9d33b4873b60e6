/// The kind of device the catalog's app runs on (Tandem extension field `device`): VoiceOver
/// groups frames into rows more loosely on a tablet.
public enum Device: String, Sendable, Hashable, CaseIterable {
    case phone, tablet

    /// Frames whose tops are less than this many points apart are one row (Docs/formats.md#reading-order).
    public var rowThreshold: Double {
        switch self {
        case .phone: Frame.phoneRowThreshold
        case .tablet: Frame.tabletRowThreshold
        }
    }
}
