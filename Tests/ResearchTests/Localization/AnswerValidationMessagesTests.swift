import Foundation
import Testing
@testable import Research

@Suite("Answer validation messages")
struct AnswerValidationMessagesTests {
    static let languages = ["en", "zh-Hans", "ja", "ko", "es"]
    static let keys = AnswerValidationError.Key.allCases.filter { $0 != .study }.map(\.rawValue)

    @Test(arguments: languages)
    func everyLanguageHasEveryKeyWithTheSamePlaceholders(language: String) throws {
        let table = try #require(AnswerValidationMessages.tables[language])
        let english = try #require(AnswerValidationMessages.tables["en"])
        let singulars = table.keys.filter { $0.hasSuffix(AnswerValidationMessages.singularSuffix) }
        #expect(Set(table.keys).subtracting(singulars) == Set(Self.keys), "\(language) has exactly the keys")
        for key in Self.keys {
            let text = try #require(table[key], "\(language) has no '\(key)'")
            #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty)
            #expect(placeholders(text) == placeholders(english[key] ?? ""), "\(language).\(key) keeps English's placeholders")
        }
        for singular in singulars {
            let base = String(singular.dropLast(AnswerValidationMessages.singularSuffix.count))
            #expect(placeholders(table[singular] ?? "") == placeholders(english[base] ?? "-"), "\(language).\(singular) words its key's values")
            #expect(placeholders(english[base] ?? "").contains("count"), "\(language).\(singular) is the wording of a count")
        }
    }

    @Test(arguments: languages.dropFirst())
    func noMessageIsLeftInEnglish(language: String) throws {
        let table = try #require(AnswerValidationMessages.tables[language])
        let english = try #require(AnswerValidationMessages.tables["en"])
        // A word the two languages share ("No" in Spanish) may read the same.
        let shared: Set<String> = language == "es" ? ["no"] : []
        let same = Self.keys.filter { table[$0] == english[$0] && !shared.contains($0) }
        #expect(same.isEmpty, "\(language) keeps English for \(same)")
    }

    @Test func aRefusalOfARealFormatReadsInEachLanguage() throws {
        let format = AnswerFormat.scale(ScaleFormat(minimum: 0, maximum: 10))
        var refusal: AnswerValidationError?
        do { try format.validate(.number(11)) } catch { refusal = error }
        let error = try #require(refusal)
        #expect(error.message == "Enter a number from 0 to 10.")
        var seen: Set<String> = []
        for language in Self.languages {
            let message = error.message(in: language)
            #expect(message.contains("0") && message.contains("10"), "\(language): \(message)")
            #expect(seen.insert(message).inserted, "\(language) has its own wording: \(message)")
        }
    }

    @Test func datesAreWrittenInTheLanguage() throws {
        let march = try #require(ISO8601.date(from: "2026-03-01T00:00:00Z"))
        let error = AnswerValidationError(.dateOnOrAfter, ["date": .day(march)])
        #expect(error.message(in: "ja").contains("2026年3月1日"), "\(error.message(in: "ja"))")
        #expect(error.message(in: "zh-Hans").contains("2026年3月1日"), "\(error.message(in: "zh-Hans"))")
        #expect(error.message(in: "ko").contains("2026년 3월 1일"), "\(error.message(in: "ko"))")
        #expect(error.message(in: "es").contains("1 de marzo de 2026"), "\(error.message(in: "es"))")
        #expect(error.message.contains("March 1, 2026"), "\(error.message)")
        // A bound with a time is shown in the answer's zone: 09:00 in Sydney (22:00 the day before in UTC).
        let nine = try #require(ISO8601.date(from: "2026-03-01T09:00:00+11:00"))
        let sydney = try #require(TimeZone(identifier: "Australia/Sydney"))
        let timed = AnswerValidationError(.dateTimeOnOrAfter, ["date": .dateTime(nine, sydney)])
        #expect(timed.message(in: "ja").contains("9:00"), "\(timed.message(in: "ja"))")
    }

    @Test func aCountOfOneReadsInTheSingularWhereTheLanguageHasOne() {
        #expect(AnswerValidationError(.textTooLong, ["count": .integer(1)]).message == "Enter at most 1 character.")
        #expect(AnswerValidationError(.textTooLong, ["count": .integer(2)]).message == "Enter at most 2 characters.")
        let spanishOne = AnswerValidationError(.textTooLong, ["count": .integer(1)]).message(in: "es")
        let spanishTwo = AnswerValidationError(.textTooLong, ["count": .integer(2)]).message(in: "es")
        #expect(spanishOne.replacingOccurrences(of: "1", with: "2") != spanishTwo, "\(spanishOne) / \(spanishTwo)")
    }

    @Test func aPhraseInsideAMessageIsInTheSameLanguage() throws {
        var refusal: AnswerValidationError?
        do { try FreeTextRules.check("a\u{202E}b", allowingLineBreaks: false, maximumLength: 10) } catch { refusal = error }
        let error = try #require(refusal)
        #expect(error.message.hasPrefix("Remove the invisible character U+202E RIGHT-TO-LEFT OVERRIDE from your answer: it changes"))
        let english = try #require(AnswerValidationMessages.tables["en"]?["reasonChangesDirection"])
        for language in Self.languages.dropFirst() {
            let message = error.message(in: language)
            let reason = try #require(AnswerValidationMessages.tables[language]?["reasonChangesDirection"])
            #expect(message.contains("U+202E") && message.contains(reason) && !message.contains(english), "\(language): \(message)")
        }
    }

    @Test func languagesFallBackToEnglish() {
        let error = AnswerValidationError(.chooseAnswer)
        #expect(error.message(in: "ja-JP") == error.message(in: "ja"))
        #expect(error.message(in: "zh-CN") == error.message(in: "zh-Hans"))
        #expect(error.message(in: "fr") == "Choose an answer.")
        #expect(error.message(in: "zh-TW") == "Choose an answer.", "Traditional Chinese is not Simplified")
    }

    @Test func aStudysOwnMessageIsShownAsWritten() {
        let error = AnswerValidationError.study("郵便番号は7桁です。")
        for language in Self.languages { #expect(error.message(in: language) == "郵便番号は7桁です。") }
        #expect(error.message(locale: Locale(identifier: "en")) { _ in "ignored" } == "郵便番号は7桁です。")
    }

    @Test func aLookupMayReplaceAMessage() {
        let error = AnswerValidationError(.numberRange, ["minimum": .number(Decimal(string: "0.5")!), "maximum": .number(10)])
        let replaced = error.message(locale: Locale(identifier: "de")) { $0 == "numberRange" ? "Zahl von {minimum} bis {maximum}" : nil }
        #expect(replaced == "Zahl von 0,5 bis 10", "numbers take the locale's decimal separator")
        #expect(error.message(locale: Locale(identifier: "en")) { _ in nil } == "Enter a number from 0.5 to 10.", "a key the lookup lacks is English")
    }

    private func placeholders(_ text: String) -> Set<String> {
        Set(text.matches(of: #/\{([a-zA-Z]+)\}/#).map { String($0.output.1) })
    }
}
