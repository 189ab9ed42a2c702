import CareStore
import Consent
import Foundation
import JSONDiagnostics
import Research
import StudyFHIR
import Testing
@testable import Study

@Suite("Loading study folders")
struct StudyLoaderTests {
    @Test func recoverLoadsWithEverything() throws {
        let study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        #expect(study.identifier == "recover")
        #expect(study.name == "Recover")
        #expect(study.languages == ["en", "ja", "zh-Hans", "ko", "es"])
        #expect(study.defaultLanguage == "en")
        #expect(study.theme.tint == "#C8472B")
        #expect(study.enrolment == .invitation)
        #expect(study.tasks.map(\.id) == ["exercises", "pain", "weekly", "checkIn", "mood", "medication", "symptoms", "icing", "kneeBend"])

        // Consent: each language its own document; a language the study does not declare gets the main (English) one.
        #expect(study.consentDocument(language: "ja").language == "ja")
        #expect(study.consentDocument(language: "zh-Hans").language == "zh-Hans")
        #expect(study.consentDocument(language: "ko").language == "ko" && study.consentDocument(language: "es").language == "es")
        #expect(study.consentDocument(language: "fr").language == "en")
        #expect(study.consentDocument(language: "ja-JP").language == "ja")

        // Onboarding: the code-along's five steps, the consent document step expanded into name and document.
        let onboarding = study.onboardingTask(language: "ja")
        #expect(onboarding.document.language == "ja")
        #expect(onboarding.consentSteps.map(\.type) == ["consentDocument"])
        let identifiers = onboarding.task.steps.map(\.identifier)
        #expect(identifiers.first == "welcome")
        #expect(identifiers.contains("informedConsent") && identifiers.contains("permissions") && identifiers.last == "done")
        #expect(onboarding.expandedIdentifiers["consent"] == ["consent.name", "consent.document"])
        #expect(onboarding.task.step(withIdentifier: "informedConsent")?.bodyItems.count == 4)

        // Tasks and their schedules.
        let exercises = try #require(study.task(id: "exercises"))
        #expect(exercises.surveyFile == nil && exercises.outcome.isEmpty && exercises.impactsAdherence)
        #expect(exercises.schedule == [(8, "after breakfast"), (13, "after lunch"), (19, "after dinner")].map { hour, text in
            StudyScheduleElement(repetition: .daily, hour: hour, minute: 0, firstDay: 1, lastDay: 42, duration: .minutes(30), text: text)
        })
        #expect(exercises.card == .checklist && exercises.allowsLateEntry)
        let medication = try #require(study.task(id: "medication"))
        #expect(medication.card == .grid && !medication.allowsLateEntry)
        #expect(medication.schedule.map(\.everyDays) == [1, 1, 2])
        let symptoms = try #require(study.task(id: "symptoms"))
        #expect(symptoms.card == nil && !symptoms.impactsAdherence && symptoms.cardKind(eventsThatDay: 1) == .buttonLog)
        #expect(study.task(id: "icing")?.cardKind(eventsThatDay: 1) == .simple)
        let pain = try #require(study.task(id: "pain"))
        #expect(pain.outcome == [StudyOutcomeMapping(question: "painLevel", kind: "pain", units: "NRS")])
        #expect(study.survey(taskID: "pain")?.identifier == "recover-pain")
        #expect(study.survey(taskID: "exercises") == nil)
        #expect(study.task(id: "weekly")?.schedule.first?.repetition == .weekly([.monday]))
        let checkIn = try #require(study.task(id: "checkIn"))
        #expect(!checkIn.impactsAdherence)
        #expect(checkIn.schedule == [StudyScheduleElement(repetition: .once, hour: 10, minute: 0, firstDay: 14, lastDay: 14, duration: .allDay)])

        // Contacts and strings.
        #expect(study.contacts.map(\.id) == ["physio", "investigator"])
        #expect(study.contacts[0].name.givenName == "Jamie" && study.contacts[0].category == .careProvider)
        #expect(study.contacts[0].address?.postalCode == "01234")
        #expect(study.contacts[0].phoneNumbers == [LabeledValue(label: "work", value: "+1 555 0100")])
        #expect(study.strings.consent.string(.agree, language: "ja") == "同意します")
        #expect(study.strings.webString("home.greeting", language: "ja-JP") == "Recover へようこそ")
        #expect(study.strings.webString("home.greeting", language: "ko") == "Welcome back to Recover")
        #expect(study.strings.webString("no.such.key", language: "en") == nil)
    }

    @Test func cognitionLoadsFiveActiveTasksOnActiveTaskCards() throws {
        let study = try StudyLoader.load(folder: StudyFixtures.cognition)
        #expect(study.tasks.map(\.activeTask) == ["twoFingerTapping", "spatialSpan", "stroop", "trailMaking", "reactionTime"])
        #expect(study.tasks.allSatisfy { $0.cardKind(eventsThatDay: 1) == .activeTask && !$0.outcome.isEmpty })
        let tapping = try #require(study.survey(taskID: "tapping"))
        #expect(tapping.steps.map(\.identifier) == ["instruction", "instruction1", "instruction.right", "countdown.tapping.right", "tapping.right",
                                                    "instruction.left", "countdown.tapping.left", "tapping.left", "conclusion"])
        #expect(study.charts.count == 2)
        // Worded in each of the study's languages, with the same steps.
        #expect(study.survey(taskID: "tapping", language: "ja")?.steps.first?.title == "タッピングの速さ")
        #expect(study.survey(taskID: "stroop", language: "es")?.steps.map(\.identifier) == study.survey(taskID: "stroop")?.steps.map(\.identifier))
        #expect(study.survey(taskID: "tapping", language: "en")?.steps.first?.title == "Tapping speed")
    }

    @Test func recoverClassicLoadsWithTheClassicConsentFlow() throws {
        let study = try StudyLoader.load(folder: StudyFixtures.recoverClassic, surveyFormats: [FHIRSurveyFormat()])
        #expect(study.identifier == "recover-classic")
        #expect(study.enrolment == .open)
        #expect(study.languages == ["en", "ja", "zh-Hans", "ko", "es"])
        for language in study.languages {
            let onboarding = study.onboardingTask(language: language)
            #expect(onboarding.consentSteps.map(\.type) == ["visualConsent", "consentSharing", "consentReview"])
            #expect(onboarding.document.language == language)
        }
        // `sameAs` copies the exercises' schedule into the pain survey's.
        #expect(study.task(id: "pain")?.schedule == study.task(id: "exercises")?.schedule)
        #expect(study.survey(taskID: "pain")?.identifier == "recover-pain")
    }

    @Test func languagesFollowPreferences() throws {
        let study = try StudyLoader.load(folder: StudyFixtures.recoverClassic, surveyFormats: [FHIRSurveyFormat()])
        #expect(study.language(forPreferences: ["fr-FR", "ja-JP", "en"]) == "ja")
        #expect(study.language(forPreferences: ["zh-CN"]) == "zh-Hans")
        #expect(study.language(forPreferences: ["zh-TW"]) == "en")
        #expect(study.language(forPreferences: ["en-GB"]) == "en")
        #expect(study.supportedLanguage(for: "ko-KR") == "ko")
        #expect(study.supportedLanguage(for: "fr") == nil)
    }

    /// Loads `folder`, which must fail, and returns its problems as `file: path: message` lines.
    func problems(in folder: URL) throws -> [String] {
        do {
            _ = try StudyLoader.load(folder: folder, surveyFormats: [FHIRSurveyFormat()])
            Issue.record("the study loaded, but it is broken")
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func consentStringsThatAreNotAMappingAreNamedAsSuch() throws {
        for (text, found) in [("consent: hello\n", "text"), ("consent:\n", "null"), ("consent: [en]\n", "a list")] {
            let lines = try StudyFixtures.withRecoverCopy { folder in
                try Data(text.utf8).write(to: folder.appendingPathComponent("strings.yaml"))
                return try problems(in: folder)
            }
            #expect(lines == ["strings.yaml: consent: expected a mapping of languages to consent strings, found \(found)"])
        }
    }

    /// The web app's strings are the study team's words on every page: a hidden direction override or control
    /// character is refused, and a reworded answer message must name a message and only the values it has.
    @Test func webStringsAreCheckedWhereTheyRewordAnAnswerMessage() throws {
        let lines = try StudyFixtures.withRecoverCopy { folder in
            try Data("""
            web:
              en:
                home.greeting: "Welcome \\u202Eback"
                answer.numberRange: "Between {low} and {maximum}, please."
                answer.numberRang: "Between {minimum} and {maximum}."
                answer.chooseAnswer: "Choose one of {count}."
              ja:
                answer.numberRange: "{minimum}〜{maximum}の数字でお答えください。"
            """.utf8).write(to: folder.appendingPathComponent("strings.yaml"))
            return try problems(in: folder)
        }
        #expect(lines == [
            "strings.yaml: web.en.home.greeting: holds U+202E RIGHT-TO-LEFT OVERRIDE, which would not show as written",
            "strings.yaml: web.en.answer.numberRange: names {low}, which the message does not have (it has {minimum}, {maximum})",
            "strings.yaml: web.en.answer.numberRang: is no answer message; did you mean 'answer.numberRange'?",
            "strings.yaml: web.en.answer.chooseAnswer: names {count}, which the message does not have (it names no values)",
        ], "\(lines)")
        let study = try StudyFixtures.withRecoverCopy { folder in
            try Data("web:\n  ja:\n    answer.numberRange: \"{minimum}〜{maximum}\"\n    answer.enterNumber: 数字を入れてください\n".utf8)
                .write(to: folder.appendingPathComponent("strings.yaml"))
            return try StudyLoader.load(folder: folder, surveyFormats: [FHIRSurveyFormat()])
        }
        #expect(study.strings.web["ja"]?["answer.numberRange"] == "{minimum}〜{maximum}")
        #expect(study.strings.web["ja"]?["answer.enterNumber"] == "数字を入れてください", "a message may leave out its values, or have none")
    }

    @Test func aBrokenStudyNamesEveryProblemWithItsFileAndPath() throws {
        let lines = try StudyFixtures.withRecoverCopy { folder in
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "ja: ../../consent/recover-consent.ja.json", with: "ja: ../../consent/missing.ja.json")
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "on: [monday]", with: "on: [mondy]")
            try StudyFixtures.edit("study.yaml", in: folder, replacing: #"daily: {at: "19:00", from: 0"#, with: #"daily: {at: "25:00", from: 0"#)
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "impactsAdherence: false", with: "impactsAdherance: false")
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "question: painLevel", with: "question: painLvl")
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "  - id: checkIn\n", with: """
                  - id: stretches
                    title: Stretches
                    schedule:
                      - sameAs: exercize
                      - daily: {at: "8am", from: 10, until: 3}
                  - id: pain
                    title: A second pain task
                    schedule: [{once: {day: 2, at: "09:30"}}]
                  - id: checkIn

                """)
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "languages: [en, ja, zh-Hans, ko, es]", with: "languages: [en, ja, zh-Hans, ko, es, fr]")
            try StudyFixtures.edit("surveys/weekly.json", in: folder, replacing: #""maximum": 240"#, with: #""maximum": -5"#)
            try StudyFixtures.edit("onboarding.json", in: folder, replacing: #""signature": "participant""#, with: #""signature": "investigator""#)
            return try problems(in: folder)
        }
        let expected = [
            "study.yaml: languages[5]: 'fr' has no built-in string table (StudyKit has en, zh-Hans, ja, ko, es); did you mean 'en'?",
            "study.yaml: tasks[1].outcome[0].question: the survey surveys/pain.json has no step 'painLvl'; did you mean 'painLevel'?",
            #"study.yaml: tasks[1].schedule[0].daily.at: '25:00' is not a time of day; write HH:MM on a 24-hour clock, such as "08:00" or "18:30""#,
            "study.yaml: tasks[2].schedule[0].weekly.on[0]: 'mondy' is not a weekday; did you mean 'monday'? (monday … sunday)",
            "study.yaml: tasks[3].schedule[0].sameAs: no task has the id 'exercize'; did you mean 'exercises'?",
            "study.yaml: tasks[3].schedule[1].daily.until: day 3 is before the first day (from: 10); 'until' is the last day with an event",
            "study.yaml: tasks[4].id: duplicate task id 'pain' (also tasks[1])",
            "study.yaml: tasks[5].impactsAdherance: unknown key 'impactsAdherance'; did you mean 'impactsAdherence'? (known keys: id, title, instructions, impactsAdherence, survey, active, outcome, code, card, lateEntry, value, schedule)",
        ]
        for line in expected { #expect(lines.contains(line), "missing: \(line)\nall:\n\(lines.joined(separator: "\n"))") }
        #expect(lines.contains { $0.hasPrefix("study.yaml: consent.translations.ja: no file at '../../consent/missing.ja.json'") })
        #expect(lines.contains { $0.hasPrefix("study.yaml: tasks[3].schedule[1].daily.at: '8am' is not a time of day") })
        // The survey's own fault, in the survey's file, at its path.
        #expect(lines.contains { $0.hasPrefix("surveys/weekly.json: steps[0].items[1].answerFormat.maximum: ") })
        // The Chinese document has no investigator signature; the English one does (and stands in for the missing Japanese one).
        #expect(lines.contains("onboarding.json: steps[2].signature: document 'recover-consent' has no signature 'investigator'; it has 'participant' (with the zh-Hans consent document)"))
    }

    @Test func chartsAreReadWithEveryFaultNamed() throws {
        let study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        #expect(study.charts == [StudyChart(id: "recovery", title: "Exercise and pain", kind: .bar, period: .week, series: [
            StudyChart.Series(taskID: "exercises", legend: "Exercise sessions done", colour: "#C8472B", aggregate: .count),
            StudyChart.Series(taskID: "pain", legend: "Pain (0–10)", colour: "#1F6FB2", aggregate: .mean, valueKind: "pain"),
        ]), StudyChart(id: "motion", title: "Knee bend and pain", kind: .line, period: .month, series: [
            StudyChart.Series(taskID: "kneeBend", legend: "Knee bend (degrees)", colour: "#2E7D32", aggregate: .mean, valueKind: "kneeRange"),
            StudyChart.Series(taskID: "pain", legend: "Pain (0–10)", colour: "#1F6FB2", aggregate: .mean, valueKind: "pain"),
        ])])
        let lines = try StudyFixtures.withRecoverCopy { folder in
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "charts:\n", with: """
                charts:
                  - id: bad
                    title: Bad
                    series:
                      - {task: excercises, legend: Typo, aggregate: count}
                      - {task: pain, legend: Red, colour: red, aggregate: mean}
                      - {task: pain, legend: Kind, aggregate: count, kind: pain}
                      - {task: pain, legend: Median, aggregate: median}
                  - id: recovery
                    title: Again
                    kind: pie
                    series: []

                """)
            return try problems(in: folder)
        }
        let expected = [
            "study.yaml: charts[0].series[0].task: no task has the id 'excercises'; did you mean 'exercises'?",
            "study.yaml: charts[0].series[1].colour: 'red' is not a colour written #RRGGBB",
            "study.yaml: charts[0].series[2].kind: 'count' counts events, not values; 'kind' goes with sum or mean",
            "study.yaml: charts[1].series: a chart needs at least one series",
            "study.yaml: charts[2].id: duplicate chart id 'recovery' (also charts[1])",
        ]
        for line in expected { #expect(lines.contains(line), "missing: \(line)\nall:\n\(lines.joined(separator: "\n"))") }
        #expect(lines.contains { $0.hasPrefix("study.yaml: charts[0].series[3].aggregate: ") && $0.contains("median") })
        #expect(lines.contains { $0.hasPrefix("study.yaml: charts[1].kind: ") && $0.contains("pie") })
    }

    @Test func remindersAreReadWithEveryFaultNamedAndTranslatedInEveryLanguage() throws {
        let study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        #expect(study.reminders.map(\.id) == ["painMorning", "painEvening", "phq9", "evening"])
        #expect(study.reminder(id: "evening")?.isForDailyPage == true && study.reminder(id: "evening")?.timing == .timeOfDay(minutes: 20 * 60 + 30))
        #expect(study.reminder(id: "phq9")?.isForDailyPage == false)
        #expect(study.localized("ko").reminder(id: "evening")?.title == "오늘 남은 일이 있나요?")
        #expect(study.reminder(id: "painMorning")?.timing == .timeOfDay(minutes: 9 * 60))
        #expect(study.reminder(id: "painMorning")?.onByDefault == false)
        #expect(study.quietHours == QuietHours(from: 21 * 60, to: 8 * 60))
        #expect(study.localized("ja").reminder(id: "painMorning")?.title == "毎日の痛みチェック")
        #expect(study.localized("es").reminder(id: "phq9")?.text == "Nueve preguntas sobre las dos últimas semanas, unos cinco minutos.")
        let lines = try StudyFixtures.withRecoverCopy { folder in
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "reminders:\n", with: """
                reminders:
                  - {id: typo, task: pian, at: "09:00", title: T, text: T}
                  - {id: twoTimings, task: pain, at: "09:00", after: {hours: 1}, title: T, text: T}
                  - {id: noTiming, task: pain, title: T, text: T}
                  - {id: badTime, task: pain, at: "9am", title: T, text: T}
                  - {id: tooLong, task: pain, before: {days: 8}, title: T, text: T}
                  - {id: twoUnits, task: pain, after: {hours: 1, minutes: 5}, title: T, text: T}
                  - {id: control, task: pain, at: "09:00", title: "Bell\\u0007", text: "Ok"}
                  - {id: bidi, task: pain, at: "09:00", title: "T", text: "a\\u202Eb"}
                  - {id: pageAndTask, task: pain, page: today, at: "20:00", title: T, text: T}
                  - {id: neither, at: "20:00", title: T, text: T}
                  - {id: pageDelay, page: today, after: {hours: 1}, title: T, text: T}
                  - {id: otherPage, page: insights, at: "20:00", title: T, text: T}
                  - {id: painMorning, task: pain, at: "10:00", title: T, text: T}

                """)
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "quietHours: {from: \"21:00\", to: \"08:00\"}",
                                   with: "quietHours: {from: \"25:00\", to: \"08:00\"}")
            return try problems(in: folder)
        }
        let expected = [
            "study.yaml: reminders[0].task: 'pian' is not a task of the study; did you mean 'pain'? (tasks: exercises, pain, weekly, checkIn, mood, medication, symptoms, icing, kneeBend)",
            "study.yaml: reminders[1]: a reminder has one timing; this one has 'at' and 'after'",
            "study.yaml: reminders[2]: a reminder needs one of 'at' (a time of day), 'after' (a delay after the event opens) or 'before' (a lead before it closes)",
            "study.yaml: reminders[3].at: '9am' is not a time of day as HH:MM (00:00 to 23:59)",
            "study.yaml: reminders[4].before.days: must be from 1 to 7 (found 8)",
            "study.yaml: reminders[5].after: a duration is one of {minutes: N}, {hours: N} or {days: N}",
            "study.yaml: reminders[6].title: has a control character; a reminder's text is plain text",
            "study.yaml: reminders[7].text: has a bidirectional control character, which can make a message read other than it is",
            "study.yaml: reminders[8]: a reminder is of a task or of the daily page; this one has both 'task' and 'page'",
            "study.yaml: reminders[9]: a reminder needs 'task' (a task whose events it reminds of) or 'page: today' (the daily page as a whole)",
            "study.yaml: reminders[10].after: a reminder of the daily page is at a time of day ('at'); its events open and close at different times",
            "study.yaml: reminders[11].page: 'insights' is not a page a reminder can be of (pages: today)",
            "study.yaml: reminders[13].id: duplicate reminder id 'painMorning' (also reminders[12])",
            "study.yaml: quietHours.from: '25:00' is not a time of day as HH:MM (00:00 to 23:59)",
        ]
        for line in expected { #expect(lines.contains(line), "missing: \(line)\nall:\n\(lines.joined(separator: "\n"))") }
    }

    /// Recover asks for the reminder email address on its permissions step, in every language; a study without reminders,
    /// or a survey, that asks for it is refused with the file and path.
    @Test func theReminderEmailAddressIsAskedForInTheOnboardingOfAStudyWithReminders() throws {
        let study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        for (language, title) in [("en", "Reminders by email"), ("ja", "メールでのリマインダー"), ("zh-Hans", "通过电子邮件接收提醒"),
                                  ("ko", "이메일 리마인더"), ("es", "Recordatorios por correo electrónico")] {
            let step = try #require(study.localized(language).onboardingTasks[language]?.task.step(withIdentifier: "permissions"))
            guard case .requestPermissions(let requests) = step.kind else { Issue.record("\(language): not a permissions step"); continue }
            #expect(requests.last?.kind == .email && requests.last?.identifier == "email" && requests.last?.title == title, "\(language)")
        }

        let lines = try StudyFixtures.withRecoverCopy { folder in
            let file = folder.appendingPathComponent("study.yaml")
            let text = try String(contentsOf: file, encoding: .utf8)
            let start = try #require(text.range(of: "\nreminders:\n")), end = try #require(text.range(of: "\nquietHours:"))
            try StudyFixtures.edit("study.yaml", in: folder, replacing: String(text[start.lowerBound..<end.lowerBound]), with: "")
            try StudyFixtures.edit("surveys/pain.json", in: folder, replacing: #""steps": ["#, with: #"""
                "steps": [{"type": "requestPermissions", "identifier": "mail", "permissions": [{"identifier": "email", "kind": "email"}]},
                """#)
            return try problems(in: folder)
        }
        #expect(lines.contains("onboarding.json: steps[3].permissions[2].kind: asks for the reminder email address, but the study sends no reminders (study.yaml has no 'reminders')"),
                "\(lines)")
        #expect(lines.contains("surveys/pain.json: steps[0].permissions[0].kind: the reminder email address is asked for in the onboarding only; "
                               + "once onboarded, participants add addresses in Settings → Reminders"), "\(lines)")
    }

    @Test func feedCardsAndImagesAreReadFromInsideTheStudyFolder() throws {
        let study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        #expect(study.feed.map(\.id) == ["tip", "firstWeeks", "help"])
        #expect(study.theme.logo == "images/logo.svg")
        #expect(Set(study.images.keys) == ["images/logo.svg", "images/first-weeks.svg"])
        #expect(study.images["images/logo.svg"]?.contentType == "image/svg+xml")
        guard case .featured(let markdown) = study.feed[1].content else { Issue.record("not featured"); return }
        #expect(markdown.hasPrefix("# Your first weeks after knee surgery"))
        guard case .links(let links) = study.feed[2].content else { Issue.record("not links"); return }
        #expect(links.map(\.kind) == [.call, .email, .website])

        let lines = try StudyFixtures.withRecoverCopy { folder in
            try Data(count: StudyImage.maximumBytes + 1).write(to: folder.appendingPathComponent("images/huge.png"))
            try Data("text".utf8).write(to: folder.appendingPathComponent("notes.txt"))
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "feed:\n", with: """
                feed:
                  - {id: a, kind: tip, title: A, image: ../../consent/recover-public-key.txt, text: Hi}
                  - {id: b, kind: tip, title: B, image: notes.txt, text: Hi}
                  - {id: c, kind: tip, title: C, image: images/huge.png, text: Hi}
                  - {id: d, kind: tip, title: D}
                  - {id: e, kind: featured, title: E, article: missing.md}
                  - {id: f, kind: links, title: F, links: [{type: website, label: X, url: "javascript:alert(1)"}, {type: call, label: Y, phone: none}]}
                  - {id: g, kind: banner, title: G, text: Hi}
                  - {id: a, kind: tip, title: A again, text: Hi, links: []}

                """)
            return try problems(in: folder)
        }
        let expected = [
            "study.yaml: feed[0].image: '../../consent/recover-public-key.txt' is outside the study folder; participants are shown only files inside it",
            "study.yaml: feed[1].image: 'notes.txt' is not an image StudyKit serves (gif, jpeg, jpg, png, svg, webp)",
            "study.yaml: feed[2].image: 'images/huge.png' is \(StudyImage.maximumBytes + 1) bytes; an image on a participant's page may have 524288 (512 KiB)",
            "study.yaml: feed[3].text: is required but missing (the tip's text)",
            "study.yaml: feed[5].links[0].url: 'javascript:alert(1)' is not an http or https address",
            "study.yaml: feed[5].links[1].phone: 'none' has no digits to dial",
            "study.yaml: feed[7].id: duplicate feed card id 'a' (also feed[0])",
            "study.yaml: feed[7].links: only a links card has 'links'; a tip card has 'text'",
        ]
        for line in expected { #expect(lines.contains(line), "missing: \(line)\nall:\n\(lines.joined(separator: "\n"))") }
        #expect(lines.contains { $0.hasPrefix("study.yaml: feed[4].article: no file at 'missing.md'") })
        #expect(lines.contains { $0.hasPrefix("study.yaml: feed[6].kind: ") && $0.contains("banner") })
    }

    @Test func aContactGivenTwiceOrWithABadIDIsNamed() throws {
        let lines = try StudyFixtures.withRecoverCopy { folder in
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "contacts:\n", with: """
                contacts:
                  - {id: physio, givenName: Sam}
                  - {id: "bad id", givenName: Kim}

                """)
            return try problems(in: folder)
        }
        #expect(lines.contains("study.yaml: contacts[2].id: duplicate contact id 'physio' (also contacts[0])"), "\(lines)")
        #expect(lines.contains("study.yaml: contacts[1].id: 'bad id' may hold only letters, digits, '-' and '_', starting with a letter or digit"))
    }

    @Test func thePatientSettingNamesOnboardingQuestionsOfTheRightKind() throws {
        // The browser suite's family-history study asks the birth date and gender at onboarding and names them.
        let familyHistory = StudyFixtures.repository.appendingPathComponent("tests/browser/studies/family-history")
        let study = try StudyLoader.load(folder: familyHistory, surveyFormats: [FHIRSurveyFormat()])
        #expect(study.patientFields == StudyPatientFields(birthDate: AnswerReference(step: "about", item: "birthDate"),
                                                          gender: AnswerReference(step: "about", item: "gender")))
        // What it reads from an onboarding result: the day as answered, and a gender only when it is one of FHIR's codes.
        let day = try #require(DateAnswer(year: 1961, month: 2, day: 28, timeZone: TimeZone(identifier: "Pacific/Auckland")!))
        func onboarding(_ gender: String) -> TaskResult {
            let about = StepResult(identifier: "about", startDate: .distantPast, endDate: .distantPast, results: [
                .question(QuestionResult(identifier: "birthDate", type: .date, answer: .date(day))),
                .question(QuestionResult(identifier: "gender", type: .textChoice, answer: .choices([ChoiceSelection(.string(gender))])))])
            return TaskResult(identifier: "onboarding", taskRunUUID: UUID(), startDate: .distantPast, endDate: .distantPast, stepResults: [about])
        }
        let details = study.patientFields.details(patientID: "p1", signature: ("Ada", "Lovelace"), onboarding: onboarding("female"))
        #expect(details == ParticipantDetails(patientID: "p1", givenName: "Ada", familyName: "Lovelace", birthDate: "1961-02-28", gender: "female"))
        #expect(study.patientFields.details(patientID: "p1", signature: nil, onboarding: onboarding("robot")).gender == nil)
        #expect(study.patientFields.details(patientID: "p1", signature: nil, onboarding: nil) == ParticipantDetails(patientID: "p1"))

        let lines = try StudyFixtures.withRecoverCopy { folder in
            try StudyFixtures.edit("onboarding.json", in: folder, replacing: "    {\n      \"type\": \"completion\",", with: """
                    {"type": "form", "identifier": "about", "items": [
                      {"identifier": "born", "answerFormat": {"type": "dateTime"}},
                      {"identifier": "sex", "answerFormat": {"type": "textChoice", "style": "single", "choices": [
                        {"text": "Female", "value": "female"}, {"text": "Robot", "value": "robot"}]}}]},
                    {
                      "type": "completion",
                """)
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "tasks:\n", with: """
                patient:
                  birthDate: about.born
                  gender: about.sex
                tasks:

                """)
            return try problems(in: folder)
        }
        #expect(lines.contains("study.yaml: patient.birthDate: 'about.born' in the onboarding (en) is not a date question (a day, without time)"), "\(lines)")
        #expect(lines.contains("study.yaml: patient.gender: 'about.sex' in the onboarding (en) is not a choice whose values are female, male, other, unknown"), "\(lines)")
        let other = try StudyFixtures.withRecoverCopy { folder in
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "tasks:\n", with: "patient: {birthDate: \"pain:level\", gender: welcome, sex: x}\ntasks:\n")
            return try problems(in: folder)
        }
        #expect(other.contains("study.yaml: patient.birthDate: 'pain:level' names another task; the patient's details come from the onboarding's own answers"), "\(other)")
        #expect(other.contains("study.yaml: patient.gender: the onboarding (en) has no question 'welcome'"), "\(other)")
        #expect(other.contains { $0.hasPrefix("study.yaml: patient.sex: unknown key 'sex'") }, "\(other)")
    }

    @Test func aMissingConsentDocumentAndAMissingSurveyAreNamed() throws {
        let lines = try StudyFixtures.withRecoverCopy { folder in
            try FileManager.default.removeItem(at: folder.appendingPathComponent("surveys/check-in.json"))
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "document: ../../consent/recover-consent.json", with: "document: consent.json")
            return try problems(in: folder)
        }
        #expect(lines.contains { $0.hasPrefix("study.yaml: consent.document: no file at 'consent.json'") })
        #expect(lines.contains { $0.hasPrefix("study.yaml: tasks[3].survey: no file at 'surveys/check-in.json'") })
    }

    @Test func activeTasksAreBuiltFromTheCatalogueAndTheirMeasuresMapToOutcomes() throws {
        let (study, lines) = try StudyFixtures.withRecoverCopy { folder in
            try StudyFixtures.withoutReminderEmail(folder)
            try """
            identifier: cognition
            name: Cognition
            languages: [en]
            consent: {document: ../../consent/recover-consent.json}
            onboarding: onboarding.json
            tasks:
              - id: tapping
                title: Tapping
                active: {task: twoFingerTapping, duration: 10, hands: right}
                outcome: [{measure: tapping.right.meanInterval, kind: tapInterval}]
                schedule: [{daily: {at: "08:00"}}]
            """.write(to: folder.appendingPathComponent("study.yaml"), atomically: true, encoding: .utf8)
            let study = try StudyLoader.load(folder: folder)
            try """
            identifier: cognition
            name: Cognition
            languages: [en]
            consent: {document: ../../consent/recover-consent.json}
            onboarding: onboarding.json
            tasks:
              - id: a
                title: A
                active: {task: twoFingerTapping, hands: middle}
                schedule: [{daily: {at: "08:00"}}]
              - id: b
                title: B
                active: {task: twoFingerTapping}
                outcome: [{measure: tapping.left.meanTime}, {measure: tapping.middle.tapCount}, {question: tapping.left.tapCount}]
                card: survey
                schedule: [{daily: {at: "08:00"}}]
              - id: c
                title: C
                survey: surveys/pain.json
                active: {task: tappingSpeed}
                schedule: [{daily: {at: "08:00"}}]
            """.write(to: folder.appendingPathComponent("study.yaml"), atomically: true, encoding: .utf8)
            return (study, try problems(in: folder))
        }
        #expect(study.task(id: "tapping")?.activeTask == "twoFingerTapping")
        #expect(study.task(id: "tapping")?.cardKind(eventsThatDay: 1) == .activeTask)
        #expect(study.survey(taskID: "tapping")?.steps.map(\.identifier).contains("tapping.right") == true)
        #expect(lines == [
            "study.yaml: tasks[0].active.hands: is 'middle'; expected one of left, right, both",
            "study.yaml: tasks[1].outcome[0].measure: step 'tapping.left' has no measure 'meanTime' (its measures: tapCount, offTargetCount, accuracy, meanInterval, intervalSD)",
            "study.yaml: tasks[1].outcome[1].measure: 'tapping.middle.tapCount' names no step of the active task; write STEP.MEASURE with a step of tapping.right, tapping.left",
            "study.yaml: tasks[1].outcome[2].measure: this task's outcome comes from its active task's measures: write 'measure' instead of 'question'",
            "study.yaml: tasks[1].card: a task with an active task is shown on an activeTask card; leave card out or write 'activeTask'",
            "study.yaml: tasks[2].active: a task opens either a survey or an active task; this one names both",
        ], "\(lines)")

        // A finished run's measures become the outcome's values; a measure without a value gives none.
        let definition = try #require(study.task(id: "tapping")), task = try #require(study.survey(taskID: "tapping"))
        func result(meanInterval: Double?) -> TaskResult {
            let active = ActiveStepResult(identifier: "tapping.right", module: "tapping", isComplete: meanInterval != nil, samples: .object([]),
                                          measures: [ActiveMeasure(identifier: "meanInterval", value: meanInterval, units: "ms")])
            let date = Date(timeIntervalSince1970: 1_790_000_000)
            return TaskResult(identifier: task.identifier, taskRunUUID: UUID(), startDate: date, endDate: date,
                              stepResults: [StepResult(identifier: "tapping.right", startDate: date, endDate: date, results: [.active(active)])])
        }
        let values = try SurveyOutcomeMapper.values(for: definition, survey: task, result: result(meanInterval: 212.5), recordedAt: Date())
        #expect(values.map(\.kind) == ["tapInterval"] && values.first?.units == "ms")
        #expect(values.first?.value == .double(212.5))
        #expect(try SurveyOutcomeMapper.values(for: definition, survey: task, result: result(meanInterval: nil), recordedAt: Date()).isEmpty)
    }

    @Test func structuralFaultsAreReported() throws {
        let lines = try StudyFixtures.withRecoverCopy { folder in
            try """
            identifier: "bad id"
            name: Broken
            langauges: [en]
            theme: {tint: red}
            consent: {document: ../../consent/recover-consent.json}
            onboarding: onboarding.json
            enrolment: {mode: invite}
            withdrawal: {data: erase}
            tasks:
              - id: onboarding
                title: Clash
                schedule: [{daily: {at: "08:00"}, weekly: {on: [monday], at: "08:00"}}]
              - id: x
                title: X
                outcome: [{question: q}]
                schedule: [{daily: {at: "08:00", for: {weeks: 2}, until: 20}}, {once: {day: 3}}, {daily: {}, duration: -5}]
            contacts:
              - {id: a}
            """.write(to: folder.appendingPathComponent("study.yaml"), atomically: true, encoding: .utf8)
            return try problems(in: folder)
        }
        let expected = [
            "study.yaml: langauges: unknown key 'langauges'; did you mean 'languages'? (known keys: identifier, name, languages, theme, consent, onboarding, strings, enrolment, withdrawal, translation, valueSets, tasks, contacts, charts, feed, patient, reminders, quietHours)",
            "study.yaml: languages: is required but missing",
            "study.yaml: identifier: 'bad id' may hold only letters, digits, '-' and '_', starting with a letter or digit",
            ##"study.yaml: theme.tint: 'red' is not a colour written as #RRGGBB, such as "#0A66C2""##,
            "study.yaml: enrolment.mode: 'invite' is not one of invitation, open",
            "study.yaml: withdrawal.data: 'erase' is not one of keep, delete, participantChooses",
            "study.yaml: tasks[0].id: 'onboarding' is the study's onboarding task; give this task another id",
            "study.yaml: tasks[0].schedule[0]: a schedule element has exactly one of daily, weekly, once or sameAs (found daily and weekly)",
            "study.yaml: tasks[1].outcome: an outcome mapping reads survey answers or active task measures; this task has neither",
            "study.yaml: tasks[1].schedule[0].daily: give either 'for' or 'until', not both",
            #"study.yaml: tasks[1].schedule[1].once.at: is required but missing (a time such as "08:00"; only an allDay event may leave it out)"#,
            #"study.yaml: tasks[1].schedule[2].duration: expected a number of minutes greater than 0 or "allDay", found a number"#,
            "study.yaml: contacts[0]: a contact needs a givenName, a familyName or both",
        ]
        for line in expected { #expect(lines.contains(line), "missing: \(line)\nall:\n\(lines.joined(separator: "\n"))") }
    }

    @Test func malformedYAMLNamesTheLine() throws {
        let lines = try StudyFixtures.withRecoverCopy { folder in
            try "identifier: recover\nname: [Recover\nlanguages: [en]\n".write(to: folder.appendingPathComponent("study.yaml"), atomically: true, encoding: .utf8)
            return try problems(in: folder)
        }
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("study.yaml: malformed YAML: line ") == true)
    }

    /// A kilobyte of nested anchors ("billion laughs") stood for 10^9 values: 410 MB and 4.5 s at depth 6, no end at
    /// depth 8. The loader stops counting at a fixed budget, whatever the depth, and names the file and line.
    @Test func nestedYAMLAliasesAreRefusedBeforeTheyExpand() throws {
        var yaml = "identifier: recover\nname: Recover\nlanguages: [en]\nlol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for depth in 1...9 { yaml += "lol\(depth): &l\(depth) [" + Array(repeating: "*l\(depth - 1)", count: 10).joined(separator: ", ") + "]\n" }
        let lines = try StudyFixtures.withRecoverCopy { folder in
            try yaml.write(to: folder.appendingPathComponent("study.yaml"), atomically: true, encoding: .utf8)
            return try problems(in: folder)
        }
        #expect(lines.count == 1, "\(lines)")
        let line = try #require(lines.first)
        #expect(line.hasPrefix("study.yaml: lol"), "\(line)")
        #expect(line.contains("expands to more than 100000 values") && line.contains("(line "), "\(line)")
    }

    /// Yams compares a mapping's keys while composing, expanding an alias used as a key in full before the value budget
    /// counts anything: `? *l8` over eight levels ran past 30 s. Such keys are refused from the text.
    @Test func anAliasUsedAsAMappingKeyIsRefusedBeforeYamsExpandsIt() throws {
        var yaml = "lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for depth in 1...8 { yaml += "lol\(depth): &l\(depth) [" + Array(repeating: "*l\(depth - 1)", count: 9).joined(separator: ", ") + "]\n" }
        for key in ["? *l8\n: boom\n", "*l8 : boom\n", "{*l8: boom}\n"] {
            #expect(throws: DocumentSyntaxError(message: "line 10: a mapping key that is an alias or a complex key (?) in a document with aliases "
                + "is refused: comparing such keys repeats whatever the alias names, without limit")) {
                _ = try StudyDocumentParser.parseYAML(yaml + key)
            }
        }
        // A question mark in text, and an asterisk in a value, are not keys.
        #expect(try StudyDocumentParser.parseYAML("name: \"Why?\"\ntext: 5 * 3\n")["text"] == .string("5 * 3"))
        // Markdown's bold before a colon, in a quoted string of a document with aliases, is text too (a translated article).
        let markdown = "base: &b x\nalso: *b\narticle: \"- **Exercise**: three times a day\"\n"
        #expect(try StudyDocumentParser.parseYAML(markdown)["article"] == .string("- **Exercise**: three times a day"))
    }

    @Test func anAliasUsedOnceOrTwiceStillReads() throws {
        let value = try StudyDocumentParser.parseYAML("base: &base {tint: '#0A66C2'}\ntheme: *base\nagain: *base\n")
        #expect(value["theme"]?["tint"] == .string("#0A66C2"))
        #expect(value["again"]?["tint"] == .string("#0A66C2"))
    }

    @Test func aFileLargerThanTheLimitIsRefusedUnread() throws {
        let lines = try StudyFixtures.withRecoverCopy { folder in
            let big = "# padding\n" + String(repeating: "#" + String(repeating: " ", count: 1_000) + "\n", count: 9_000)
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "identifier: recover", with: big + "identifier: recover")
            return try problems(in: folder)
        }
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("study.yaml: the file is ") == true && lines.first?.contains("more than the 8388608 bytes (8 MiB)") == true,
                "\(lines)")
    }

    @Test func aDuplicateKeyIsNamedWithItsLineNotTheWholeFile() throws {
        let lines = try StudyFixtures.withRecoverCopy { folder in
            try StudyFixtures.edit("study.yaml", in: folder, replacing: "identifier: recover", with: "identifier: recover\nidentifier: again")
            return try problems(in: folder)
        }
        #expect(lines.count == 1, "\(lines)")
        let line = try #require(lines.first)
        #expect(line.hasPrefix("study.yaml: identifier"), "\(line)")
        #expect(line.contains("line 2") || line.contains("line 3"), "\(line)")
        #expect(line.count < 300, "the message is about the key, not the file: \(line)")
    }

    @Test func aStudyJSONFileReadsLikeYAML() throws {
        try StudyFixtures.withRecoverCopy { folder in
            try StudyFixtures.withoutReminderEmail(folder)
            let yamlStudy = try StudyLoader.load(folder: folder, surveyFormats: [FHIRSurveyFormat()])
            try FileManager.default.removeItem(at: folder.appendingPathComponent("study.yaml"))
            try """
            {"identifier": "recover", "name": "Recover", "languages": ["en", "ja", "zh-Hans", "ko", "es"], "theme": {"tint": "#C8472B"},
             "translation": {"fallback": ["ja", "zh-Hans", "ko", "es"]},
             "consent": {"document": "../../consent/recover-consent.json",
                         "translations": {"ja": "../../consent/recover-consent.ja.json", "zh-Hans": "../../consent/recover-consent.zh-Hans.json",
                                          "ko": "../../consent/recover-consent.ko.json", "es": "../../consent/recover-consent.es.json"}},
             "onboarding": "onboarding.json", "strings": "strings.yaml", "enrolment": {"mode": "invitation"},
             "tasks": [
               {"id": "exercises", "title": "Knee exercises", "instructions": "Ten straight-leg raises, ten heel slides and ten quad sets with your operated leg. Tick each session when you have done it.",
                "card": "checklist", "lateEntry": true,
                "schedule": [{"daily": {"at": "08:00", "from": 1, "for": {"weeks": 6}}, "duration": 30, "text": "after breakfast"},
                             {"daily": {"at": "13:00", "from": 1, "for": {"weeks": 6}}, "duration": 30, "text": "after lunch"},
                             {"daily": {"at": "19:00", "from": 1, "for": {"weeks": 6}}, "duration": 30, "text": "after dinner"}]}
             ]}
            """.write(to: folder.appendingPathComponent("study.json"), atomically: true, encoding: .utf8)
            let jsonStudy = try StudyLoader.load(folder: folder, surveyFormats: [FHIRSurveyFormat()])
            #expect(jsonStudy.tasks == [yamlStudy.tasks[0]])
            #expect(jsonStudy.consentDocuments == yamlStudy.consentDocuments)
            #expect(jsonStudy.onboardingTasks == yamlStudy.onboardingTasks)
            #expect(jsonStudy.strings == yamlStudy.strings)
        }
    }

    /// JSON readers disagree on a member given twice (one keeps the first, another the last), so a study JSON file
    /// holding one is refused with the key's path and line rather than read one way here and another way elsewhere.
    @Test func aDuplicateKeyInAStudyJSONFileIsRefusedWithItsPath() throws {
        let lines = try StudyFixtures.withRecoverCopy { folder in
            try FileManager.default.removeItem(at: folder.appendingPathComponent("study.yaml"))
            try """
            {"identifier": "recover", "name": "Recover", "languages": ["en"],
             "enrolment": {"mode": "invitation", "mode": "open"}, "tasks": []}
            """.write(to: folder.appendingPathComponent("study.json"), atomically: true, encoding: .utf8)
            return try problems(in: folder)
        }
        #expect(lines.count == 1, "\(lines)")
        let line = try #require(lines.first)
        #expect(line.hasPrefix("study.json: malformed JSON: enrolment: "), "\(line)")
        #expect(line.contains("\"mode\"") && line.contains("twice") && line.contains("line 2"), "\(line)")
    }

    /// `Study` carries no FHIR code: a Questionnaire survey needs StudyFHIR's format, and without it the loader says
    /// so in the Questionnaire's file rather than reading it as a task file.
    @Test func aQuestionnaireSurveyNeedsTheFHIRFormat() throws {
        do {
            _ = try StudyLoader.load(folder: StudyFixtures.examples.appendingPathComponent("studies/recover"))
            Issue.record("Recover lists a Questionnaire, and no format was given to read it")
        } catch {
            #expect(error.problems.map(\.description) == [
                "surveys/phq9.json: a FHIR Questionnaire, and this study was loaded without a survey format that reads one: "
                    + "load it with StudyFHIR's FHIRSurveyFormat (studykit and the server do)",
            ])
        }
    }

    @Test func aFolderWithoutAStudyFileSaysSo() throws {
        let lines = try problems(in: StudyFixtures.examples.appendingPathComponent("consent"))
        #expect(lines == ["study.yaml: the study folder \(StudyFixtures.examples.appendingPathComponent("consent").path) has no study.yaml or study.json"])
    }
}

/// A participant's language among Recover's (en, ja, zh-Hans, ko, es): the tag's fallback chain, then the study's
/// default, which the caller uses when this is nil.
@Suite("A study's language for a participant")
struct StudyLanguageTests {
    @Test(arguments: [
        ("zh-CN", "zh-Hans"), ("zh-SG", "zh-Hans"), ("zh", "zh-Hans"), ("zh-Hans-CN", "zh-Hans"),
        ("ja-JP", "ja"), ("ko_KR", "ko"), ("es-419", "es"), ("en-GB", "en"),
    ] as [(String, String)])
    func aTagFallsBackToTheStudysLanguage(_ requested: String, _ expected: String) throws {
        let study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        #expect(study.supportedLanguage(for: requested) == expected)
    }

    @Test(arguments: ["zh-TW", "zh-HK", "zh-Hant", "fr-FR"])
    func traditionalChineseAndOtherLanguagesGetTheDefault(_ requested: String) throws {
        let study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        #expect(study.supportedLanguage(for: requested) == nil)
        #expect(study.language(forPreferences: [requested]) == "en")
    }
}
