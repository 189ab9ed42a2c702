import Foundation

/// Everything outside a consent document that shapes how it is shown: the strings, the participant's
/// language, and the locale, time zone and calendar used for dates. Injected, never read from the machine,
/// so a document renders the same way on every server and in every test.
public struct ConsentContext: Hashable, Sendable {
    /// The built-in strings with the study's overrides.
    public var strings: ConsentStrings
    /// The participant's language (BCP 47); nil to use the document's ``ConsentDocument/language``.
    public var language: String?
    /// The locale dates are formatted in.
    public var locale: Locale
    /// The time zone dates are shown in: the participant's.
    public var timeZone: TimeZone
    /// The calendar dates are shown in; its time zone is replaced by ``timeZone``.
    public var calendar: Calendar

    /// Creates a context; see the properties for each part.
    public init(strings: ConsentStrings = .builtIn, language: String? = nil, locale: Locale, timeZone: TimeZone, calendar: Calendar) {
        self.strings = strings
        self.language = language
        self.locale = locale
        self.timeZone = timeZone
        self.calendar = calendar
    }

    /// The language to show `document` in: ``language`` when set, else the document's, normalized (`ja-JP`, `zh-Hans`).
    public func language(for document: ConsentDocument) -> String {
        ConsentStrings.normalize(language ?? document.language)
    }

    /// The string for `key` in the language of `document`, with `%@` placeholders filled from `arguments`.
    public func string(_ key: ConsentStringKey, for document: ConsentDocument, _ arguments: String...) -> String {
        ConsentStrings.format(strings.string(key, language: language(for: document)), arguments)
    }
}
