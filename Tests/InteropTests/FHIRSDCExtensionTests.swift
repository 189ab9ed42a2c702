import Foundation
import Interop
import Research
import Testing

@Suite("FHIR Questionnaire import: SDC extensions")
struct FHIRSDCExtensionTests {
    static let ext = "http://hl7.org/fhir/StructureDefinition/"

    func load(_ items: String, root: String = "") throws -> FHIRQuestionnaireImport {
        let json = #"{"resourceType": "Questionnaire", "id": "sdc", \#(root) "item": [\#(items)]}"#
        return try FHIRQuestionnaireImporter().importQuestionnaire(Data(json.utf8))
    }

    func format(_ result: FHIRQuestionnaireImport, _ linkId: String) -> AnswerFormat? {
        result.task.steps.flatMap(\.questions).first { $0.identifier == linkId }?.format
    }

    func control(_ code: String) -> String {
        #"{"url": "\#(Self.ext)questionnaire-itemControl", "valueCodeableConcept": {"coding": [{"system": "http://hl7.org/fhir/questionnaire-item-control", "code": "\#(code)"}]}}"#
    }

    @Test func minAndMaxValueBoundNumbersAndDates() throws {
        let result = try load("""
        {"linkId": "n", "type": "decimal", "extension": [{"url": "\(Self.ext)minValue", "valueDecimal": 0.5},
          {"url": "\(Self.ext)maxValue", "valueDecimal": 9.5}, {"url": "\(Self.ext)questionnaire-unit", "valueCoding": {"code": "kg"}},
          {"url": "\(Self.ext)entryFormat", "valueString": "0.0"}]},
        {"linkId": "d", "type": "date", "extension": [{"url": "\(Self.ext)minValue", "valueDate": "2020-01-01"},
          {"url": "\(Self.ext)maxValue", "valueDate": "2020-12-31"}]}
        """)
        #expect(result.issues.isEmpty)
        guard case .numeric(let numeric)? = format(result, "n"), case .date(let date)? = format(result, "d") else {
            Issue.record("formats: \(result.task.steps.flatMap(\.questions).map(\.format))")
            return
        }
        #expect(numeric.minimum == Decimal(string: "0.5") && numeric.maximum == Decimal(string: "9.5"))
        #expect(numeric.unit == "kg" && numeric.placeholder == "0.0")
        #expect(throws: AnswerValidationError.self) { try AnswerFormat.numeric(numeric).validate(.number(10)) }
        #expect(date.minimum == ISO8601DateFormatter().date(from: "2020-01-01T00:00:00Z"))
        #expect(date.maximum == ISO8601DateFormatter().date(from: "2020-12-31T00:00:00Z"))
    }

    @Test func slidersBecomeScales() throws {
        let result = try load("""
        {"linkId": "i", "type": "integer", "extension": [\(control("slider")), {"url": "\(Self.ext)minValue", "valueInteger": 0},
          {"url": "\(Self.ext)maxValue", "valueInteger": 10}, {"url": "\(Self.ext)questionnaire-sliderStepValue", "valueInteger": 2}]},
        {"linkId": "unbounded", "type": "integer", "extension": [\(control("slider"))]},
        {"linkId": "s", "type": "integer", "extension": [\(control("spinner"))]}
        """)
        #expect(format(result, "i") == .scale(ScaleFormat(minimum: 0, maximum: 10, step: 2)))
        guard case .numeric? = format(result, "unbounded"), case .numeric? = format(result, "s") else {
            Issue.record("a slider without bounds and a spinner stay number fields")
            return
        }
        #expect(result.issues.map(\.linkId) == ["unbounded"])
        #expect(result.issues.first?.message.contains("needs minValue and maxValue") == true)
    }

    @Test func choiceControls() throws {
        let options = #""answerOption": [{"valueCoding": {"code": "a"}}, {"valueCoding": {"code": "b"}}]"#
        let result = try load("""
        {"linkId": "drop", "type": "choice", "extension": [\(control("drop-down"))], \(options)},
        {"linkId": "radio", "type": "choice", "extension": [\(control("radio-button"))], \(options)},
        {"linkId": "boxes", "type": "choice", "repeats": true, "extension": [\(control("check-box"))], \(options)},
        {"linkId": "odd", "type": "choice", "extension": [\(control("lookup"))], \(options)}
        """)
        guard case .valuePicker? = format(result, "drop"), case .textChoice(let radio)? = format(result, "radio"),
              case .textChoice(let boxes)? = format(result, "boxes"), case .textChoice? = format(result, "odd") else {
            Issue.record("formats: \(result.task.steps.flatMap(\.questions).map(\.format))")
            return
        }
        #expect(radio.style == .single && boxes.style == .multiple)
        #expect(result.issues.map(\.linkId) == ["odd"])
        #expect(result.issues.first?.message.contains("itemControl 'lookup' is not supported") == true)
    }

