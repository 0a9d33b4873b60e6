/// The language tables Tandem speaks, one `.strings` file each under `Languages/`, embedded in
/// the binary by SwiftPM (`resources: [.embedInCode("Languages")]` makes `PackageResources`
/// with each file's bytes), so the module reads no file at run time.
///
/// A new language is a new file, `Languages/<BCP 47 tag>.strings`, and its line below; a test
/// fails when a file in the folder is not listed here.
enum LanguageTables {
    /// BCP 47 tag → the file's bytes. English first: it is the fallback for every key.
    static let embedded: [(language: String, bytes: [UInt8])] = [
        ("en", PackageResources.en_strings),
        ("pt-BR", PackageResources.pt_BR_strings),
        ("ru", PackageResources.ru_strings),
    ]

    /// The parsed files, by tag, parsed once.
    static let files: [String: StringsFile] = {
        var out: [String: StringsFile] = [:]
        for (language, bytes) in embedded { out[language] = StringsFile(bytes: bytes) }
        return out
    }()

    /// The table for `language`: the same tag (ignoring case), else the first table of its
    /// base language (`pt` and `pt-PT` → `pt-BR`), else English.
    static func match(_ language: String) -> String {
        let wanted = language.lowercased()
        if let exact = embedded.first(where: { $0.language.lowercased() == wanted }) { return exact.language }
        let base = wanted.split(separator: "-").first.map(String.init) ?? wanted
        if let sameBase = embedded.first(where: { $0.language.lowercased().split(separator: "-").first.map(String.init) == base }) {
            return sameBase.language
        }
        return "en"
    }
}
