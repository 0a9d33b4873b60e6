extension Screen {
    /// The JSON path of element `element` in the catalog file, as diagnostics write it:
    /// `screens[0].root.children[2].children[1]` (`screen`: this screen's index in the catalog).
    public func jsonPath(of element: Int, screen: Int) -> String {
        var steps: [Int] = []
        var i = element
        while let p = elements[i].parent {
            steps.append(elements[p].children.firstIndex(of: i) ?? 0)
            i = p
        }
        var path = "screens[\(screen)].root"
        for step in steps.reversed() { path += ".children[\(step)]" }
        return path
    }
}
