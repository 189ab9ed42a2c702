import Foundation

/// A signer's name as printed under a signature, in the order of the participant's language.
///
/// Chinese, Japanese and Korean put the family name first for names written in their own scripts; other
/// languages, and names in Latin letters (which Chinese, Japanese and Korean texts also write given name first),
/// put the given name first. Chinese and Korean names in their own script are written without a space (王小明,
/// 김민준); Japanese names keep one (山田 太郎), as Japanese forms do.
public enum PrintedName {
    /// Whether names in the language's own script are written family name first in `language` (a BCP 47 tag);
    /// also the order in which the name form asks for them.
    public static func isFamilyNameFirst(language: String) -> Bool {
        ["zh", "ja", "ko"].contains(primaryLanguage(language))
    }

    /// The full name; either part may be missing. Empty when both are.
    public static func format(givenName: String?, familyName: String?, language: String) -> String {
        let given = givenName?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let family = familyName?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !given.isEmpty, !family.isEmpty else { return given.isEmpty ? family : given }
        let primary = primaryLanguage(language)
        let eastAsian = isEastAsianScript(given) && isEastAsianScript(family)
        guard isFamilyNameFirst(language: language), eastAsian else { return "\(given) \(family)" }
        return primary == "ja" ? "\(family) \(given)" : family + given
    }

    private static func primaryLanguage(_ language: String) -> String {
        language.replacingOccurrences(of: "_", with: "-").split(separator: "-").first.map { $0.lowercased() } ?? ""
    }

    /// Whether every character is a Han ideograph, Hangul, or kana.
    private static func isEastAsianScript(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F, // kana, Han
                 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF, 0x00B7, 0x30FB: // Hangul, middle dots
                true
            default:
                false
            }
        }
    }
}
