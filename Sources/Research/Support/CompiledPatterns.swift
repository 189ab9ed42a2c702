import Foundation
import StudyKitEnvironment

/// Regular expressions compiled once per pattern and shared by every task in the process.
///
/// Validation patterns and `matches` conditions come from study files, so the same few patterns are checked
/// again and again; compiling one costs far more than matching it. The cache holds at most
/// ``capacity`` patterns and starts afresh when full.
enum CompiledPatterns {
    /// Most patterns kept at once.
    static let capacity = 512

    /// A compiled pattern that may cross threads. `Regex<AnyRegexOutput>` is not `Sendable` only because its
    /// output type is not; the regex itself is immutable once built (its lazily lowered program is published
    /// atomically by the standard library), so sharing it for matching is safe.
    private struct SharedRegex: @unchecked Sendable {
        let regex: Regex<AnyRegexOutput>
    }

    private static let cache = KeptValues<String, SharedRegex>(capacity: capacity)

    /// The compiled pattern; throws the compiler's error when the pattern is not a valid regular expression.
    static func regex(_ pattern: String) throws -> Regex<AnyRegexOutput> {
        try cache.value(for: pattern) { SharedRegex(regex: try Regex(pattern)) }.regex
    }

    /// Whether `text` as a whole matches `pattern`; false for an invalid pattern.
    static func wholeMatch(_ pattern: String, _ text: String) -> Bool {
        guard let regex = try? regex(pattern) else { return false }
        return (try? regex.wholeMatch(in: text)) != nil
    }
}
