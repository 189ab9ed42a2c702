import Foundation
import Interop
import Research
import StudyKitEnvironment
import Testing

@Suite("FHIR Questionnaire import: pre-population")
struct FHIRPrePopulationTests {
    static let sdc = "http://hl7.org/fhir/uv/sdc/StructureDefinition/"

    static func initial(_ expression: String) -> String {
        #"{"url": "\#(sdc)sdc-questionnaire-initialExpression", "valueExpression": {"language": "text/fhirpath", "expression": "\#(expression)"}}"#
    }

    static func launchContext(_ name: String, type: String = "Patient") -> String {
        #"""
        {"url": "\#(sdc)sdc-questionnaire-launchContext", "extension": [
          {"url": "name", "valueCoding": {"system": "http://hl7.org/fhir/uv/sdc/CodeSystem/launchContext", "code": "\#(name)"}},
          {"url": "type", "valueCode": "\#(type)"}]}
        """#
    }

    /// A registration form: the participant's name, birth date and gender pre-filled from `%patient`, a nickname whose
    /// expression gives nothing, and a `required` question with a plain `initial`.
    static let registration = """
    {"resourceType": "Questionnaire", "id": "registration", "url": "http://example.org/Questionnaire/registration",
     "extension": [\(launchContext("patient"))],
     "item": [{"linkId": "about", "type": "group", "text": "About you", "item": [
       {"linkId": "family", "type": "string", "text": "Family name", "extension": [\(initial("%patient.name.first().family"))]},
       {"linkId": "given", "type": "string", "text": "Given names", "extension": [\(initial("%patient.name.first().given.join(' ')"))]},
       {"linkId": "born", "type": "date", "text": "Birth date", "extension": [\(initial("%patient.birthDate"))]},
       {"linkId": "sex", "type": "choice", "text": "Gender", "extension": [\(initial("%patient.gender"))], "answerOption": [
         {"valueCoding": {"system": "http://hl7.org/fhir/administrative-gender", "code": "female", "display": "Female"}},
         {"valueCoding": {"system": "http://hl7.org/fhir/administrative-gender", "code": "male", "display": "Male"}}]},
       {"linkId": "nickname", "type": "string", "text": "Nickname", "extension": [\(initial("%patient.name.where(use = 'nickname').given.first()"))]},
       {"linkId": "visits", "type": "integer", "text": "Visits this year", "initial": [{"valueInteger": 1}]}
     ]}]}
    """

    func firstStep(_ questionnaire: FHIRQuestionnaire, calculator: any TaskCalculator, zone: String = "Pacific/Auckland") throws -> TaskSession {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let environment = StudyKitEnvironment(now: { Date(timeIntervalSince1970: 1_795_000_000) },
                                              makeUUID: { UUID(uuidString: "00000000-0000-4000-8000-000000000002")! }, calendar: calendar)
        return try TaskSession(task: questionnaire.task, environment: environment, calculator: calculator)
    }

    @Test func thePatientPreFillsTheQuestionsAndTheParticipantMayChangeThem() throws {
        let data = Data(Self.registration.utf8)
        let questionnaire = try FHIRQuestionnaire(data)
        #expect(questionnaire.importIssues.isEmpty)
        let calculator = try FHIRPathTaskCalculator(questionnaires: [data])
            .launched(for: ParticipantDetails(patientID: "p-7", givenName: "Aroha Mere", familyName: "Ngata", birthDate: "1961-02-28", gender: "female"))
        var session = try firstStep(questionnaire, calculator: calculator)
        #expect(session.answer(for: "family") == .text("Ngata"))
        #expect(session.answer(for: "given") == .text("Aroha Mere"))
        // The day stays the 28th of February in Auckland, 13 hours ahead of UTC.
        guard case .date(let born)? = session.answer(for: "born") else { Issue.record("no birth date pre-filled"); return }
        #expect(!born.includesTime)
        #expect(ISO8601.dayString(from: born.date, in: born.timeZone) == "1961-02-28")
        #expect(born.timeZone.identifier == "Pacific/Auckland")
        #expect(session.answer(for: "sex") == .choices([ChoiceSelection(.string("female"))]))
        // An expression that gives nothing leaves the question empty.
        #expect(session.answer(for: "nickname") == nil)

        // The participant corrects one; the response holds the answers as given.
        try session.setAnswer(.text("Ngata-Smith"), for: "family")
        try session.goForward()
        let response = try FHIRQuestionnaireResponseBuilder(questionnaire: questionnaire)
            .response(for: session.result, status: .completed, timeZone: TimeZone(identifier: "Pacific/Auckland")!)
        let text = String(decoding: response, as: UTF8.self)
        #expect(text.contains(#""valueString":"Ngata-Smith""#))
        #expect(text.contains(#""valueDate":"1961-02-28""#))
        #expect(text.contains(#""code":"female""#))
    }

    @Test func withoutDetailsNothingIsPreFilledAndNothingFails() throws {
        let data = Data(Self.registration.utf8)
        let questionnaire = try FHIRQuestionnaire(data)
        // The study knows only the participant's id: the other questions start empty.
        let calculator = try FHIRPathTaskCalculator(questionnaires: [data]).launched(for: ParticipantDetails(patientID: "p-8"))
        let session = try firstStep(questionnaire, calculator: calculator)
        for linkId in ["family", "given", "born", "sex", "nickname"] { #expect(session.answer(for: linkId) == nil) }
        #expect(session.calculationErrors.isEmpty)
        // A calculator not launched for anyone has no %patient at all.
        let unlaunched = try firstStep(questionnaire, calculator: try FHIRPathTaskCalculator(questionnaires: [data]))
        #expect(unlaunched.answer(for: "family") == nil)
    }

    @Test func initialAnswersOfChoicesAndYesNoItemsArePreSelected() throws {
        let data = Data("""
        {"resourceType": "Questionnaire", "id": "defaults", "item": [{"linkId": "g", "type": "group", "item": [
          {"linkId": "consent", "type": "boolean", "initial": [{"valueBoolean": true}]},
          {"linkId": "size", "type": "choice", "initial": [{"valueCoding": {"code": "M"}}], "answerOption": [
            {"valueCoding": {"code": "S"}}, {"valueCoding": {"code": "M"}}, {"valueCoding": {"code": "it's"}}]},
          {"linkId": "pets", "type": "choice", "repeats": true, "answerOption": [
            {"valueString": "cat", "initialSelected": true}, {"valueString": "dog"}, {"valueString": "it's", "initialSelected": true}]},
          {"linkId": "score", "type": "integer", "answerOption": [{"valueInteger": 1}, {"valueInteger": 2, "initialSelected": true}]}
        ]}]}
        """.utf8)
        let questionnaire = try FHIRQuestionnaire(data)
        #expect(questionnaire.importIssues.isEmpty, "\(questionnaire.importIssues)")
        var session = try firstStep(questionnaire, calculator: try FHIRPathTaskCalculator(questionnaires: [data]))
        #expect(session.answer(for: "consent") == .boolean(true))
        #expect(session.answer(for: "size") == .choices([ChoiceSelection(.string("M"))]))
        #expect(session.answer(for: "pets") == .choices([ChoiceSelection(.string("cat")), ChoiceSelection(.string("it's"))]))
        #expect(session.answer(for: "score") == .choices([ChoiceSelection(.integer(2))]))
        // The participant may clear a pre-selected answer, and the result holds what they left.
        try session.setAnswer(nil, for: "consent")
        try session.goForward()
        #expect(session.result.stepResults.flatMap(\.questionResults).first { $0.identifier == "consent" }?.answer == nil)

        // An initial answer that is not an option, or several on a question that does not repeat, is refused.
        let refusals = try FHIRQuestionnaireImporter().importQuestionnaire(Data("""
        {"resourceType": "Questionnaire", "id": "bad", "item": [
          {"linkId": "a", "type": "choice", "initial": [{"valueCoding": {"code": "X"}}], "answerOption": [{"valueCoding": {"code": "S"}}]},
          {"linkId": "b", "type": "choice", "answerOption": [{"valueString": "x", "initialSelected": true}, {"valueString": "y", "initialSelected": true}]},
          {"linkId": "c", "type": "boolean", "initial": [{"valueString": "yes"}]}]}
        """.utf8)).refusals
        #expect(refusals.map(\.path) == ["item[0].initial[0]", "item[1].initial", "item[2].initial"])
    }

    @Test func contextsOtherThanThePatientAndOtherLanguagesAreRefused() throws {
        func refusals(_ json: String) throws -> [String] {
            try FHIRQuestionnaireImporter().importQuestionnaire(Data(json.utf8)).refusals.map(\.message)
        }
        let readsUser = """
        {"resourceType": "Questionnaire", "id": "u", "extension": [\(Self.launchContext("user", type: "Practitioner"))],
         "item": [{"linkId": "who", "type": "string", "extension": [\(Self.initial("%user.name.first().family"))]}]}
        """
        #expect(try refusals(readsUser) == ["an expression reads %user, declared by launchContext, and StudyKit hands over only %patient, so it could not be evaluated"])
        // Declared but never read: nothing to refuse.
        let declaresUser = """
        {"resourceType": "Questionnaire", "id": "u", "extension": [\(Self.launchContext("user", type: "Practitioner"))],
         "item": [{"linkId": "who", "type": "string"}]}
        """
        #expect(try refusals(declaresUser).isEmpty)
        let cql = """
        {"resourceType": "Questionnaire", "id": "c", "item": [{"linkId": "who", "type": "string", "extension": [
          {"url": "\(Self.sdc)sdc-questionnaire-initialExpression", "valueExpression": {"language": "text/cql", "expression": "Patient.name"}}]}]}
        """
        #expect(try refusals(cql) == ["initialExpression in text/cql is not evaluated (only text/fhirpath)"])
        // A %patient no launchContext declares cannot work, and the study refuses it when it loads.
        let undeclared = Data("""
        {"resourceType": "Questionnaire", "id": "n", "item": [{"linkId": "who", "type": "string", "extension": [\(Self.initial("%patient.birthDate"))]}]}
        """.utf8)
        #expect(throws: FHIRImportError.self) { try FHIRPathTaskCalculator(questionnaires: [undeclared]) }
    }
}
