import TandemModel

extension Element {
    /// A container whose elements are read together and placed as one block
    /// (Docs/formats.md#reading-order).
    var formsGroup: Bool { group || order != nil || traits.contains(.tabBar) || container != nil }

    /// A container that tells its elements where they are (tab bar, segmented control, list,
    /// landmark, data table).
    public var givesContext: Bool {
        traits.contains(.tabBar) || (container != nil && container != .semanticGroup)
    }
}
