import Foundation

/// The parsers typed answers of several formats share: "I don't know" and plain numbers. Each format's own parser
/// (heights, dates, durations, choices) lives in its family file.
enum TextInput {
    static let posix = Locale(identifier: "en_US_POSIX")

    /// "?", "dk" or the option's own text (case-insensitive), the standard "I don't know" with either apostrophe.
    static func isDontKnow(_ text: String, option: DontKnowOption) -> Bool {
        let typed = text.lowercased().replacingOccurrences(of: "’", with: "'")
        var accepted: Set<String> = ["?", "dk", "i don't know"]
        if let own = option.text { accepted.insert(own.lowercased().replacingOccurrences(of: "’", with: "'")) }
        return accepted.contains(typed)
    }

    /// Rewrites the locale's decimal separator (and the typographic minus) so that the text uses ASCII `.` and `-`.
    static func plainNumerals(_ text: String, separator: String) -> String {
        var text = text.replacingOccurrences(of: "\u{2212}", with: "-")
        if separator != ".", !separator.isEmpty { text = text.replacingOccurrences(of: separator, with: ".") }
        return text
    }

    /// Parses `12`, `-3`, `2.5`, `.5` or `2,5` (with a comma locale) exactly, as a decimal.
    static func decimal(_ text: String, separator: String) -> Decimal? {
        let text = plainNumerals(text.trimmingCharacters(in: .whitespaces), separator: separator)
        guard isPlainDecimal(text) else { return nil }
        return Decimal(string: text, locale: posix)
    }

    /// Whether `text` is `[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)` with ASCII digits: a sign, then digits with an optional
    /// point and digits, or a point and digits. Checked by hand: a regex literal is parsed again at each use, which
    /// cost a twentieth of a server's answer post.
    static func isPlainDecimal(_ text: String) -> Bool {
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var rest = text.utf8[...]
        if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { rest = rest.dropFirst() }
        let whole = rest.prefix(while: isDigit).count
        rest = rest.dropFirst(whole)
        var fraction = 0
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            fraction = rest.prefix(while: isDigit).count
            rest = rest.dropFirst(fraction)
        }
        return rest.isEmpty && (whole > 0 || fraction > 0)
    }

    /// A typed number, or the participant's reason why it is none: "Enter a whole number." or "Enter a number.".
    static func number(_ text: String, separator: String, whole: Bool) throws(AnswerValidationError) -> Decimal {
        guard let value = decimal(text, separator: separator) else {
            throw AnswerValidationError(whole ? .enterWholeNumber : .enterNumber)
        }
        return value
    }
}
