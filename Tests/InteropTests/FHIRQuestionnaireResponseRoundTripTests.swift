import Crypto
import Foundation
import Interop
import Research
import Testing

private typealias Support = ResponseTestSupport

@Suite("FHIR QuestionnaireResponse: round trips")
struct FHIRQuestionnaireResponseRoundTripTests {
    /// The HL7 PHQ-9 response → task result → response: the same items, nesting and answers. The only change
    /// is that each Coding gains the `system` of the Questionnaire's ValueSet (the fixture leaves it out); the
    /// `text` of every item is the Questionnaire's, which the fixture already uses.
    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func phq9FixtureResponse() throws {
        let questionnaire = try Support.questionnaire(fixture: "sdc-phq9-questionnaire.json")
        let original = try Support.fixture("sdc-phq9-response.json")
        let utc = Support.zone("UTC")
        let read = try FHIRQuestionnaireResponseReader(questionnaire: questionnaire).read(original, timeZone: utc, fallbackRunUUID: UUID())
        let written = try FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire).response(
            for: read.result, status: read.status, timeZone: utc, subject: read.subject, author: read.author)

        let before = try Support.object(original)
        let after = try Support.object(written)
        #expect(Support.outline(after["item"], includeSystem: false) == Support.outline(before["item"], includeSystem: false))
        #expect(Support.texts(after["item"]) == Support.texts(before["item"]))
        #expect(Support.outline(after["item"]).contains("valueCoding=http://hl7.org/fhir/uv/sdc/CodeSystem/CSPHQ9|Not-at-all|Not at all"))
        #expect(Support.outline(after["item"]).contains("H1/TS[valueQuantity=13|{score}]"))
        for key in ["status", "subject", "author"] {
            #expect(String(describing: after[key] ?? "-") == String(describing: before[key] ?? "-"), "\(key)")
        }
        #expect(after["questionnaire"] as? String == "http://hl7.org/fhir/uv/sdc/Questionnaire/questionnaire-sdc-profile-example-PHQ9|0.0.1")
        let authored = try #require(after["authored"] as? String)
        #expect(abs(Support.instant(authored).timeIntervalSince(Support.instant("2019-08-21T20:36:57.544Z"))) < 0.001)

