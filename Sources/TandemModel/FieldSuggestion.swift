/// The known name a misspelled one most likely meant, for error messages ("lable" → "label").
enum FieldSuggestion {
    /// The closest of `known` to `name` within two edits (case ignored), if one is that close.
    static func nearest(_ name: String, in known: [String]) -> String? {
        let target = Array(name.lowercased().unicodeScalars)
        var best: (name: String, distance: Int)?
        for candidate in known {
            let d = distance(target, Array(candidate.lowercased().unicodeScalars))
            if d <= 2, d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        return best?.name
    }

    /// Levenshtein distance, one row at a time.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous + (a[i - 1] == b[j - 1] ? 0 : 1)
                previous = row[j]
                row[j] = min(substitution, row[j] + 1, row[j - 1] + 1)
            }
        }
        return row[b.count]
    }

    /// "unknown field "lable" (did you mean "label"?)", or the known names when none is close.
    static func unknownField(_ name: String, known: [String]) -> String {
        if let guess = nearest(name, in: known) { return "unknown field \"\(name)\" (did you mean \"\(guess)\"?)" }
        return "unknown field \"\(name)\" (known: \(known.joined(separator: ", ")))"
    }
}
