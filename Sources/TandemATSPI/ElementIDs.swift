/// The ids the bridge gives accessibles: readable (`button-add-to-basket`), unique, and the
/// same for one object as long as the bridge runs, whatever its name becomes later. The same
/// app read twice in the same state gets the same ids (they follow the tree's order).
final class ElementIDs {
    private var ids: [Accessible: String] = [:]
    private var objects: [String: Accessible] = [:]

    func id(for a: Accessible, role: String, name: String) -> String {
        if let id = ids[a] { return id }
        let roleWord = Self.slug(role)
        let nameWords = Self.slug(name)
        let base = nameWords.isEmpty ? roleWord : roleWord + "-" + nameWords
        var id = base
        var n = 2
        while objects[id] != nil { id = "\(base)-\(n)"; n += 1 }
        ids[a] = id
        objects[id] = a
        return id
    }

    func existing(_ a: Accessible) -> String? { ids[a] }
    func object(_ id: String) -> Accessible? { objects[id] }

    /// Forgets an object that left the tree (its id may be given again to another).
    func forget(_ id: String) {
        if let a = objects.removeValue(forKey: id) { ids[a] = nil }
    }

    /// Lower-case ASCII letters and digits, words joined by `-`, at most 32 characters.
    static func slug(_ s: String) -> String {
        var out = ""
        var dash = false
        for ch in s.lowercased().unicodeScalars {
            if (ch >= "a" && ch <= "z") || (ch >= "0" && ch <= "9") {
                if dash && !out.isEmpty { out.append("-") }
                out.unicodeScalars.append(ch)
                dash = false
            } else {
                dash = true
            }
            if out.count >= 32 { break }
        }
        return out
    }
}