        // And the response written reads back to the same result.
        let again = try FHIRQuestionnaireResponseReader(questionnaire: questionnaire)
            .read(written, timeZone: utc, fallbackRunUUID: UUID())
        #expect(again.result == read.result, "the written id is the run UUID, so even the run is the same")
    }

    let letter = Data("%PDF-1.4 a letter from the clinic".utf8)

    func sha256(_ data: Data) -> String { SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() }

    /// A hand-built result answering every supported question of sdc-all-data-types.json, its attachment with a file.
    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func allDataTypesFixture() throws {
        let questionnaire = try Support.questionnaire(fixture: "sdc-all-data-types.json")
        let zone = Support.zone("Australia/Adelaide")
        let answers: [String: Answer] = [
            "id-string": .text("Short answer"),
            "id-text": .text("Several\nlines"),
            "id-boolean": .boolean(true),
            "id-date": .date(DateAnswer(year: 1969, month: 7, day: 20, timeZone: zone)!),
            "id-datetime": .date(DateAnswer(date: Support.instant("2026-10-04T01:15:30Z"), timeZone: zone, includesTime: true)),
            "id-time": .timeOfDay(TimeOfDay(hour: 23, minute: 59, second: 58)),
            "id-integer": .number(-42),
            "id-decimal": .number(Decimal(string: "0.1")!),
            "id-attachment": .file(FileAnswer(fileName: "id-attachment-1.pdf", contentType: "application/pdf", byteCount: letter.count,
                                              sha256: sha256(letter),
                                              title: "letter.pdf")),
        ]
        let asked = Set(questionnaire.task.steps.flatMap(\.questions).map(\.identifier))
        #expect(asked == Set(answers.keys), "every question the importer asks is answered")
        try roundTrip(questionnaire, answers, zone: zone, files: ["id-attachment-1.pdf": letter])
    }

    /// Every item type and choice kind the importer supports, in nested groups.
    @Test func everySupportedItemType() throws {
        let questionnaire = try Support.allKinds()
        let zone = Support.zone("Pacific/Kiritimati")
        let answers = Support.everyAnswer(in: zone)
        let asked = Set(questionnaire.task.steps.flatMap(\.questions).map(\.identifier))
        #expect(asked.subtracting(answers.keys) == ["unasked", "photo"])
        try roundTrip(questionnaire, answers, zone: zone)
    }

    /// sdc-enablewhen.json run through a task session, so that hidden items are not asked: the response has
    /// only what was asked and answered, and reads back to the same answers.
    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func enableWhenFixtureWithHiddenItems() throws {
        let questionnaire = try Support.questionnaire(fixture: "sdc-enablewhen.json")
        let q1 = "83d5c1a6-5dc3-44d0-9d9e-d687c72e143e"
        let q2 = "fe0106a5-0e25-43a4-9820-7acb7e74d9d7"
        let hiddenUntilQ1 = "e5da17a7-7546-45c5-9bcd-d0b09a74cc14"
        let groupPresentUntilQ2 = "65578509-21ae-4a48-94de-e46b1e10ghqn"
        let zone = Support.zone("America/New_York")
        var given: [String: Answer] = [
            q1: .boolean(true), q2: .boolean(true),
            "s1-radio": .choices([ChoiceSelection(.string("1"))]),
            "date_of_birth_question": .date(DateAnswer(year: 2010, month: 5, day: 1, timeZone: zone)!),
            "datetime_question": .timeOfDay(TimeOfDay(hour: 9, minute: 0)),
            "BC029": .choices([ChoiceSelection(.string("1")), ChoiceSelection(.string("9"))]),
        ]
        // Every text question that is asked gets an answer; hidden ones never are.
        for step in questionnaire.task.steps {
            for question in step.questions where question.format.type == .text { given[question.identifier] = .text("answer to \(question.identifier)") }
        }
        var session = try TaskSession(task: questionnaire.task)
        var asked = Set<String>()
        for _ in 0..<200 {
            guard let step = session.currentStep else { break }
            for question in step.questions {
                asked.insert(question.identifier)
                if let answer = given[question.identifier] { try session.setAnswer(answer, for: question.identifier) }
            }
            if session.canGoForward { try session.goForward() } else { try session.skip() }
        }
        #expect(session.currentStep == nil)
        #expect(asked.contains(hiddenUntilQ1) && asked.contains("date_greater_2000-01-01") && asked.contains("BOWOPTOTH"))
        let hidden: Set<String> = [groupPresentUntilQ2, "date_less_2000-01-01", "datetime_question_greter_than"]
        #expect(asked.isDisjoint(with: hidden))

        let result = session.result
        let builder = FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire)
        let written = try builder.response(for: result, status: .completed, timeZone: zone)
        let json = try Support.object(written)
        let inResponse = Set(Support.texts(json["item"]).keys)
        #expect(inResponse.isDisjoint(with: hidden))
        #expect(inResponse.isSuperset(of: [hiddenUntilQ1, "BOWOPTOTH", q1, q2]))
        let read = try FHIRQuestionnaireResponseReader(questionnaire: questionnaire).read(written, timeZone: zone, fallbackRunUUID: UUID())
        let answered = Support.answers(result).filter { $0.value != .choices([]) }
        #expect(Support.answers(read.result) == answered)
        #expect(read.result.taskRunUUID == result.taskRunUUID)
        #expect(Set(answered.keys) == asked.intersection(given.keys))
    }

    /// Result → response → result gives the same answers in the same steps, and → response the same bytes.
    func roundTrip(_ questionnaire: FHIRQuestionnaire, _ answers: [String: Answer], zone: TimeZone, files: [String: Data] = [:],
                   sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = Support.result(questionnaire, answers)
        let builder = FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire, fileContents: { files[$0.fileName] })
        let reader = FHIRQuestionnaireResponseReader(questionnaire: questionnaire)
        let written = try builder.response(for: result, status: .completed, timeZone: zone, subject: FHIRReference(reference: "Patient/p"))
        let read = try reader.read(written, timeZone: zone, fallbackRunUUID: UUID())
        #expect(read.result.identifier == result.identifier, sourceLocation: sourceLocation)
        #expect(read.result.taskRunUUID == result.taskRunUUID, sourceLocation: sourceLocation)
        #expect(read.result.stepResults.map(\.identifier) == result.stepResults.map(\.identifier), sourceLocation: sourceLocation)
        #expect(read.result.stepResults.map { $0.questionResults } == result.stepResults.map { $0.questionResults },
                sourceLocation: sourceLocation)
        #expect(Support.answers(read.result) == answers, sourceLocation: sourceLocation)
        #expect(read.result.endDate == result.endDate, sourceLocation: sourceLocation)
        #expect(read.subject == FHIRReference(reference: "Patient/p"), sourceLocation: sourceLocation)
        #expect(read.files == files, "attached files come back with their data", sourceLocation: sourceLocation)
        let rewritten = try builder.response(for: read.result, status: read.status, timeZone: zone, subject: read.subject)
        #expect(rewritten == written, sourceLocation: sourceLocation)
    }
}