    @Test func regexMinLengthAndEntryFormatCheckText() throws {
        let result = try load("""
        {"linkId": "code", "type": "string", "extension": [{"url": "\(Self.ext)regex", "valueString": "[A-Z]{2}[0-9]+"},
          {"url": "\(Self.ext)minLength", "valueInteger": 4}, {"url": "\(Self.ext)entryFormat", "valueString": "AB123"}]}
        """)
        #expect(result.issues.isEmpty)
        guard case .text(let text)? = format(result, "code") else { Issue.record("not text"); return }
        let format = AnswerFormat.text(text)
        #expect(text.placeholder == "AB123")
        #expect(throws: Never.self) { try format.validate(.text("AB1234")) }
        #expect(throws: AnswerValidationError.self) { try format.validate(.text("AB1")) } // too short
        #expect(throws: AnswerValidationError.self) { try format.validate(.text("abcd1")) } // wrong pattern
        do {
            try format.validate(.text("AB1"))
        } catch {
            #expect(error.message == "Use the format AB123. Enter at least 4 characters.")
        }
    }

    @Test func calculatedHiddenAndUnsupportedAreReportedNeverDropped() throws {
        let result = try load("""
        {"linkId": "a", "type": "integer"},
        {"linkId": "total", "type": "integer", "readOnly": true, "extension": [{"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression",
          "valueExpression": {"language": "text/fhirpath", "expression": "%resource.item.where(linkId='a').answer.value * 2"}}]},
        {"linkId": "secret", "type": "string", "extension": [{"url": "\(Self.ext)questionnaire-hidden", "valueBoolean": true}]},
        {"linkId": "cql", "type": "integer", "extension": [{"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression",
          "valueExpression": {"language": "text/cql", "expression": "1"}}]},
        {"linkId": "later", "type": "string", "extension": [{"url": "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-enableWhenExpression",
          "valueExpression": {"language": "text/fhirpath", "expression": "true"}}]},
        {"linkId": "misplaced", "type": "boolean", "extension": [{"url": "\(Self.ext)minLength", "valueInteger": 3}]},
        {"linkId": "styled", "type": "display", "text": "Hi", "_text": {"extension": [{"url": "\(Self.ext)rendering-xhtml", "valueString": "<b>Hi</b>"}]}},
        {"linkId": "unknown", "type": "string", "extension": [{"url": "http://example.org/whatever", "valueString": "x"}]}
        """, root: #""extension": [{"url": "http://hl7.org/fhir/StructureDefinition/variable", "valueExpression": {"name": "x", "language": "text/fhirpath", "expression": "1"}}],"#)
        let total = result.task.steps.flatMap(\.calculatedItems)
        #expect(total.map(\.identifier) == ["total"])
        #expect(!result.task.steps.flatMap(\.questions).contains { $0.identifier == "secret" || $0.identifier == "cql" })
        let reported = Dictionary(grouping: result.issues, by: { $0.linkId ?? "" })
        #expect(Set(reported.keys) == ["secret", "cql", "misplaced", "styled", "unknown"])
        #expect(reported["secret"]?.first?.message.contains("hidden") == true)
        #expect(reported["cql"]?.first?.message.contains("text/cql") == true)
        // The enableWhenExpression becomes the condition of the item's step: skipped unless the expression holds.
        let later = try #require(result.task.steps.first { $0.questions.contains { $0.identifier == "later" } })
        #expect(result.task.skipRules[later.identifier] == .not(.expression(ItemCalculation(language: "text/fhirpath", expression: "true"))))
        #expect(reported["misplaced"]?.first?.message.contains("minLength does not apply to a boolean item") == true)
        #expect(reported["styled"]?.first?.path == "item[6]._text.extension[0]")
        #expect(reported["styled"]?.first?.kind == .acceptedExtension)
        #expect(reported["unknown"]?.first?.kind == .ignoredExtension)
        // What is left out refuses the form; the styled text and the unknown extension are notes.
        #expect(Set(result.refusals.compactMap(\.linkId)) == ["secret", "cql", "misplaced"])
        #expect(reported["unknown"]?.first?.path == "item[7].extension[0]")
    }
}
