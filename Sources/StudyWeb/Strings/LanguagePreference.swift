import Research
/// Chooses the page language from a browser's `Accept-Language` header.
public enum LanguagePreference {
    /// The supported language that best fits `acceptLanguage`, or nil when none fits (the caller then uses the
    /// study's default language).
    ///
    /// ```swift
    /// LanguagePreference.preferredLanguage(acceptLanguage: "fr-CH, ja;q=0.9, en;q=0.8", supported: ["en", "ja"])  // "ja"
    /// ```
    ///
    /// Ranges are tried by falling quality (`q`, 1 when absent; equal qualities keep the header's order); a range
    /// with `q=0`, or an unreadable `q`, is left out. A range matches a supported tag equal to it (ignoring case),
    /// then one equal to the range truncated one subtag at a time (`zh-Hans-CN` → `zh-Hans` → `zh`), then a
    /// supported tag that starts with it (`en` → `en-GB`); Chinese without a script, or from the mainland or
    /// Singapore, matches `zh-Hans` (Traditional Chinese does not). `*` takes the first supported language.
    ///
    /// Only the first ``maximumRanges`` ranges are read, and a range longer than ``maximumRangeLength`` is left
    /// out: a header is sent by anyone, and a huge one must not cost more than a normal one.
    public static func preferredLanguage(acceptLanguage: String?, supported: [String]) -> String? {
        guard let header = acceptLanguage, !supported.isEmpty else { return nil }
        var ranges: [(tag: String, quality: Double, order: Int)] = []
        for (order, entry) in header.split(separator: ",", maxSplits: maximumRanges).prefix(maximumRanges).enumerated() {
            guard entry.utf8.count <= maximumRangeLength + 32 else { continue }
            let parts = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, !tag.isEmpty, tag.utf8.count <= maximumRangeLength else { continue }
            var quality = 1.0
            var readable = true
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
                if let value = Double(pair[1]), (0...1).contains(value) { quality = value } else { readable = false }
            }
            if readable, quality > 0 { ranges.append((tag, quality, order)) }
        }
        ranges.sort { $0.quality != $1.quality ? $0.quality > $1.quality : $0.order < $1.order }
        for range in ranges {
            if let match = match(range.tag, in: supported) { return match }
        }
        return nil
    }

    /// The most language ranges read from one header (browsers send a handful).
    public static let maximumRanges = 32
    /// The longest language range read, in bytes (a BCP 47 tag with script, region and a variant is under 20).
    public static let maximumRangeLength = 64

    private static func match(_ range: String, in supported: [String]) -> String? {
        if range == "*" { return supported.first }
        func find(_ tag: String) -> String? { supported.first { WebStrings.canonical($0).lowercased() == tag.lowercased() } }
        let tag = LanguageTag(range)
        for candidate in tag.fallbackChain {
            if let found = find(candidate) { return found }
        }
        let wanted = tag.description.lowercased()
        return supported.first { WebStrings.canonical($0).lowercased().hasPrefix(wanted + "-") }
    }
}
