import Foundation
import Research
import Testing
@testable import StudyWeb

@Suite("Strings")
struct WebStringsTests {
    @Test(arguments: WebStrings.builtInLanguages)
    func everyLanguageHasEveryKeyWithTheSamePlaceholders(language: String) throws {
        let table = try #require(WebStrings.builtInTable(language))
        let english = try #require(WebStrings.builtInTable("en"))
        #expect(Set(english.keys) == Set(WebStringKey.allCases.map(\.rawValue)), "English has exactly the built-in keys")
        for key in WebStringKey.allCases {
            let text = try #require(table[key.rawValue], "\(language) has no '\(key.rawValue)'")
            #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty)
            #expect(placeholders(text) == placeholders(english[key.rawValue] ?? ""), "\(language).\(key.rawValue) keeps English's placeholders")
        }
        #expect(Set(table.keys) == Set(english.keys), "\(language) has no keys English lacks")
    }

    func placeholders(_ text: String) -> Set<String> {
        Set(PageChecks.matches(#"\{([a-z]+)\}"#, in: text))
    }

    @Test func lookupFallsBackFromTheMostSpecificLanguageToEnglish() {
        #expect(WebStrings(language: "zh-Hans-CN").fallbackChain == ["zh-Hans-CN", "zh-Hans", "zh", "en"])
        #expect(WebStrings(language: "zh-Hans-CN")[.next] == "下一步")
        #expect(WebStrings(language: "zh-CN")[.next] == "下一步")
        #expect(WebStrings(language: "zh-TW")[.next] == "Next")
        #expect(WebStrings(language: "ja_JP")[.next] == "次へ")
        #expect(WebStrings(language: "es-419")[.back] == "Atrás")
        #expect(WebStrings(language: "fr")[.skip] == "Skip")
    }

    @Test func aStudyOverridesAndAddsStrings() {
        let strings = WebStrings(language: "ja-JP", overrides: [
            "ja": ["next": "進む", "welcome": "ようこそ"], "en": ["done": "Finish", "back": "Previous"], "JA-jp": ["skip": "飛ばす"],
        ])
        #expect(strings[.next] == "進む")
        #expect(strings[.skip] == "飛ばす")
        #expect(strings[.back] == "戻る", "a Japanese built-in text beats an English override")
        #expect(strings[.done] == "完了")
        #expect(strings.text("welcome") == "ようこそ")
        #expect(strings.text("nothing") == nil)
        #expect(WebStrings(language: "fr", overrides: ["en": ["done": "Finish"]])[.done] == "Finish")
    }

    @Test func anAnswersRefusalReadsInThePagesLanguageAndAStudyMayRewordIt() {
        let refusal = FieldProblem.answer(AnswerValidationError(.numberRange, ["minimum": .number(0), "maximum": .number(10)]))
        #expect(refusal.text(in: WebStrings(language: "en")) == "Enter a number from 0 to 10.")
        #expect(refusal.text(in: WebStrings(language: "ja-JP")) == AnswerValidationError(.numberRange, ["minimum": .number(0), "maximum": .number(10)]).message(in: "ja"))
        #expect(refusal.text(in: WebStrings(language: "ja")) != "Enter a number from 0 to 10.")
        let reworded = WebStrings(language: "ja", overrides: ["ja": [WebStrings.answerKey("numberRange"): "{minimum}〜{maximum}の数字でお答えください。"]])
        #expect(refusal.text(in: reworded) == "0〜10の数字でお答えください。")
        #expect(FieldProblem.answer(AnswerValidationError(.chooseAnswer)).text(in: reworded) == AnswerValidationError(.chooseAnswer).message(in: "ja"),
                "the messages the study leaves are the built-in ones")
    }

    @Test func placeholdersAreFilled() {
        #expect(WebStrings(language: "en").format(.stepProgress, ["current": 2, "total": 5]) == "Step 2 of 5")
        #expect(WebStrings(language: "zh-Hans").format(.stepProgress, ["current": 2, "total": 5]) == "第 2 步，共 5 步")
        #expect(WebStrings(language: "ko").format(.stepProgress, ["current": 2, "total": 5]) == "5단계 중 2단계")
    }

    @Test func placeholdersAreFilledInOnePass() {
        let strings = WebStrings(language: "en", overrides: ["en": ["stepProgress": "{current} {{total}} {missing} {current"]])
        // A value that looks like a placeholder is written as it is; a name without a value, or without its brace, stays.
        #expect(strings.format(.stepProgress, ["current": "{total}", "total": 5]) == "{total} {5} {missing} {current")
    }
}
