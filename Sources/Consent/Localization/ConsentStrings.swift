import Foundation
import JSONDiagnostics
import Research

/// The consent strings in every language: the built-in tables, with a study's overrides on top.
///
/// A lookup walks from the most specific form of the language to English: `zh-Hans-CN`, then `zh-Hans`,
/// then `en`; at each step a study's override wins over the built-in string. `zh`, `zh-CN` and `zh-SG`
/// read the Simplified Chinese table; Traditional Chinese (`zh-Hant`, `zh-TW`, `zh-HK`, `zh-MO`) has no
/// built-in table and falls back to English unless the study provides one.
///
/// ```swift
/// let strings = try ConsentStrings.load(overridesJSON)   // {"ja": {"agree": "同意します"}}
/// strings.string(.agree, language: "ja-JP")              // "同意します"
/// strings.string(.sharingInvestigatorsOnly, language: "en", "the Recover team")
/// ```
public struct ConsentStrings: Hashable, Sendable {
    /// The study's strings by language tag and key; they win over the built-in ones.
    public private(set) var overrides: [String: [ConsentStringKey: String]]

    /// The languages with a complete built-in table.
    public static let builtInLanguages = ["en", "zh-Hans", "ja", "ko", "es"]

    /// Only the built-in strings.
    public static let builtIn = ConsentStrings()

    /// Creates string tables with the study's `overrides` (language tag → key → string) over the built-in ones.
    /// Language tags are normalized, so `ja_JP` and `ja-jp` both mean `ja-JP`.
    public init(overrides: [String: [ConsentStringKey: String]] = [:]) {
        var normalized: [String: [ConsentStringKey: String]] = [:]
        for (language, table) in overrides {
            normalized[Self.normalize(language), default: [:]].merge(table) { _, new in new }
        }
        self.overrides = normalized
    }

    /// The string for `key` in `language`, from the first table along the fallback chain that has it.
    public func string(_ key: ConsentStringKey, language: String) -> String {
        for tag in Self.fallbackChain(for: language) {
            if let text = overrides[tag]?[key] ?? ConsentStringTables.tables[tag]?[key] { return text }
        }
        return ConsentStringTables.english[key] ?? key.rawValue
    }

    /// The string for `key` in `language` with its `%@` (or `%1$@`, `%2$@`…) placeholders replaced by
    /// `arguments`, in order; `%%` gives a percent sign.
    public func string(_ key: ConsentStringKey, language: String, _ arguments: String...) -> String {
        Self.format(string(key, language: language), arguments)
    }

    /// The tags a lookup in `language` tries, most specific first, ending with `en`.
    public static func fallbackChain(for language: String) -> [String] {
        LanguageTag(language).fallbackChain(then: "en")
    }

    /// The language of the built-in table a lookup in `language` ends up in (`en` when none matches).
    public static func builtInLanguage(for language: String) -> String {
        fallbackChain(for: language).first { ConsentStringTables.tables[$0] != nil } ?? "en"
    }

    /// `ja_jp` → `ja-JP`, `zh-hans-cn` → `zh-Hans-CN`: ``LanguageTag``'s usual case.
    public static func normalize(_ language: String) -> String {
        LanguageTag(language).description
    }

    /// Replaces `%@`, `%1$@`, `%2$@`… in `template` with `arguments` and `%%` with `%`. A placeholder without
    /// an argument is left as it is, so a missing argument shows instead of vanishing.
    public static func format(_ template: String, _ arguments: [String]) -> String {
        var result = ""
        var next = 0
        var index = template.startIndex
        while index < template.endIndex {
            let character = template[index]
            guard character == "%" else {
                result.append(character)
                index = template.index(after: index)
                continue
            }
            let rest = template[template.index(after: index)...]
            if rest.hasPrefix("%") {
                result.append("%")
                index = template.index(index, offsetBy: 2)
            } else if rest.hasPrefix("@") {
                result += next < arguments.count ? arguments[next] : "%@"
                next += 1
                index = template.index(index, offsetBy: 2)
            } else if let dollar = rest.firstIndex(of: "$"), let position = Int(rest[rest.startIndex..<dollar]),
                      rest[rest.index(after: dollar)...].hasPrefix("@") {
                let end = template.index(dollar, offsetBy: 2)
                result += position >= 1 && position <= arguments.count ? arguments[position - 1] : String(template[index..<end])
                index = end
            } else {
                result.append("%")
                index = template.index(after: index)
            }
        }
        return result
    }

    /// How many arguments a template takes: the highest position named, or the count of `%@`.
    static func placeholderCount(_ template: String) -> Int {
        let sequential = template.replacingOccurrences(of: "%%", with: "").components(separatedBy: "%@").count - 1
        var positional = 0
        for position in 1...9 where template.contains("%\(position)$@") { positional = position }
        return max(sequential, positional)
    }

    /// Reads a study's string overrides: `{"ja": {"agree": "同意します"}, "es": {…}}`; `ja_JP` is read as `ja-JP`. Every problem is
    /// reported with its path: malformed JSON, a bad language tag, an unknown key (with a "did you mean"),
    /// an empty string, or a string whose placeholders do not match the built-in one's.
    public static func load(_ data: Data) throws(ConsentValidationFailure) -> ConsentStrings {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ConsentValidationFailure(problems: [ConsentDefinitionError(path: "", message: "malformed JSON: \(JSONDiagnostics.describeSyntaxError(in: data))")])
        }
        guard let languages = json as? [String: Any] else {
            throw ConsentValidationFailure(problems: [ConsentDefinitionError(path: "", message: "string overrides must be an object of languages, such as {\"ja\": {\"agree\": \"同意します\"}}")])
        }
        var problems: [ConsentDefinitionError] = []
        var overrides: [String: [ConsentStringKey: String]] = [:]
        let knownKeys = ConsentStringKey.allCases.map(\.rawValue)
        for language in languages.keys.sorted() {
            guard ConsentDocumentValidator.isLanguageTag(normalize(language)) else {
                problems.append(ConsentDefinitionError(path: language, message: "'\(language)' is not a BCP 47 language tag such as 'en', 'ja' or 'zh-Hans'"))
                continue
            }
            guard let table = languages[language] as? [String: Any] else {
                problems.append(ConsentDefinitionError(path: language, message: "expected an object of strings by key"))
                continue
            }
            problems += ConsentKeyChecker.unknownKeys(in: table, known: knownKeys, path: language)
            for name in table.keys.sorted() {
                guard let key = ConsentStringKey(rawValue: name) else { continue }
                let path = "\(language).\(name)"
                guard let text = table[name] as? String else {
                    problems.append(ConsentDefinitionError(path: path, message: "expected a string"))
                    continue
                }
                if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    problems.append(ConsentDefinitionError(path: path, message: "must not be empty"))
                }
                let expected = placeholderCount(ConsentStringTables.english[key] ?? "")
                let found = placeholderCount(text)
                if found != expected {
                    problems.append(ConsentDefinitionError(path: path,
                        message: "takes \(expected) placeholder\(expected == 1 ? "" : "s") (%@), found \(found)"))
                }
                overrides[language, default: [:]][key] = text
            }
        }
        guard problems.isEmpty else { throw ConsentValidationFailure(problems: problems) }
        return ConsentStrings(overrides: overrides)
    }
}
