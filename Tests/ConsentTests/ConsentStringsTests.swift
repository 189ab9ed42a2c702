import Foundation
import Testing
@testable import Consent

@Suite struct ConsentStringsTests {
    static let languages = ConsentStrings.builtInLanguages

    @Test func everyBuiltInTableHasEveryKey() {
        for language in Self.languages {
            let table = ConsentStringTables.tables[language] ?? [:]
            let missing = ConsentStringKey.allCases.filter { (table[$0] ?? "").trimmingCharacters(in: .whitespaces).isEmpty }
            #expect(missing.isEmpty, "\(language) lacks \(missing.map(\.rawValue))")
            for key in ConsentStringKey.allCases {
                #expect(ConsentStrings.placeholderCount(table[key] ?? "") == ConsentStrings.placeholderCount(ConsentStringTables.english[key] ?? ""),
                        "\(language).\(key.rawValue) has other placeholders than English")
            }
        }
    }

    @Test func predefinedSectionTitlesInEveryLanguage() {
        let strings = ConsentStrings.builtIn
        let expected: [String: [ConsentSectionType: String]] = [
            "en": [.overview: "Welcome", .dataGathering: "Data Gathering", .privacy: "Privacy", .withdrawing: "Withdrawing"],
            "zh-Hans": [.overview: "欢迎", .dataGathering: "数据收集", .dataUse: "数据使用", .withdrawing: "退出研究"],
            "ja": [.overview: "ようこそ", .dataGathering: "データの収集", .privacy: "プライバシー", .withdrawing: "同意の撤回"],
            "ko": [.overview: "환영합니다", .dataGathering: "데이터 수집", .privacy: "개인정보 보호", .withdrawing: "참여 철회"],
            "es": [.overview: "Bienvenida", .dataGathering: "Recopilación de datos", .privacy: "Privacidad", .withdrawing: "Retirada del estudio"],
        ]
        for language in Self.languages {
            for type in ConsentSectionType.allCases {
                let section = ConsentSection(type: type, summary: "s")
                let title = section.displayTitle(language: language, strings: strings)
                guard type.isPredefined else {
                    #expect(title == nil, "\(type) has no default title")
                    continue
                }
                guard let text = title, !text.isEmpty else {
                    Issue.record("\(language) has no default title for \(type)")
                    continue
                }
                if let exact = expected[language]?[type] {
                    #expect(text == exact, "\(language) \(type)")
                }
                if language != "en" {
                    #expect(text != section.displayTitle(language: "en", strings: strings), "\(language) \(type) is still English")
                }
            }
            let titles = ConsentSectionType.allCases.compactMap { ConsentSection(type: $0).displayTitle(language: language, strings: strings) }
            #expect(Set(titles).count == 8, "\(language): the eight default titles must differ from each other")
        }
    }

    @Test func builtInStringsAreTranslated() {
        let strings = ConsentStrings.builtIn
        #expect(strings.string(.agree, language: "ja") == "同意する")
        #expect(strings.string(.disagree, language: "zh-Hans") == "不同意")
        #expect(strings.string(.reviewInstruction, language: "en") == "Please review the form below, and tap Agree if you are ready to continue.")
        #expect(strings.string(.footerParticipant, language: "ko") == "참여자")
        #expect(strings.string(.footerSigned, language: "es") == "Firmado")
        for language in Self.languages where language != "en" {
            for key in [ConsentStringKey.agree, .disagree, .learnMore, .reviewTitle, .givenName, .familyName, .signatureLabel,
                        .dateLabel, .printedNameLabel, .footerStudy, .footerVersion, .footerParticipant, .footerSigned] {
                #expect(strings.string(key, language: language) != strings.string(key, language: "en"), "\(language).\(key.rawValue)")
            }
        }
    }

    @Test func fallsBackFromRegionToScriptToEnglish() {
        let strings = ConsentStrings.builtIn
        #expect(ConsentStrings.fallbackChain(for: "zh-Hans-CN") == ["zh-Hans-CN", "zh-Hans", "zh", "en"])
        #expect(strings.string(.agree, language: "zh-Hans-CN") == "同意")
        #expect(strings.string(.agree, language: "zh_CN") == "同意")
        #expect(strings.string(.agree, language: "ja-JP") == "同意する")
        #expect(strings.string(.agree, language: "es-MX") == "Acepto")
        #expect(strings.string(.agree, language: "fr-FR") == "Agree")
        #expect(strings.string(.agree, language: "zh-Hant-TW") == "Agree", "no Traditional Chinese table: English, not Simplified")
        #expect(ConsentStrings.builtInLanguage(for: "ko-KR") == "ko")
    }

    @Test func formatsPlaceholders() {
        let strings = ConsentStrings.builtIn
        #expect(strings.string(.sharingInvestigatorsOnly, language: "en", "the Recover team") == "Only share my data with the Recover team")
        #expect(strings.string(.sharingShareWidely, language: "ja", "Recoverチーム") == "Recoverチームおよび世界中の適格な研究者とデータを共有する")
        #expect(strings.string(.footerPage, language: "es", "2", "5") == "Página 2 de 5")
        #expect(ConsentStrings.format("100%% of %@", ["you"]) == "100% of you")
        #expect(ConsentStrings.format("%2$@ before %1$@", []) == "%2$@ before %1$@")
    }

    @Test func studyOverridesWinPerLanguage() throws {
        let strings = try ConsentStrings.load(Data(#"{"ja": {"agree": "同意します"}, "en_GB": {"familyName": "Surname"}}"#.utf8))
        #expect(strings.string(.agree, language: "ja-JP") == "同意します")
        #expect(strings.string(.disagree, language: "ja") == "同意しない")
        #expect(strings.string(.agree, language: "en") == "Agree")
        #expect(strings.string(.familyName, language: "en-GB") == "Surname")
        #expect(strings.string(.familyName, language: "en-US") == "Family name")
        let inCode = ConsentStrings(overrides: ["zh-hans": [.agree: "我同意"]])
        #expect(inCode.string(.agree, language: "zh-Hans-CN") == "我同意")
    }

    @Test func overrideProblemsHaveTheirPaths() {
        let json = #"{"ja": {"agre": "同意します", "sharingShareWidely": "共有する", "disagree": " "}, "not a tag": {}, "ko": 3}"#
        #expect {
            _ = try ConsentStrings.load(Data(json.utf8))
        } throws: { error in
            let problems = (error as? ConsentValidationFailure)?.problems ?? []
            let paths = problems.map(\.path)
            return paths.contains("ja.agre") && problems.first { $0.path == "ja.agre" }!.message.contains("did you mean 'agree'")
                && paths.contains("ja.sharingShareWidely") && paths.contains("ja.disagree")
                && paths.contains("not a tag") && paths.contains("ko")
        }
        #expect(throws: ConsentValidationFailure.self) { _ = try ConsentStrings.load(Data("{\"ja\": ".utf8)) }
    }
}
