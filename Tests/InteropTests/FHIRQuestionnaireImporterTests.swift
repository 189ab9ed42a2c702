import Foundation
import Interop
import Research
import Testing

/// The HL7 SDC fixtures, read from the shared fixtures folder (see ``HL7Fixtures``).
private let fixtures = HL7Fixtures.folder

private func importFixture(_ name: String) throws -> FHIRQuestionnaireImport {
    try FHIRQuestionnaireImporter().importQuestionnaire(Data(contentsOf: fixtures.appendingPathComponent(name)))
}

private func importJSON(_ json: String) throws -> FHIRQuestionnaireImport {
    try FHIRQuestionnaireImporter().importQuestionnaire(Data(json.utf8))
}

/// Runs the task to the end, giving each asked item its answer from `answers` (others left empty), and
/// returns the linkIds of the items that were asked.
private func askedItems(_ task: ResearchTask, _ answers: [String: Answer]) throws -> Set<String> {
    var session = try TaskSession(task: task)
    var asked = Set<String>()
    var guard_ = 0
    while let step = session.currentStep {
        guard_ += 1
        #expect(guard_ < 200)
        if guard_ >= 200 { break }
        for question in step.questions {
            asked.insert(question.identifier)
            if let answer = answers[question.identifier] { try session.setAnswer(answer, for: question.identifier) }
        }
        if session.canGoForward { try session.goForward() } else { try session.skip() }
    }
    return asked
}

private func choice(_ code: String) -> Answer { .choices([ChoiceSelection(.string(code))]) }

private func day(_ year: Int, _ month: Int, _ dayOfMonth: Int) -> Answer {
    .date(DateAnswer(year: year, month: month, day: dayOfMonth, timeZone: TimeZone(identifier: "UTC")!)!)
}

