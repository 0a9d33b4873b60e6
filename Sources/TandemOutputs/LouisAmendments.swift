/// Rules Tandem adds to a liblouis table list after it compiles (`lou_compileString`), for
/// what the shipped table gets wrong and a reader would misread. Each set says why and where
/// the rule comes from; Docs/braille.md#numbers lists them.
public enum LouisAmendments {
    /// Portuguese: a lowercase letter a–j straight after a digit is preceded by dot 5 (⠐), so
    /// that "8h" reads ⠼⠓⠐⠓ and not ⠼⠓⠓ ("88"). Those ten letters are the digits' cells, and
    /// a number sign holds until a blank; the Grafia Braille para a Língua Portuguesa (2002,
    /// Brazil's and Portugal's braille commissions) separates them with dot 5. liblouis 3.24's
    /// `pt-pt-g1`/`pt-pt-g2` have no such rule; upstream's Portuguese table maintainer added it
    /// as `nonumsign 5` with `numericnocontchars abcdefghij` (liblouis pull request 2069, its
    /// test `1a, 2z, 3B, c4, D5, e6f, 7g8.` → `⠼⠁⠐⠁⠂ ⠼⠃⠵⠂ ⠼⠉⠨⠃⠂ ⠉⠼⠙⠂ ⠨⠙⠼⠑⠂ ⠑⠼⠋⠐⠋⠂ ⠼⠛⠐⠛⠼⠓⠄`).
    ///
    /// Those two opcodes switch 3.24's table into numeric mode, where its `midnum` rules that
    /// carry their own number sign (`:` `/` `-`) write it twice (`12:30` → `⠼⠁⠃⠒⠼⠼⠉⠚`) and
    /// `10.000` gets a second one; so the same cells come from context rules instead, which
    /// touch nothing but a letter a–j right after a digit.
    public static let portugueseLetterAfterDigits: [String] = zip("abcdefghij", ["1", "12", "14", "145", "15", "124", "1245", "125", "24", "245"])
        .map { letter, dots in "noback context _$d[\"\(letter)\"] @5-\(dots)" }
}
