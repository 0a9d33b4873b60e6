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

    /// Docs/formats.md#reading-order: two frames are in one row when their vertical extents overlap by more than
    /// half the smaller height.
    public func sharesRow(with other: Frame) -> Bool {
        let overlap = min(maxY, other.maxY) - max(minY, other.minY)
        let smaller = min(height, other.height)
        if smaller <= 0 { return overlap >= 0 && minY == other.minY }
        return overlap > smaller / 2
    }

    /// Whether the two rectangles overlap with a positive area.
    public func intersects(_ other: Frame) -> Bool {
        min(maxX, other.maxX) > max(minX, other.minX) && min(maxY, other.maxY) > max(minY, other.minY)
    }
}
