import Foundation
import Research

/// The texts of the participant pages in one language: the built-in tables, a study's overrides, and a
/// fallback from the most specific language to English.
///
/// ```swift
/// let strings = WebStrings(language: "zh-Hans-CN", overrides: ["zh-Hans": ["next": "继续"]])
/// strings[.next]                                         // "继续": the study's override
/// strings.format(.stepProgress, ["current": 2, "total": 5])   // "第 2 步，共 5 步"
/// ```
///
/// A key is looked up in `zh-Hans-CN`, then `zh-Hans`, then `zh`, then `en`; at each of those languages the
/// study's override comes before the built-in text. Chinese without a script (`zh`, `zh-CN`, `zh-SG`)
/// reads the Simplified Chinese table.
public struct WebStrings: Sendable {
    /// The language asked for, as given.
    public let language: String
    /// The languages searched for each key, most specific first, ending with `en`.
    public let fallbackChain: [String]
    /// The locale of ``language``, for the dates and numbers a text names.
    public let locale: Locale
    /// Every key's text as ``text(_:)`` finds it, worked out once: a page looks up dozens of texts.
    private let table: [String: String]

    /// The languages with built-in tables: English, Simplified Chinese, Japanese, Korean and Spanish.
    public static let builtInLanguages: [String] = ["en", "zh-Hans", "ja", "ko", "es"]

    /// Strings for `language` (a BCP 47 tag such as `ja` or `zh-Hans-CN`), with a study's `overrides`
    /// (language → key → text), which may replace built-in texts or add keys of the study's own.
    public init(language: String, overrides: [String: [String: String]] = [:]) {
        self.language = language
        self.fallbackChain = Self.fallbackChain(for: language)
        var normalized: [String: [String: String]] = [:]
        for (tag, table) in overrides { normalized[Self.canonical(tag), default: [:]].merge(table) { _, new in new } }
        // From the least specific language to the most, each language's built-in texts and then the study's own:
        // whatever comes later replaces what came before.
        var table: [String: String] = [:]
        for tag in fallbackChain.reversed() {
            if let answers = Self.answerMessages[tag] { table.merge(answers) { _, new in new } }
            if let builtIn = Self.builtIn[tag] { table.merge(builtIn) { _, new in new } }
            if let own = normalized[tag] { table.merge(own) { _, new in new } }
        }
        self.table = table
        self.locale = Locale(identifier: language)
    }

    /// The key under which the pages look up a message of Research's ``AnswerValidationMessages``, and a study may
    /// override it: `answer.numberRange`.
    public static func answerKey(_ key: String) -> String { AnswerValidationMessages.webKeyPrefix + key }

    /// Research's answer messages by language, under their ``answerKey(_:)``.
    private static let answerMessages: [String: [String: String]] = AnswerValidationMessages.tables.mapValues { table in
        Dictionary(uniqueKeysWithValues: table.map { (answerKey($0.key), $0.value) })
    }

    /// The text for a built-in key; always found, since English has every key.
    public subscript(key: WebStringKey) -> String {
        text(key.rawValue) ?? key.rawValue
    }

    /// The text for any key, built-in or a study's own; nil when no language in the chain has it.
    public func text(_ key: String) -> String? {
        table[key]
    }

    /// The text for `key` with its `{name}` placeholders replaced by `values`: `["current": 2, "total": 5]`.
    /// One pass: a value is never read for placeholders itself, and a `{name}` without a value stays as written.
    public func format(_ key: WebStringKey, _ values: [String: any CustomStringConvertible]) -> String {
        PlaceholderText.fill(self[key], values)
    }

    /// The built-in table of `language` exactly as shipped (no fallback); nil for a language without one.
    public static func builtInTable(_ language: String) -> [String: String]? {
        builtIn[canonical(language)]
    }

    /// The languages to search for `language`, most specific first: ``LanguageTag/fallbackChain``, then `en`.
    static func fallbackChain(for language: String) -> [String] {
        LanguageTag(language).fallbackChain(then: "en")
    }

    /// A tag in its usual case (``LanguageTag``): `ZH-hans-cn` → `zh-Hans-CN`.
    static func canonical(_ tag: String) -> String {
        LanguageTag(tag).description
    }
}
