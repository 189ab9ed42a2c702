import Foundation
import JSONDiagnostics
import Study
import StudyFHIR
import Testing

/// A study in its other languages: texts found in every file participants read, translations put in from
/// `translations/LANG.yaml` and from FHIR Questionnaires' own `translation` extensions, and every translation checked
/// (a missing text named by its file and path, an unknown key, a changed placeholder).
@Suite("Study translations")
struct StudyTranslationTests {
    private func load(_ folder: URL) throws(StudyValidationFailure) -> StudyDefinition {
        try StudyLoader.load(folder: folder, surveyFormats: [FHIRSurveyFormat()])
    }

    private func problems(_ folder: URL) -> [String] {
        do { _ = try load(folder); return [] } catch { return error.problems.map(\.description) }
    }

    /// Recover in English and Japanese only, Japanese with no fallback: every text needs its translation.
    private func japaneseOnly(_ folder: URL) throws {
        try StudyFixtures.edit("study.yaml", in: folder, replacing: "languages: [en, ja, zh-Hans, ko, es]", with: "languages: [en, ja]")
        try StudyFixtures.edit("study.yaml", in: folder, replacing: "  fallback: [ja, zh-Hans, ko, es]", with: "  fallback: []")
        for language in ["zh-Hans", "ko", "es"] {
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "    \(language): ../../consent/recover-consent.\(language).json\n", with: "")
        }
    }

    /// `text` as a double-quoted YAML string (JSON's escapes, which YAML reads too).
    private func quoted(_ text: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return String(decoding: try encoder.encode(text), as: UTF8.self)
    }

    private func write(_ translations: [String: [String: String]], language: String, in folder: URL) throws {
        let directory = folder.appendingPathComponent("translations")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var yaml = ""
        for (file, keys) in translations.sorted(by: { $0.key < $1.key }) {
            yaml += "\(try quoted(file)):\n"
            for (key, text) in keys.sorted(by: { $0.key < $1.key }) {
                yaml += "  \(try quoted(key)): \(try quoted(text))\n"
            }
        }
        try yaml.write(to: directory.appendingPathComponent("\(language).yaml"), atomically: true, encoding: .utf8)
    }

    /// Every text of the study, each "translated" as `make` says; by file, then key.
    private func everyText(of folder: URL, _ make: (StudyText) -> String?) throws -> [String: [String: String]] {
        var translations: [String: [String: String]] = [:]
        for text in try StudyLoader.texts(folder: folder, surveyFormats: [FHIRSurveyFormat()]).texts {
            if let translated = make(text) { translations[text.file, default: [:]][text.key] = translated }
        }
        return translations
    }

    @Test func theCatalogueFindsTheTextsOfEveryFileByStableKeys() throws {
        let texts = try StudyLoader.texts(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()]).texts
        let keys = Set(texts.map { "\($0.file)#\($0.key)" })
        for expected in ["study.yaml#name", "study.yaml#tasks[pain].title", "study.yaml#tasks[exercises].schedule[0].text",
                         "study.yaml#contacts[physio].role", "study.yaml#charts[recovery].series[0].legend",
                         "onboarding.json#steps[welcome].title", "surveys/pain.json#steps[painLevel].answerFormat.minimumDescription",
                         "surveys/pain.json#steps[painLocation].answerFormat.choices[front].text",
                         "surveys/phq9.json#item[phq9].item[phq9-1].text", "surveys/phq9.json#title",
                         "surveys/phq9.json#contained[phq9-frequency].compose.include[0].concept[LA6568-5].display",
                         "articles/first-weeks.md#markdown"] {
            #expect(keys.contains(expected), "\(expected) in \(keys.sorted().prefix(80))")
        }
        // Ids, codes and settings are not texts: a task's id, a LOINC code's display, a contact's name.
        #expect(!keys.contains { $0.hasSuffix(".id") || $0.contains(".code[") || $0.hasSuffix("givenName") })
        #expect(texts.first { $0.key == "tasks[pain].title" }?.source == "Daily pain check")
    }

    @Test func aTranslatedStudyShowsItsTextsInEachLanguageAndItsOwnInTheFirst() throws {
        try StudyFixtures.withRecoverCopy { folder in
            try japaneseOnly(folder)
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "  fallback: []", with: "  fallback: [ja]")
            try write(["study.yaml": ["name": "リカバー", "tasks[pain].title": "毎日の痛みチェック", "contacts[physio].role": "膝のリハビリを担当"],
                       "surveys/pain.json": ["steps[painLevel].title": "痛み", "steps[painLocation].answerFormat.choices[front].text": "膝の前側"],
                       "onboarding.json": ["steps[welcome].title": "Recover へようこそ"],
                       "articles/first-weeks.md": ["markdown": "# 手術後の最初の数週間\n\n毎日少しずつ動かしましょう。"]], language: "ja", in: folder)
            let study = try load(folder)
            let ja = study.localized("ja")
            #expect(ja.name == "リカバー" && study.name == "Recover" && study.localized("en").name == "Recover")
            #expect(ja.task(id: "pain")?.title == "毎日の痛みチェック" && study.task(id: "pain")?.title == "Daily pain check")
            #expect(ja.contacts.first { $0.id == "physio" }?.role == "膝のリハビリを担当")
            // A featured card's article: the whole Markdown in the language.
            if case .featured(let markdown)? = ja.feed.first(where: { $0.id == "firstWeeks" })?.content {
                #expect(markdown.hasPrefix("# 手術後の最初の数週間"))
            } else { Issue.record("firstWeeks is not a featured card") }
            if case .featured(let markdown)? = study.feed.first(where: { $0.id == "firstWeeks" })?.content {
                #expect(!markdown.contains("手術後"))
            }
            let pain = try #require(study.survey(taskID: "pain", language: "ja"))
            #expect(pain.steps.first?.title == "痛み" && study.survey(taskID: "pain", language: "en")?.steps.first?.title == "Pain")
            if case .question(.textChoice(let format)) = pain.steps[1].kind {
                #expect(format.choices.first?.text == "膝の前側" && format.choices.first?.value == "front", "the value stays")
            } else { Issue.record("painLocation is not a choice question") }
            #expect(study.onboardingTask(language: "ja").task.steps.first?.title == "Recover へようこそ")
            #expect(study.onboardingTask(language: "en").task.steps.first?.title == "Welcome to Recover")
            // A text left out shows in English, and the note says how many.
            #expect(study.survey(taskID: "pain", language: "ja")?.steps[1].title == "Where does it hurt?")
            #expect(study.notes.contains { $0.file == "translations/ja.yaml" && $0.message.contains("have no ja translation and show in en") })
        }
    }

    @Test func oneMissingTextIsNamedByItsFileAndPath() throws {
        let lines = try StudyFixtures.withRecoverCopy { folder in
            try japaneseOnly(folder)
            try write(try everyText(of: folder) { text in
                text.file == "surveys/pain.json" && text.key == "steps[notes].text" ? nil : "（訳）" + text.source
            }, language: "ja", in: folder)
            return problems(folder)
        }
        #expect(lines == ["surveys/pain.json: steps[notes].text: has no ja translation of 'Notes for your care team (optional).' (translations/ja.yaml)"],
                "\(lines)")
    }

    @Test func everyTextTranslatedLoadsAndTheTranslationsAreChecked() throws {
        try StudyFixtures.withRecoverCopy { folder in
            try japaneseOnly(folder)
            var all = try everyText(of: folder) { "（訳）" + $0.source }
            try write(all, language: "ja", in: folder)
            #expect(try load(folder).localized("ja").task(id: "exercises")?.title.hasPrefix("（訳）") == true)

            all["surveys/pain.json"]?["steps[painLevl].title"] = "痛み"
            all["surveys/none.json"] = ["title": "x"]
            try write(all, language: "ja", in: folder)
            try write(["study.yaml": ["name": "Recuperar"]], language: "fr", in: folder)
            let lines = problems(folder)
            #expect(lines.contains("translations/ja.yaml: surveys/pain.json#steps[painLevl].title: 'surveys/pain.json' has no text at 'steps[painLevl].title'; did you mean 'steps[painLevel].title'?"), "\(lines)")
            #expect(lines.contains("translations/ja.yaml: surveys/none.json: the study has no texts in 'surveys/none.json'"), "\(lines)")
            #expect(lines.contains("translations/fr.yaml: 'fr' is not one of the study's languages (en, ja)"), "\(lines)")
        }
    }

    @Test func aTranslationMustKeepTheSourcesPlaceholders() throws {
        #expect(StudyTranslations.placeholders(in: "Only share my data with %@ and {team}") == ["%@", "{team}"])
        try StudyFixtures.withRecoverCopy { folder in
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "title: Daily pain check", with: "title: Pain check for {name}")
            try write(["study.yaml": ["tasks[pain].title": "痛みのチェック"]], language: "ja", in: folder)
            let lines = problems(folder)
            #expect(lines.contains { $0.hasPrefix("translations/ja.yaml: study.yaml#tasks[pain].title: the placeholders [] differ from the source's [\"{name}\"]") },
                    "\(lines)")
        }
    }

    /// SDC forms carry their languages in FHIR's `translation` extension: they count, and the files' own win.
    @Test func aQuestionnairesOwnTranslationsArePutIn() throws {
        try StudyFixtures.withRecoverCopy { folder in
            try StudyFixtures.edit("surveys/phq9.json", in: folder, replacing: #""text": "Little interest or pleasure in doing things""#, with: #"""
                "text": "Little interest or pleasure in doing things", "_text": {"extension": [{"url": "http://hl7.org/fhir/StructureDefinition/translation",
                  "extension": [{"url": "lang", "valueCode": "ko"}, {"url": "content", "valueString": "일을 하는 것에 대한 흥미나 재미가 거의 없음"}]},
                  {"url": "http://hl7.org/fhir/StructureDefinition/translation",
                  "extension": [{"url": "lang", "valueCode": "es"}, {"url": "content", "valueString": "Poco interés o placer en hacer cosas"}]}]}
                """#)
            try StudyFixtures.edit("surveys/phq9.json", in: folder, replacing: #""display": "Not at all""#,
                                   with: #""display": "Not at all", "designation": [{"language": "ko", "value": "전혀 없음"}]"#)
            try write(["surveys/phq9.json": ["item[phq9].item[phq9-1].text": "Poco interés o gusto por hacer las cosas"]], language: "es", in: folder)
            let study = try load(folder)
            func firstItem(_ language: String) -> String? {
                guard case .form(let form)? = study.survey(taskID: "mood", language: language)?.steps.first?.kind else { return nil }
                return form.items.first { $0.identifier == "phq9-1" }?.text
            }
            #expect(firstItem("ko") == "일을 하는 것에 대한 흥미나 재미가 거의 없음")
            // The answers of the ValueSet the Questionnaire contains: a concept's designation in the language.
            guard case .form(let form)? = study.survey(taskID: "mood", language: "ko")?.steps.first?.kind,
                  case .textChoice(let format)? = form.items.first(where: { $0.identifier == "phq9-1" })?.answerFormat else {
                Issue.record("phq9-1 is not a choice item")
                return
            }
            #expect(format.choices.first?.text == "전혀 없음")
            #expect(firstItem("es") == "Poco interés o gusto por hacer las cosas", "the study's own file wins")
            #expect(firstItem("en") == "Little interest or pleasure in doing things")
        }
    }

    /// Hostile translators' files: a DTD (a billion laughs, an external entity), a file cut short, a translation
    /// that would turn the text around it, a catalog key without its file.
    @Test func hostileTranslatorFilesAreRefusedWithTheirLines() throws {
        let doctype = Data("""
            <?xml version="1.0"?>
            <!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <xliff version="1.2"><file original="study.yaml" target-language="ja"><body><trans-unit id="name"><source>Recover</source><target>&b;&xxe;</target></trans-unit></body></file></xliff>
            """.utf8)
        #expect(throws: TranslatorFileError(line: 2, key: nil, message: "an XLIFF file has no DOCTYPE: its entities are not read")) {
            try TranslatorFile.read(doctype, format: .xliff)
        }
        let cut = Data("<xliff version=\"1.2\"><file original=\"study.yaml\" target-language=\"ja\"><body>\n<trans-unit id=\"name\"><source>Recover</source><target>R</tar".utf8)
        #expect(throws: TranslatorFileError.self) { try TranslatorFile.read(cut, format: .xliff) }
        do { _ = try TranslatorFile.read(cut, format: .xliff) } catch { #expect(error.line == 2, "\(error)") }
        let catalog = Data(#"{"sourceLanguage": "en", "version": "1.0", "strings": {\#n"name": {"localizations": {"ja": {"stringUnit": {"state": "translated", "value": "x"}}}}}}"#.utf8)
        do { _ = try TranslatorFile.read(catalog, format: .xcstrings); Issue.record("a key without its file was read") } catch {
            #expect(error.line == 2 && error.key == "name", "\(error)")
        }

        let texts = try StudyLoader.texts(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()]).texts
        let bidi = TranslatorFile.Unit(file: "study.yaml", key: "name", source: "Recover", target: "Re\u{202E}cover", line: 7)
        #expect(throws: TranslatorImportFailure(errors: [TranslatorFileError(line: 7, key: "study.yaml#name",
                                                                             message: "holds U+202E RIGHT-TO-LEFT OVERRIDE, which would not show as written")])) {
            try StudyTranslations().importing([bidi], language: "ja", texts: texts, languages: ["en", "ja"])
        }
    }
}
