/// `accessibilityFrame`: a rectangle in screen points.
public struct Frame: Sendable, Hashable {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var minX: Double { x }
    public var maxX: Double { x + width }
    public var minY: Double { y }
    public var maxY: Double { y + height }

    /// The smallest frame containing both.
    public func union(_ other: Frame) -> Frame {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Frame(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// VoiceOver's row threshold on a phone: tops less than 8 points apart are one row.
    public static let phoneRowThreshold = 8.0
    /// VoiceOver's row threshold on a tablet.
    public static let tabletRowThreshold = 13.0

    /// Docs/formats.md#reading-order: two frames are in one row when their top edges are less than `threshold`
    /// points apart (as VoiceOver groups rows; cashapp/AccessibilitySnapshot documents it).
    public func sharesRow(with other: Frame, threshold: Double = Frame.phoneRowThreshold) -> Bool {
        abs(minY - other.minY) < threshold
    }

    /// Whether the two rectangles overlap with a positive area.
    public func intersects(_ other: Frame) -> Bool {
        min(maxX, other.maxX) > max(minX, other.minX) && min(maxY, other.maxY) > max(minY, other.minY)
    }
}
