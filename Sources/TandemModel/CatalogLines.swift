/// Where a catalog's screens and elements are written in its file: the line of each one's
/// `id`, so that a finding about an element (`tandem lint`) can name the line a person edits.
///
/// The decoder notes these lines as it reads the ids anyway; keeping them costs one integer an
/// element.
public struct CatalogLines: Sendable, Hashable {
    /// The line of each screen's `id`, by screen index.
    public var screens: [Int]
    /// The line of each element's `id`: `elements[screen][element]`, in table order.
    public var elements: [[Int]]
    /// Each element's `source`, where `tandem import` read it (`FILE:LINE:COLUMN` in a page
    /// source): `sources[screen][element]`, only for the elements that have one.
    public var sources: [[Int: String]]

    public init(screens: [Int] = [], elements: [[Int]] = [], sources: [[Int: String]] = []) {
        self.screens = screens; self.elements = elements; self.sources = sources
    }

    /// The `source` of element `element` on screen `screen`, when it has one.
    public func source(screen: Int, element: Int) -> String? {
        sources.indices.contains(screen) ? sources[screen][element] : nil
    }

    /// The line of element `element` on screen `screen`, when known.
    public func line(screen: Int, element: Int) -> Int? {
        guard elements.indices.contains(screen), elements[screen].indices.contains(element) else { return nil }
        return elements[screen][element]
    }

    /// The line of screen `screen`'s `id`, when known.
    public func line(screen: Int) -> Int? {
        screens.indices.contains(screen) ? screens[screen] : nil
    }
}
