import Foundation

/// Free text, one line or several, optionally limited in length or checked by a pattern.
public struct TextFormat: Hashable, Sendable, Codable {
    /// Most characters accepted; unlimited when nil.
    public var maximumLength: Int?
    /// Whether the answer may contain line breaks. Defaults to false.
    public var multipleLines: Bool
    /// A regular expression the whole answer must match; requires ``invalidMessage``.
    public var validationPattern: String?
    /// The message shown when the answer does not match ``validationPattern``.
    public var invalidMessage: String?
    /// Text shown in the empty field; nil for none.
    public var placeholder: String?
    /// The text the field starts with; nil for none. Must respect ``maximumLength``, ``multipleLines`` and
    /// ``validationPattern``.
    public var defaultValue: String?
    /// Offers an "I don't know" answer when set; nil for none.
    public var dontKnow: DontKnowOption?
    /// Creates a text format; see the properties for each setting's rules.
    public init(maximumLength: Int? = nil, multipleLines: Bool = false, validationPattern: String? = nil,
                invalidMessage: String? = nil, placeholder: String? = nil, defaultValue: String? = nil, dontKnow: DontKnowOption? = nil) {
        self.maximumLength = maximumLength
        self.multipleLines = multipleLines
        self.validationPattern = validationPattern
        self.invalidMessage = invalidMessage
        self.placeholder = placeholder
        self.defaultValue = defaultValue
        self.dontKnow = dontKnow
    }
    private enum CodingKeys: String, CodingKey {
        case maximumLength, multipleLines, validationPattern, invalidMessage, placeholder, defaultValue, dontKnow
    }
    /// Reads the format; `multipleLines` defaults to false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        maximumLength = try c.decodeIfPresent(Int.self, forKey: .maximumLength)
        multipleLines = try c.decodeIfPresent(Bool.self, forKey: .multipleLines) ?? false
        validationPattern = try c.decodeIfPresent(String.self, forKey: .validationPattern)
        invalidMessage = try c.decodeIfPresent(String.self, forKey: .invalidMessage)
        placeholder = try c.decodeIfPresent(String.self, forKey: .placeholder)
        defaultValue = try c.decodeIfPresent(String.self, forKey: .defaultValue)
        dontKnow = try c.decodeIfPresent(DontKnowOption.self, forKey: .dontKnow)
    }
}

/// An email address.
public struct EmailFormat: Hashable, Sendable, Codable {
    /// Text shown in the empty field; nil for none.
    public var placeholder: String?
    /// Creates an email format.
    public init(placeholder: String? = nil) { self.placeholder = placeholder }
}

extension TextFormat: AnswerFormatRules {
    static let jsonKeys: Set<String> = [
        "maximumLength", "multipleLines", "validationPattern", "invalidMessage", "placeholder", "defaultValue", "dontKnow",
    ]

    var wrongKindError: AnswerValidationError { AnswerValidationError(.takesText) }

    func addConstructionProblems(to problems: inout FormatProblems) {
        if let length = maximumLength, length < 1 {
            problems.add("maximumLength", "must be at least 1 (is \(length)); leave it out for no limit")
        }
        var regex: Regex<AnyRegexOutput>?
        if let pattern = validationPattern {
            if pattern.isEmpty {
                problems.add("validationPattern", "must not be empty; leave it out to accept any text")
            } else {
                do {
                    regex = try CompiledPatterns.regex(pattern)
                } catch {
                    problems.add("validationPattern", "is not a valid regular expression (\(error))")
                }
            }
            if let message = invalidMessage {
                if message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    problems.add("invalidMessage", "must not be empty: it tells the participant why an answer does not match validationPattern")
                }
            } else {
                problems.add("invalidMessage", "is required with validationPattern: it tells the participant why an answer does not match")
            }
        } else if invalidMessage != nil {
            problems.add("invalidMessage", "has no validationPattern to go with it")
        }
        if let value = defaultValue {
            if let length = maximumLength, length >= 1, value.count > length {
                problems.add("defaultValue", "is longer than maximumLength (\(value.count) > \(length) characters)")
            }
            if !multipleLines, value.contains(where: \.isNewline) {
                problems.add("defaultValue", "has a line break, but multipleLines is false")
            }
            if let regex, (try? regex.wholeMatch(in: value)) == nil {
                problems.add("defaultValue", "does not match validationPattern")
            }
        }
    }

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .text(let value) = answer else { throw wrongKindError }
        guard !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw AnswerValidationError(.enterSomeText) }
        if !multipleLines, value.contains(where: \.isNewline) {
            throw AnswerValidationError(.enterSingleLine)
        }
        try FreeTextRules.check(value, allowingLineBreaks: multipleLines, maximumLength: maximumLength ?? FreeTextRules.defaultMaximumLength)
        // A pattern that does not compile is a construction problem, refused when the study loads; it rejects nothing here.
        if let pattern = validationPattern, !pattern.isEmpty, (try? CompiledPatterns.regex(pattern)) != nil,
           !CompiledPatterns.wholeMatch(pattern, value) {
            let message = invalidMessage?.trimmingCharacters(in: .whitespacesAndNewlines)
            throw message.flatMap { $0.isEmpty ? nil : AnswerValidationError.study($0) } ?? AnswerValidationError(.checkTextFormat)
        }
    }

    /// The text as typed, surrounding white space included.
    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        .text(typed)
    }

    func hint(in context: TextInputContext) -> String {
        var text = multipleLines ? "text (several lines allowed)" : "text"
        if let length = maximumLength { text += ", at most \(length) characters" }
        return text
    }
}

extension EmailFormat: AnswerFormatRules {
    static let jsonKeys: Set<String> = ["placeholder"]

    var wrongKindError: AnswerValidationError { AnswerValidationError(.takesEmail) }

    func addConstructionProblems(to problems: inout FormatProblems) {}

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .text(let value) = answer else { throw wrongKindError }
        try FreeTextRules.check(value, allowingLineBreaks: false, maximumLength: FreeTextRules.maximumEmailLength)
        guard Self.isEmailAddress(value) else { throw AnswerValidationError(.enterValidEmail) }
    }

    /// An address is stored without surrounding white space.
    func normalized(_ answer: Answer) -> Answer? {
        guard case .text(let text) = answer else { return standardNormalized(answer) }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : .text(trimmed)
    }

    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        .text(trimmed)
    }

    func hint(in context: TextInputContext) -> String { "an email address" }

    /// One `@`, something before it, a domain of at least two dot-separated labels after it, no white space.
    static func isEmailAddress(_ text: String) -> Bool {
        text.wholeMatch(of: #/[^\s@]+@[^\s@.]+(\.[^\s@.]+)*\.[^\s@.]{2,}/#) != nil
    }
}