@Suite("FHIR Questionnaire import: the enableWhen fixture")
struct EnableWhenFixtureTests {
    let q1 = "83d5c1a6-5dc3-44d0-9d9e-d687c72e143e"
    let q2 = "fe0106a5-0e25-43a4-9820-7acb7e74d9d7"
    let hiddenUntilQ1 = "e5da17a7-7546-45c5-9bcd-d0b09a74cc14"
    let groupHiddenUntilQ1 = "65578509-21ae-4a48-94de-e46b1e54kjui"
    let groupPresentUntilQ2 = "65578509-21ae-4a48-94de-e46b1e10ghqn"

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func importsIntoAValidTask() throws {
        let result = try importFixture("sdc-enablewhen.json")
        #expect(TaskValidator.problems(in: result.task).isEmpty)
        #expect(!result.task.skipRules.isEmpty)
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func conditionsOnCodingQuestionsWrittenAsTextOrNumbersAreReadByCode() throws {
        let result = try importFixture("sdc-enablewhen.json")
        #expect(result.issues.filter { $0.kind == .mismatchedCondition }.isEmpty)
        let interpreted = result.issues.filter { $0.kind == .interpretedCondition }
        let pairs = Set(interpreted.map { "\($0.linkId ?? "")->\($0.otherLinkId ?? "")" })
        #expect(pairs == [
            // answerString compared with choices whose options are Codings.
            "e5da17a7-7546-45c5-9bcd-d0b09a74ty76->s1-radio",
            "65578509-21ae-4a48-94de-e46be454f8k1->s1-radio",
            "65578509-21ae-4a48-94de-h1l9v32opase->5e1209b7-c9e0-4bf4-b228-c6591b540qmo",
            "65578509-21ae-4a48-3f56-aswtysn1238->5e1209b7-c9e0-4bf4-b228-fr096s903m25",
            "76daed4f-f957-45cb-9584-aab95f6021d4->5e1209b7-c9e0-4bf4-b228-fr096s903m25",
            "76daed4f-f957-45cb-9584-aab95f6021d4->5e1209b7-c9e0-4bf4-b228-c6591b540qmo",
            // answerDecimal and answerInteger compared with Coding options whose codes are numbers.
            "945b97b5-6d74-4a55-9be1-19897512jj89->s3-radio",
            "04fabc33-534a-4047-9a13-c13b0b63fa17->s3-radio",
            "945b97b5-6d74-4a55-9be1-1989751233ew->s4-radio",
            "04fabc33-534a-4047-9a13-c13b0b63gh76->s4-radio",
        ])
        #expect(interpreted.allSatisfy { !$0.refusesImport && $0.message.contains($0.otherLinkId!) && $0.message.contains($0.linkId!) })
        // The Yes/No/Don't know question uses an external ValueSet: it is refused, and so are the conditions that name it.
        // Nothing else refuses the form.
        let external = result.issues.filter { $0.linkId == "1acf93a7-0890-44cd-be48-542defb35248" }
        #expect(external.map(\.kind) == [.unsupportedProperty])
        let orphaned = Set(result.issues.filter { $0.kind == .unsupportedCondition }.compactMap(\.linkId))
        #expect(orphaned == ["945b97b5-6d74-4a55-9be1-1989751219fb", "fab7c5c4-0ac0-4afa-bd6d-c0ce4f5e0bdf"])
        #expect(Set(result.refusals.compactMap(\.linkId)) == orphaned.union(["1acf93a7-0890-44cd-be48-542defb35248"]))
        // Both drop-down itemControls are read, and no extension is left unread: the single choice becomes a value
        // picker (a drop-down list); the repeating one (BC029) stays check boxes, with a note.
        #expect(result.issues.filter { $0.kind == .unsupportedExtension }.isEmpty)
        let pickers = result.task.steps.flatMap(\.questions).filter { if case .valuePicker = $0.format { true } else { false } }
        #expect(pickers.map(\.identifier) == ["5e1209b7-c9e0-4bf4-b228-c6591b540qmo"])
        #expect(result.issues.contains { $0.linkId == "BC029" && $0.kind == .shownDifferently && $0.message.contains("check boxes") })
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func booleanEqualsShowsAndHides() throws {
        let task = try importFixture("sdc-enablewhen.json").task
        let checked = try askedItems(task, [q1: .boolean(true), q2: .boolean(false)])
        #expect(checked.isSuperset(of: [hiddenUntilQ1, groupHiddenUntilQ1, groupPresentUntilQ2]))
        let unchecked = try askedItems(task, [q1: .boolean(false), q2: .boolean(true)])
        #expect(unchecked.isDisjoint(with: [hiddenUntilQ1, groupHiddenUntilQ1, groupPresentUntilQ2]))
        // Unanswered: `= true` and `= false` both fail.
        let unanswered = try askedItems(task, [:])
        #expect(unanswered.isDisjoint(with: [hiddenUntilQ1, groupHiddenUntilQ1, groupPresentUntilQ2]))
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func dateAndTimeOrderingOperators() throws {
        let task = try importFixture("sdc-enablewhen.json").task
        let late = try askedItems(task, ["date_of_birth_question": day(2010, 5, 1), "datetime_question": .timeOfDay(TimeOfDay(hour: 12, minute: 0))])
        #expect(late.contains("date_greater_2000-01-01") && !late.contains("date_less_2000-01-01"))
        #expect(late.contains("datetime_question_greter_than") && !late.contains("datetime_question_less_than_equal"))
        let early = try askedItems(task, ["date_of_birth_question": day(2000, 1, 1), "datetime_question": .timeOfDay(TimeOfDay(hour: 11, minute: 11, second: 11))])
        #expect(!early.contains("date_greater_2000-01-01") && early.contains("date_less_2000-01-01"))
        #expect(!early.contains("datetime_question_greter_than") && early.contains("datetime_question_less_than_equal"))
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func multipleChoiceEqualsMeansAnyChosen() throws {
        let task = try importFixture("sdc-enablewhen.json").task
        let both = Answer.choices([ChoiceSelection(.string("1")), ChoiceSelection(.string("9"))])
        #expect(try askedItems(task, ["BC029": both]).contains("BOWOPTOTH"))
        #expect(try !askedItems(task, ["BC029": choice("1")]).contains("BOWOPTOTH"))
        #expect(try !askedItems(task, [:]).contains("BOWOPTOTH"))
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func codesComparedAsTextOrNumbersShowAndHide() throws {
        let task = try importFixture("sdc-enablewhen.json").task
        // "Question hidden until Q3 radio 2 Selected": s1-radio = "2", an answerString against Coding options.
        #expect(try askedItems(task, ["s1-radio": choice("2")]).contains("e5da17a7-7546-45c5-9bcd-d0b09a74ty76"))
        #expect(try !askedItems(task, ["s1-radio": choice("1")]).contains("e5da17a7-7546-45c5-9bcd-d0b09a74ty76"))
        #expect(try !askedItems(task, [:]).contains("e5da17a7-7546-45c5-9bcd-d0b09a74ty76"))
        // "Group visible when value < 2.2" (answerDecimal 2.1) and its ">= 2.1" twin, on codes 1.1, 2.2 and 3.3.
        let below = try childQuestions(of: "945b97b5-6d74-4a55-9be1-19897512jj89", in: task)
        let above = try childQuestions(of: "04fabc33-534a-4047-9a13-c13b0b63fa17", in: task)
        let small = try askedItems(task, ["s3-radio": choice("1.1")])
        #expect(small.isSuperset(of: below) && small.isDisjoint(with: above))
        let large = try askedItems(task, ["s3-radio": choice("3.3")])
        #expect(large.isSuperset(of: above) && large.isDisjoint(with: below))
        #expect(try askedItems(task, [:]).isDisjoint(with: below.union(above)))
    }

    /// The questions inside the group `linkId` of the fixture, as the task asks them.
    func childQuestions(of linkId: String, in task: ResearchTask) throws -> Set<String> {
        let data = try Data(contentsOf: HL7Fixtures.folder.appendingPathComponent("sdc-enablewhen.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        func find(_ items: [Any]) -> [String: Any]? {
            for case let item as [String: Any] in items {
                if item["linkId"] as? String == linkId { return item }
                if let found = find(item["item"] as? [Any] ?? []) { return found }
            }
            return nil
        }
        let group = try #require(find(root["item"] as? [Any] ?? []))
        let asked = Set(task.steps.flatMap(\.questions).map(\.identifier))
        let children = Set((group["item"] as? [Any] ?? []).compactMap { ($0 as? [String: Any])?["linkId"] as? String }).intersection(asked)
        #expect(!children.isEmpty, "group \(linkId) has no question the task asks")
        return children
    }
}

@Suite("FHIR Questionnaire import: other fixtures")
struct OtherFixtureTests {
    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func allDataTypes() throws {
        let result = try importFixture("sdc-all-data-types.json")
        #expect(TaskValidator.problems(in: result.task).isEmpty)
        let formats = Dictionary(uniqueKeysWithValues: result.task.steps.flatMap(\.questions).map { ($0.identifier, $0.format) })
        #expect(formats["id-string"] == .text(TextFormat()))
        #expect(formats["id-text"] == .text(TextFormat(multipleLines: true)))
        #expect(formats["id-boolean"]?.type == .boolean)
        #expect(formats["id-date"]?.type == .date)
        #expect(formats["id-datetime"]?.type == .dateTime)
        #expect(formats["id-time"]?.type == .timeOfDay)
        #expect(formats["id-integer"] == .numeric(NumericFormat(style: .integer)))
        #expect(formats["id-decimal"] == .numeric(NumericFormat(style: .decimal)))
        #expect(formats["id-attachment"] == .file(FileFormat()))
        let unsupported = Set(result.issues.filter { $0.kind == .unsupportedItem || $0.kind == .unsupportedProperty }.compactMap(\.linkId))
        #expect(unsupported == ["id-choice", "440f8cc6-3ea2-40c2-b03a-d03187131fd3",
                                "06aaa075-86e4-4cf2-a1ef-a86ab10e86e9", "EF8E3936-3246-4B3E-A46C-9FDAA5ACB635"])
        // The markdown text of a display item is noted, without refusing the form: the plain text is shown.
        #expect(result.issues.contains {
            $0.linkId == "9acf93a7-0890-44cd-be48-542defb35223" && $0.path.hasSuffix("._text.extension[0]") && $0.kind == .acceptedExtension
        })
        // Both display items become text on the form.
        let form = result.task.steps.compactMap { step -> FormContent? in if case .form(let f) = step.kind { f } else { nil } }
        #expect(form.flatMap(\.items).filter(\.isSectionTitle).count == 2)
    }

