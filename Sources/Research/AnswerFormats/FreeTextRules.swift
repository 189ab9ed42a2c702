import Foundation

/// What any text a participant types must be, whatever the question: no longer than a limit (so a post cannot store
/// megabytes), no control characters (NUL, ESC… which terminals, PDFs and CSV readers treat as commands), and no
/// bidirectional embedding, override or isolate characters (U+202A–U+202E, U+2066–U+2069), which make text read
/// differently than it is stored: a name with U+202E prints reversed. The marks U+200E, U+200F and U+061C, which
/// right-to-left writers type, are kept.
///
/// ```swift
/// try FreeTextRules.check(name, allowingLineBreaks: false, maximumLength: 200)
/// ```
public enum FreeTextRules {
    /// The longest text answer when the question sets no ``TextFormat/maximumLength``: 10,000 characters.
    public static let defaultMaximumLength = 10_000
    /// The longest address of a location answer: 1,000 characters.
    public static let maximumAddressLength = 1_000
    /// The longest text typed with an "other" choice: 1,000 characters.
    public static let maximumOtherTextLength = 1_000
    /// The longest email address (RFC 5321's path limit): 254 characters.
    public static let maximumEmailLength = 254

    /// Throws the participant's reason when `text` is too long or holds a character it must not; line breaks (and
    /// tabs) only where `allowingLineBreaks`.
    public static func check(_ text: String, allowingLineBreaks: Bool, maximumLength: Int) throws(AnswerValidationError) {
        if let scalar = forbiddenScalar(in: text, allowingLineBreaks: allowingLineBreaks) {
            throw AnswerValidationError(.invisibleCharacter, ["character": .text(describe(scalar)), "reason": .phrase(reason(for: scalar))])
        }
        if text.count > maximumLength {
            throw AnswerValidationError(.textTooLong, ["count": .integer(maximumLength)])
        }
    }

    /// The first character of `text` that no answer may hold; nil when there is none.
    public static func forbiddenScalar(in text: String, allowingLineBreaks: Bool) -> Unicode.Scalar? {
        text.unicodeScalars.first { scalar in
            switch scalar.value {
            case 0x0A, 0x0D, 0x09: !allowingLineBreaks
            case 0x00..<0x20, 0x7F..<0xA0: true
            case 0x202A...0x202E, 0x2066...0x2069: true
            case 0x2028, 0x2029: !allowingLineBreaks
            default: false
            }
        }
    }

    /// A character's code point and name, as messages show it: `U+202E RIGHT-TO-LEFT OVERRIDE`; control characters,
    /// which have no name, as `U+001B`.
    public static func describe(_ scalar: Unicode.Scalar) -> String {
        let code = String(format: "U+%04X", scalar.value)
        let name = scalar.properties.name ?? scalar.properties.nameAlias
        return name.map { "\(code) \($0)" } ?? code
    }

    /// Why `scalar` may not be in a text, as the key of a phrase that messages put in their `reason`.
    static func reason(for scalar: Unicode.Scalar) -> AnswerValidationError.Key {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069: .reasonChangesDirection
        case 0x0A, 0x0D, 0x2028, 0x2029: .reasonSingleLine
        case 0x09: .reasonNoTabs
        default: .reasonControlCharacter
        }
    }
}
