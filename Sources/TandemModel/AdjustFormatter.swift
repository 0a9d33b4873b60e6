/// Renders an adjustable's number through its `format` (Docs/formats.md#element: "the current number renders
/// through `format` into `value`"), with the language's decimal separator.
public enum AdjustFormatter {
    public static func render(_ adjust: Adjust, language: String?) -> String {
        let number = format(number: adjust.value, language: language)
        guard let f = adjust.format else { return number }
        return StringFormat.render(f, [number])
    }

    /// Whole numbers without a fraction; otherwise up to three decimals, trailing zeros cut.
    public static func format(number: Double, language: String?) -> String {
        let sep = usesDecimalComma(language) ? "," : "."
        if number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        // From 1e15 on, thousandths do not fit an Int: such numbers keep Swift's own form
        // ("1e+20"), with the language's separator.
        guard abs(number) < 1e15 else { return String("\(number)".map { $0 == "." ? Character(sep) : $0 }) }
        var s = String(Int((abs(number) * 1000).rounded()))
        // A negative number that rounds to zero is "0", never "-0".
        let negative = number < 0 && s != "0"
        while s.count < 4 { s = "0" + s }
        var whole = String(s.dropLast(3)), frac = String(s.suffix(3))
        while frac.hasSuffix("0") { frac.removeLast() }
        if whole.isEmpty { whole = "0" }
        return (negative ? "-" : "") + whole + (frac.isEmpty ? "" : sep + frac)
    }

    static func usesDecimalComma(_ language: String?) -> Bool {
        guard let l = language?.lowercased() else { return false }
        return ["pt", "ru", "de", "fr", "es", "it"].contains { l == $0 || l.hasPrefix($0 + "-") }
    }
}

extension Element {
    /// The value as presented. A catalog's adjustable: its rendered number, else `value`. An
    /// app's element (`appOwned`): the `value` the app gives, else its adjustable's number —
    /// a running app owns what its elements say (Docs/protocol.md#adjustable).
    public func displayValue(language: String?, appOwned: Bool = false) -> String? {
        if appOwned, let value { return value }
        if let adjust { return AdjustFormatter.render(adjust, language: language) }
        return value
    }
}
