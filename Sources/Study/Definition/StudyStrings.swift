import Consent
import Foundation

/// The study's own strings: overrides of the built-in consent strings, and strings for the web app, which this
/// module passes through without reading (their keys belong to the web app).
///
/// In the strings file: `{consent: {ja: {agree: 同意します}}, web: {ja: {home.title: 今日}}}`.
public struct StudyStrings: Hashable, Sendable {
    /// The consent strings: the built-in tables with the study's overrides.
    public var consent: ConsentStrings
    /// The web app's strings by language tag, then key.
    public var web: [String: [String: String]]

    /// Creates string tables; by default only the built-in consent strings and no web overrides.
    public init(consent: ConsentStrings = .builtIn, web: [String: [String: String]] = [:]) {
        self.consent = consent
        self.web = web
    }

    /// The study's web string for `key` in `language`, walking from the most specific form of the language to
    /// English (`zh-Hans-CN`, `zh-Hans`, `en`); nil when the study overrides it nowhere on that path, so the web
    /// app uses its built-in string.
    public func webString(_ key: String, language: String) -> String? {
        for tag in ConsentStrings.fallbackChain(for: language) {
            if let text = web[tag]?[key] { return text }
        }
        return nil
    }
}