    /// Stand-ins for the fixture's external ValueSets, which live on a terminology server this machine cannot reach:
    /// what matters is that `answerValueSet` URLs resolve to ValueSets handed to the importer, never fetched.
    static func standInValueSets() throws -> [String: Data] {
        func valueSet(_ url: String, expansion: Bool) -> Data {
            let codes = #"{"system": "http://example.org/answers", "code": "y", "display": "Yes"}, {"system": "http://example.org/answers", "code": "n", "display": "No"}"#
            let body = expansion ? #""expansion": {"contains": [\#(codes)]}"# : #""compose": {"include": [{"system": "http://example.org/answers", "concept": [{"code": "y", "display": "Yes"}, {"code": "n", "display": "No"}]}]}"#
            return Data(#"{"resourceType": "ValueSet", "url": "\#(url)", "status": "active", \#(body)}"#.utf8)
        }
        let base = "sqlonfhir-r4.azurewebsites.net/fhir/ValueSet/"
        return try FHIRQuestionnaireImporter.valueSetsByURL([
            valueSet("http://\(base)866d7924e20711d48c540020182939f7", expansion: true),
            valueSet("https://\(base)866d7924e20711d48c540020182939f7", expansion: false),
            valueSet("https://\(base)25b0ec04fd3511d28b3e0020182939f7", expansion: true),
        ])
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func allDataTypesRunsEveryItemTypeItCanHoldWithTheValueSetsGiven() throws {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("sdc-all-data-types.json"))
        let result = try FHIRQuestionnaireImporter(valueSets: Self.standInValueSets()).importQuestionnaire(data)
        // Only the markdown rendering of one display text is left aside (its plain text is shown): a note, not a refusal.
        #expect(Set(result.issues.compactMap(\.linkId)) == ["9acf93a7-0890-44cd-be48-542defb35223"])
        #expect(result.refusals.isEmpty)
        let formats = Dictionary(uniqueKeysWithValues: result.task.steps.flatMap(\.questions).map { ($0.identifier, $0.format) })
        guard case .textChoice(let open)? = formats["EF8E3936-3246-4B3E-A46C-9FDAA5ACB635"], case .valuePicker? = formats["440f8cc6-3ea2-40c2-b03a-d03187131fd3"],
              case .textChoice(let plain)? = formats["id-choice"] else {
            Issue.record("choice formats: \(formats)")
            return
        }
        #expect(plain.choices.map(\.value) == [.string("y"), .string("n")])
        #expect(open.choices.last?.other != nil)
        // Every imported item takes an answer of its type through a session, and the run completes with all of them.
        let answers: [String: Answer] = [
            "id-string": .text("words"), "id-text": .text("more\nwords"), "id-boolean": .boolean(true),
            "id-date": .date(DateAnswer(date: Date(timeIntervalSince1970: 1_700_000_000), timeZone: TimeZone(identifier: "Pacific/Kiritimati")!, includesTime: false)),
            "id-datetime": .date(DateAnswer(date: Date(timeIntervalSince1970: 1_700_000_000), timeZone: TimeZone(identifier: "America/New_York")!, includesTime: true)),
            "id-time": .timeOfDay(TimeOfDay(hour: 7, minute: 30)), "id-integer": .number(42), "id-decimal": .number(Decimal(string: "3.25")!),
            "id-choice": .choices([ChoiceSelection(.string("n"))]), "440f8cc6-3ea2-40c2-b03a-d03187131fd3": .choices([ChoiceSelection(.string("y"))]),
            "06aaa075-86e4-4cf2-a1ef-a86ab10e86e9": .choices([ChoiceSelection(.string("y"))]),
            "EF8E3936-3246-4B3E-A46C-9FDAA5ACB635": .choices([ChoiceSelection(open.choices.last!.value, text: "something else")]),
        ]
        #expect(Set(formats.keys) == Set(answers.keys).union(["id-attachment"]))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("all-data-types-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try TaskSession(task: result.task, files: FolderRunFileStore(folder: folder))
        while let step = session.currentStep {
            for question in step.questions {
                if question.identifier == "id-attachment" {
                    try session.attachFile(Data("%PDF-1.4 letter".utf8), title: "letter.pdf", contentType: "application/pdf", for: question.identifier)
                } else {
                    try session.setAnswer(answers[question.identifier], for: question.identifier)
                }
            }
            try session.goForward()
        }
        let stored = Dictionary(uniqueKeysWithValues: session.result.stepResults.flatMap(\.questionResults).map { ($0.identifier, $0.answer) })
        #expect(Set(stored.compactMap { $0.value == nil ? nil : $0.key }) == Set(answers.keys).union(["id-attachment"]))
        guard case .file(let letter)?? = stored["id-attachment"] else { Issue.record("no file answer"); return }
        #expect(letter.title == "letter.pdf" && letter.byteCount == 15 && letter.contentType == "application/pdf")
        let saved = folder.appendingPathComponent(session.taskRunUUID.uuidString).appendingPathComponent(letter.fileName)
        #expect(FileManager.default.contents(atPath: saved.path) == Data("%PDF-1.4 letter".utf8))
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func phq9ReadsTheContainedValueSet() throws {
        let result = try importFixture("sdc-phq9-questionnaire.json")
        #expect(TaskValidator.problems(in: result.task).isEmpty)
        let questions = result.task.steps.flatMap(\.questions)
        #expect(questions.count == 10)
        guard case .textChoice(let first)? = questions.first?.format else {
            Issue.record("Q1 is not a text choice")
            return
        }
        #expect(first.style == .single)
        #expect(first.choices.map(\.value) == [.string("Not-at-all"), .string("Several-days"),
                                                .string("More than half the days"), .string("Nearly every day")])
        #expect(first.choices.first?.text == "Not at all")
        #expect(questions.last?.identifier == "H1/TS")
        // The score is a calculated item on a step of its own after the nine questions, which cannot be skipped
        // (leaving it stores the score); the Questionnaire imports whole.
        #expect(result.task.steps.map(\.identifier) == ["H1/T1", "H1/TS"])
        let score = result.task.steps[1].calculatedItems
        #expect(score.map(\.identifier) == ["H1/TS"])
        #expect(score.first?.calculation?.expression == "%resource.answers().value.ordinal().sum()")
        #expect(score.first?.calculation?.language == "text/fhirpath")
        #expect(result.task.steps[1].isOptional == false)
        // Its rendering-styleSensitive is noted (the form has no styled text), and it imports whole.
        #expect(result.refusals.isEmpty)
        #expect(result.notes.map(\.extensionURL) == ["http://hl7.org/fhir/StructureDefinition/rendering-styleSensitive"])
        #expect(throws: Never.self) { try result.requireComplete() }
    }
}
