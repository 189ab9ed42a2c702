import Foundation
import Research
import Testing
@testable import ActiveTasks

/// The active tasks' own texts: every built-in language has every one, with the English text's placeholders, and a
/// task built in a language reads that language.
struct ActiveTaskTextsTests {
    static let languages = ["en", "zh-Hans", "ja", "ko", "es"]

    static func placeholders(_ text: String) -> Set<String> {
        Set(text.split(separator: "{", omittingEmptySubsequences: false).dropFirst().compactMap { $0.split(separator: "}").first.map(String.init) })
    }

    @Test func everyLanguageHasEveryTextWithItsPlaceholders() {
        #expect(Set(ActiveTaskTexts.tables.keys) == Set(Self.languages))
        for language in Self.languages {
            for key in ActiveTaskText.allCases {
                let text = ActiveTaskTexts.tables[language]?[key]
                #expect(text?.isEmpty == false, "\(language) has no \(key)")
                #expect(Self.placeholders(text ?? "") == Self.placeholders(ActiveTaskTexts.tables["en"]?[key] ?? ""), "\(language) \(key)")
            }
        }
    }

    @Test func otherTagsFallBackToTheirLanguageThenEnglish() {
        #expect(ActiveTaskWording(language: "ja-JP").language == "ja")
        #expect(ActiveTaskWording(language: "zh").language == "zh-Hans")
        #expect(ActiveTaskWording(language: "fr").language == "en")
        #expect(ActiveTaskWording(language: "en")(.reactionHow, ["count": "5"]).contains("5 times"))
    }

    @Test func aTaskBuiltInJapaneseIsWordedInJapanese() throws {
        for name in ActiveTaskCatalog.names {
            let english = try ActiveTaskCatalog.task(named: name, identifier: "t", settings: [:])
            let japanese = try ActiveTaskCatalog.task(named: name, identifier: "t", settings: [:], language: "ja")
            #expect(english.steps.map(\.identifier) == japanese.steps.map(\.identifier), "\(name): the same steps in every language")
            for (step, translated) in zip(english.steps, japanese.steps) {
                if case .form(let form) = step.kind, case .form(let translatedForm) = translated.kind {
                    // A form's questions are worded in the language: the same questions, by identifier.
                    #expect(form.items.map(\.identifier) == translatedForm.items.map(\.identifier), "\(name).\(step.identifier)")
                } else {
                    #expect(step.kind == translated.kind, "\(name).\(step.identifier)")
                }
                if let text = step.text { #expect(translated.text != text, "\(name).\(step.identifier) is not translated") }
            }
        }
    }
}
