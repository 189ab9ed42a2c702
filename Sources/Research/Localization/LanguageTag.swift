import Foundation

/// A BCP 47 language tag in its usual case (`ja-JP`, `zh-Hans-CN`), and the one order in which StudyKit falls back
/// from it: for the consent document's strings, the web pages' strings, and the study's languages alike.
///
/// ```swift
/// LanguageTag("zh_cn").fallbackChain     // ["zh-CN", "zh-Hans", "zh"]
/// LanguageTag("zh-TW").fallbackChain     // ["zh-TW", "zh-Hant"]
/// LanguageTag("ja-JP").fallbackChain     // ["ja-JP", "ja"]
/// ```
///
/// Each caller ends the chain with its own default: English for the built-in tables, the study's first language for
/// a study.
public struct LanguageTag: Hashable, Sendable, CustomStringConvertible {
    /// The tag: language lower case, script title case, region upper case; `_` read as `-`.
    public let description: String

    /// The tag `text` in its usual case (`ZH-hans-cn` → `zh-Hans-CN`, `ja_jp` → `ja-JP`).
    public init(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "-")
            .split(separator: "-").map(String.init)
        description = parts.enumerated().map { index, part in
            if index == 0 { return part.lowercased() }
            if part.count == 4, part.allSatisfy(\.isLetter) { return part.prefix(1).uppercased() + part.dropFirst().lowercased() }
            if part.count == 2 || (part.count == 3 && part.allSatisfy(\.isNumber)) { return part.uppercased() }
            return part.lowercased()
        }.joined(separator: "-")
    }

    /// The language subtag (`zh` of `zh-Hant-TW`).
    public var language: String { description.split(separator: "-").first.map(String.init) ?? "" }

    /// The tags to look a text up by, most specific first: the tag cut one subtag at a time. Chinese goes through its
    /// script: Traditional (`Hant`, or Taiwan, Hong Kong and Macao) `zh-TW` → `zh-Hant` and never to bare `zh`, which
    /// is read as Simplified; any other `zh-CN` or `zh-SG` → `zh-Hans` → `zh`, and bare `zh` → `zh-Hans`.
    public var fallbackChain: [String] {
        let parts = description.split(separator: "-").map(String.init)
        var chain: [String] = []
        for length in stride(from: parts.count, through: 1, by: -1) {
            let tag = parts.prefix(length).joined(separator: "-")
            if !chain.contains(tag) { chain.append(tag) }
        }
        guard language == "zh" else { return chain }
        guard description != "zh" else { return ["zh", "zh-Hans"] }
        let subtags = Set(parts.dropFirst())
        let traditional = subtags.contains("Hant") || !subtags.isDisjoint(with: ["TW", "HK", "MO"]) && !subtags.contains("Hans")
        let script = traditional ? "zh-Hant" : "zh-Hans"
        chain.removeAll { $0 == script || (traditional && $0 == "zh") }
        // The script comes right after the tags more specific than it, before bare `zh`.
        let position = chain.firstIndex(of: "zh") ?? chain.endIndex
        chain.insert(script, at: position)
        return chain
    }

    /// ``fallbackChain``, then `last` (the caller's default, such as `en` for the built-in tables) when it is not in it.
    public func fallbackChain(then last: String) -> [String] {
        let chain = fallbackChain
        return chain.contains(last) ? chain : chain + [last]
    }
}
