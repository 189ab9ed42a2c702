import Foundation
import Interop
import Research
import StudyKitEnvironment
import Testing

/// Questionnaires built around one item list, and the URLs they use.
private enum Forms {
    static let core = "http://hl7.org/fhir/StructureDefinition/"
    static let sdc = "http://hl7.org/fhir/uv/sdc/StructureDefinition/"

    static func load(_ items: String, root: String = "") throws -> FHIRQuestionnaireImport {
        let json = #"{"resourceType": "Questionnaire", "id": "policy", "status": "active", \#(root) "item": [\#(items)]}"#
        return try FHIRQuestionnaireImporter().importQuestionnaire(Data(json.utf8))
    }

    static func ext(_ url: String, _ value: String) -> String { #"{"url": "\#(url)", \#(value)}"# }

    static let question = #"{"linkId": "q", "type": "string", "text": "Anything else?"}"#
}

@Suite("FHIR Questionnaire import: the extension policy")
struct FHIRExtensionPolicyTests {
    @Test func harmlessExtensionsOfAPublishedFormDoNotRefuseIt() throws {
        let link = #""valueDuration": {"value": 1, "unit": "year", "system": "http://unitsofmeasure.org", "code": "a"}"#
        let patient = #""extension": [{"url": "name", "valueCoding": {"system": "http://hl7.org/fhir/uv/sdc/CodeSystem/launchContext", "code": "patient"}}, "#
            + #"{"url": "type", "valueCode": "Patient"}]"#
        let result = try Forms.load("""
        {"linkId": "intro", "type": "display", "text": "Over the last two weeks…",
         "extension": [\(Forms.ext(Forms.core + "questionnaire-displayCategory", #""valueCodeableConcept": {"coding": [{"code": "instructions"}]}"#))]},
        {"linkId": "q1", "type": "choice", "required": true, "text": "Little interest or pleasure in doing things?",
         "extension": [\(Forms.ext(Forms.core + "questionnaire-minOccurs", #""valueInteger": 1"#)),
                       \(Forms.ext(Forms.sdc + "sdc-questionnaire-observationLinkPeriod", link)),
                       \(Forms.ext(Forms.core + "questionnaire-observationLinkPeriod", link))],
         "answerOption": [{"valueCoding": {"code": "0", "display": "Not at all"}}, {"valueCoding": {"code": "1", "display": "Several days"}}]},
        {"linkId": "weight", "type": "decimal", "text": "Weight",
         "extension": [\(Forms.ext(Forms.core + "maxDecimalPlaces", #""valueInteger": 1"#))]}
        """, root: """
        "extension": [\(Forms.ext(Forms.sdc + "sdc-questionnaire-launchContext", patient)),
          \(Forms.ext(Forms.core + "structuredefinition-standards-status", #""valueCode": "trial-use""#)),
          \(Forms.ext(Forms.core + "structuredefinition-fmm", #""valueInteger": 2"#))],
        """)
        #expect(result.refusals.isEmpty, "\(result.refusals)")
        #expect(throws: Never.self) { try result.requireComplete() }
        // Each accepted extension is listed as a note naming its URL, path and why.
        let notes = Dictionary(grouping: result.notes, by: { $0.extensionURL ?? "" })
        #expect(Set(notes.keys) == [
            Forms.core + "questionnaire-displayCategory", Forms.core + "questionnaire-minOccurs",
            Forms.sdc + "sdc-questionnaire-observationLinkPeriod", Forms.core + "questionnaire-observationLinkPeriod",
            Forms.core + "structuredefinition-standards-status",
            Forms.core + "structuredefinition-fmm",
        ])
        #expect(result.notes.allSatisfy { $0.kind == .acceptedExtension })
        #expect(notes[Forms.core + "questionnaire-minOccurs"]?.first?.path == "item[1].extension[0]")
        #expect(notes[Forms.core + "questionnaire-minOccurs"]?.first?.linkId == "q1")
        #expect(notes[Forms.core + "structuredefinition-fmm"]?.first?.path == "extension[2]")
        #expect(notes[Forms.core + "questionnaire-observationLinkPeriod"]?.first?.message
            .contains("read as \(Forms.sdc)sdc-questionnaire-observationLinkPeriod") == true)
        // maxDecimalPlaces is supported: it limits the answer's decimal places.
        let weight = try #require(result.task.steps.flatMap(\.questions).first { $0.identifier == "weight" })
        guard case .numeric(let numeric) = weight.format else { Issue.record("weight is \(weight.format)"); return }
        #expect(numeric.maximumFractionDigits == 1)
        #expect(throws: AnswerValidationError.self) { try weight.format.validate(.number(Decimal(string: "70.25")!)) }
        #expect(throws: Never.self) { try weight.format.validate(.number(Decimal(string: "70.2")!)) }
        // The notes come in document order.
        // The launch context is supported (it gives %patient), so it makes no note.
        #expect(result.issues.map(\.path) == ["extension[1]", "extension[2]", "item[0].extension[0]",
                                              "item[1].extension[0]", "item[1].extension[1]", "item[1].extension[2]"])
    }

    @Test func aRefusedExtensionRefusesTheFormNamingItsPathAndWhy() throws {
        let result = try Forms.load("""
        \(Forms.question),
        {"linkId": "medication", "type": "choice", "text": "Which one?", "extension": [
          \(Forms.ext(Forms.sdc + "sdc-questionnaire-answerExpression", #""valueExpression": {"language": "text/fhirpath", "expression": "%meds"}"#))],
         "answerOption": [{"valueString": "none"}]}
        """)
        let refusal = try #require(result.refusals.first)
        #expect(result.refusals.count == 1)
        #expect(refusal.kind == .unsupportedExtension && refusal.linkId == "medication" && refusal.path == "item[1].extension[0]")
        #expect(refusal.extensionURL == Forms.sdc + "sdc-questionnaire-answerExpression")
        #expect(refusal.message.hasPrefix("\(Forms.sdc)sdc-questionnaire-answerExpression is refused: Computes the allowed answers"))
        #expect(throws: FHIRImportError(issues: [refusal])) { try result.requireComplete() }
        #expect(refusal.description == "item[1].extension[0] (linkId 'medication'): \(refusal.message)")
    }

    @Test func anUnknownExtensionIsReportedButDoesNotRefuse() throws {
        let result = try Forms.load("""
        {"linkId": "q", "type": "string", "text": "Notes",
         "extension": [\(Forms.ext("http://standards.example.org/fhir/StructureDefinition/TextArea-Row", #""valueInteger": 4"#))],
         "enableWhen": [], "_text": {"extension": [\(Forms.ext("http://example.org/fhir/StructureDefinition/colour", #""valueString": "red""#))]}}
        """)
        #expect(result.refusals.isEmpty)
        #expect(result.issues.map(\.kind) == [.ignoredExtension, .ignoredExtension])
        #expect(result.issues.map(\.path) == ["item[0]._text.extension[0]", "item[0].extension[0]"])
        #expect(result.issues.allSatisfy { $0.message.contains("not an extension StudyKit knows") && $0.linkId == "q" })
        #expect(throws: Never.self) { try result.requireComplete() }
    }

    @Test func anUnknownModifierExtensionRefuses() throws {
        // LHC-Forms' test form q-with-modifierExtension.json, and the same on an item and an option.
        let root = try Forms.load(Forms.question, root: """
        "modifierExtension": [\(Forms.ext("http://example.org/fhir/StructureDefinition/anti-prescription", #""valueBoolean": true"#))],
        """)
        #expect(root.refusals.map(\.path) == ["modifierExtension[0]"])
        #expect(root.refusals.first?.message.contains("modifierExtension StudyKit does not know") == true)
        #expect(throws: FHIRImportError.self) { try root.requireComplete() }

        let nested = try Forms.load("""
        {"linkId": "c", "type": "choice", "modifierExtension": [\(Forms.ext("http://example.org/negated", #""valueBoolean": true"#))],
         "answerOption": [{"valueString": "a", "modifierExtension": [\(Forms.ext("http://example.org/negated", #""valueBoolean": true"#))]}]}
        """)
        #expect(nested.refusals.map(\.path) == ["item[0].answerOption[0].modifierExtension[0]", "item[0].modifierExtension[0]"])
        // A known extension that is only an ordinary extension refuses as a modifier too: the form says it changes meaning.
        let known = try Forms.load(Forms.question, root: """
        "modifierExtension": [\(Forms.ext(Forms.core + "structuredefinition-fmm", #""valueInteger": 1"#))],
        """)
        #expect(known.refusals.map(\.path) == ["modifierExtension[0]"])
        // And one in a contained ValueSet.
        let contained = try Forms.load(Forms.question, root: """
        "contained": [{"resourceType": "ValueSet", "id": "vs", "compose": {"include": [{"system": "http://example.org",
          "modifierExtension": [\(Forms.ext("http://example.org/exclude-all", #""valueBoolean": true"#))], "concept": [{"code": "a"}]}]}}],
        """)
        #expect(contained.refusals.map(\.path) == ["contained[0].compose.include[0].modifierExtension[0]"])
    }

    @Test func acceptedExtensionsAreRefusedUnderTheirConditions() throws {
        func refusals(_ items: String, root: String = "") throws -> [String] {
            try Forms.load(items, root: root).refusals.map(\.path)
        }
        func minOccurs(_ count: Int, required: Bool) -> String {
            let minimum = Forms.ext(Forms.core + "questionnaire-minOccurs", "\"valueInteger\": \(count)")
            return #"{"linkId": "m", "type": "string", "required": \#(required), "extension": [\#(minimum)]}"#
        }
        #expect(try refusals(minOccurs(1, required: true)).isEmpty)
        #expect(try refusals(minOccurs(0, required: false)).isEmpty)
        #expect(try refusals(minOccurs(1, required: false)) == ["item[0].extension[0]"])
        #expect(try refusals(minOccurs(2, required: true)) == ["item[0].extension[0]"])
        let message = try #require(try Forms.load(minOccurs(2, required: true)).refusals.first?.message)
        #expect(message.hasPrefix("\(Forms.core)questionnaire-minOccurs is refused here because its value is above 1, or 1 on an item that is not required: "))

        func maxOccurs(repeats: Bool) -> String {
            let maximum = Forms.ext(Forms.core + "questionnaire-maxOccurs", #""valueInteger": 1"#)
            return #"{"linkId": "x", "type": "choice", "repeats": \#(repeats), "answerOption": [{"valueString": "a"}, {"valueString": "b"}], "extension": [\#(maximum)]}"#
        }
        #expect(try refusals(maxOccurs(repeats: false)).isEmpty)
        #expect(try refusals(maxOccurs(repeats: true)) == ["item[0].extension[0]"])

        func usage(_ code: String) -> String {
            let mode = Forms.ext(Forms.core + "questionnaire-usageMode", "\"valueCode\": \"\(code)\"")
            return #"{"linkId": "u", "type": "string", "extension": [\#(mode)]}"#
        }
        #expect(try refusals(usage("capture-display")).isEmpty)
        #expect(try refusals(usage("display")) == ["item[0].extension[0]"])

        func root(_ url: String, _ value: String) -> String { "\"extension\": [\(Forms.ext(url, value))]," }
        #expect(try refusals(Forms.question, root: root(Forms.core + "questionnaire-definitionBased", #""valueBoolean": false"#)).isEmpty)
        #expect(try refusals(Forms.question, root: root(Forms.core + "questionnaire-definitionBased", #""valueBoolean": true"#)) == ["extension[0]"])
        #expect(try refusals(Forms.question, root: root(Forms.sdc + "sdc-questionnaire-assemble-expectation", #""valueCode": "independent-root""#)).isEmpty)
        #expect(try refusals(Forms.question, root: root(Forms.sdc + "sdc-questionnaire-assemble-expectation", #""valueCode": "assemble-child""#)) == ["extension[0]"])
        #expect(try refusals(Forms.question, root: root(Forms.sdc + "sdc-questionnaire-performerType", #""valueCode": "Patient""#)).isEmpty)
        #expect(try refusals(Forms.question, root: root(Forms.sdc + "sdc-questionnaire-performerType", #""valueCode": "Practitioner""#)) == ["extension[0]"])

        // Styling that the form calls meaningful, on a text StudyKit shows plain.
        let sensitive = root(Forms.core + "rendering-styleSensitive", #""valueBoolean": true"#)
        let style = Forms.ext(Forms.core + "rendering-style", #""valueString": "color: red""#)
        let styled = #"{"linkId": "s", "type": "display", "text": "Stop", "_text": {"extension": [\#(style)]}}"#
        #expect(try refusals(Forms.question, root: sensitive).isEmpty)
        #expect(try refusals(styled).isEmpty)
        #expect(try refusals(styled, root: sensitive) == ["extension[0]"])

        // A launch context whose variable an expression reads: StudyKit hands over a patient, and nothing else.
        let launch = root(Forms.sdc + "sdc-questionnaire-launchContext", #""extension": [{"url": "name", "valueCoding": {"code": "patient"}}, {"url": "type", "valueCode": "Patient"}]"#)
        let encounter = root(Forms.sdc + "sdc-questionnaire-launchContext", #""extension": [{"url": "name", "valueCoding": {"code": "encounter"}}, {"url": "type", "valueCode": "Encounter"}]"#)
        let organization = root(Forms.sdc + "sdc-questionnaire-launchContext", #""extension": [{"url": "name", "valueCoding": {"code": "patient"}}, {"url": "type", "valueCode": "Organization"}]"#)
        func calculated(_ expression: String) -> String {
            let calculation = Forms.ext(Forms.sdc + "sdc-questionnaire-calculatedExpression",
                                        "\"valueExpression\": {\"language\": \"text/fhirpath\", \"expression\": \"\(expression)\"}")
            return #"{"linkId": "age", "type": "integer", "readOnly": true, "extension": [\#(calculation)]}"#
        }
        let age = calculated("%patient.birthDate.exists()")
        let other = calculated("%patientCount + 1")
        #expect(try refusals(age, root: launch).isEmpty)
        #expect(try refusals(other, root: launch).isEmpty)
        #expect(try refusals(calculated("%encounter.id"), root: encounter) == ["extension[0]"])
        #expect(try refusals(calculated("%encounter.id"), root: organization).isEmpty)  // declares %patient, reads %encounter
        #expect(try refusals(age, root: organization) == ["extension[0]"])
    }

    @Test func extensionsThatMakeAnElementDynamicAreRefusedWhereTheySit() throws {
        let cqf = Forms.ext(Forms.core + "cqf-expression", #""valueExpression": {"language": "text/fhirpath", "expression": "'Hi ' + %name"}"#)
        let result = try Forms.load("""
        {"linkId": "t", "type": "display", "text": "Hi", "_text": {"extension": [\(cqf)]}},
        {"linkId": "n", "type": "integer", "extension": [{"url": "\(Forms.core)maxValue", "valueInteger": 10, "_valueInteger": {"extension": [\(cqf)]}}]}
        """)
        #expect(result.refusals.map(\.path) == ["item[0]._text.extension[0]", "item[1].extension[0]._valueInteger.extension[0]"])
        #expect(result.refusals.allSatisfy { $0.message.hasPrefix("\(Forms.core)cqf-expression is refused: ") })
    }

    @Test func variablesMustBeFHIRPath() throws {
        let variable = Forms.ext(Forms.core + "variable", #""valueExpression": {"name": "age", "language": "text/cql", "expression": "AgeInYears()"}"#)
        let cql = "\"extension\": [\(variable)],"
        let result = try Forms.load(Forms.question, root: cql)
        #expect(result.refusals.map(\.path) == ["extension[0]"])
        #expect(result.refusals.first?.message == "variable 'age' is in text/cql; only text/fhirpath is evaluated, so what reads it could not be evaluated")
    }

    @Test func misplacedExtensionsAreIgnoredWithANote() throws {
        // Seen in CSIRO's Smart Forms: rendering-xhtml on the item instead of on its _text.
        let result = try Forms.load("""
        {"linkId": "q", "type": "string", "text": "Name", "extension": [\(Forms.ext(Forms.core + "rendering-xhtml", #""valueString": "<b>Name</b>""#))]}
        """)
        #expect(result.refusals.isEmpty)
        #expect(result.issues.map(\.kind) == [.ignoredExtension])
        #expect(result.issues.first?.message == "\(Forms.core)rendering-xhtml is defined on another element, not on an item; it has no meaning here and is ignored")
    }

    @Test func criticalExtensionsMustAllBeSupported() throws {
        func form(_ listed: String) throws -> FHIRQuestionnaireImport {
            try Forms.load(Forms.question, root: """
            "implicitRules": "http://example.org/rules",
            "modifierExtension": [\(Forms.ext(Forms.sdc + "sdc-rendering-criticalExtension", #""valueCanonical": "\#(listed)""#))],
            """)
        }
        #expect(try form(Forms.core + "questionnaire-itemControl").refusals.isEmpty)
        let refused = try form(Forms.core + "rendering-style").refusals
        #expect(refused.map(\.path) == ["modifierExtension[0]"])
        #expect(refused.first?.message.contains("cannot be shown safely without honouring \(Forms.core)rendering-style") == true)
        #expect(try form("http://example.org/unknown").refusals.count == 1)
    }

    @Test func optionPrefixAndExclusiveOptionsAreRead() throws {
        let none = Forms.ext(Forms.core + "questionnaire-optionExclusive", #""valueBoolean": true"#)
        let result = try Forms.load("""
        {"linkId": "symptoms", "type": "choice", "repeats": true, "answerOption": [
          {"valueCoding": {"code": "cough", "display": "Cough"}, "extension": [\(Forms.ext(Forms.core + "questionnaire-optionPrefix", #""valueString": "(a)""#))]},
          {"valueCoding": {"code": "fever", "display": "Fever"}},
          {"valueCoding": {"code": "none", "display": "None of these"}, "extension": [\(none)]},
          {"valueCoding": {"code": "unsure", "display": "Not sure"}, "modifierExtension": [\(none)]}]},
        {"linkId": "one", "type": "choice", "answerOption": [{"valueString": "a", "extension": [\(none)]}, {"valueString": "b"}]},
        {"linkId": "open", "type": "open-choice", "answerOption": [{"valueString": "a"}],
         "extension": [\(Forms.ext(Forms.sdc + "sdc-questionnaire-openLabel", #""valueString": "Something else""#))]}
        """)
        #expect(result.issues.isEmpty, "\(result.issues)")
        let questions = Dictionary(uniqueKeysWithValues: result.task.steps.flatMap(\.questions).map { ($0.identifier, $0.format) })
        guard case .textChoice(let symptoms)? = questions["symptoms"], case .textChoice(let one)? = questions["one"],
              case .textChoice(let open)? = questions["open"] else {
            Issue.record("formats: \(questions)")
            return
        }
        #expect(symptoms.choices.map(\.text) == ["(a) Cough", "Fever", "None of these", "Not sure"])
        #expect(symptoms.choices.map(\.exclusive) == [false, false, true, true])
        #expect(one.choices.map(\.exclusive) == [false, false], "a single choice has no exclusive options")
        #expect(open.choices.last?.text == "Something else")
        let format = try #require(questions["symptoms"])
        #expect(throws: AnswerValidationError.self) {
            try format.validate(.choices([ChoiceSelection(.string("cough")), ChoiceSelection(.string("none"))]))
        }
        #expect(throws: Never.self) { try format.validate(.choices([ChoiceSelection(.string("cough")), ChoiceSelection(.string("fever"))])) }
    }

    @Test func olderNamesAreReadAsTheExtensionTheyName() throws {
        // LHC-Forms' PHQ-9 uses the core-URL calculatedExpression; Argonaut and older LHC forms score options with these.
        let argonaut = "http://fhir.org/guides/argonaut-questionnaire/StructureDefinition/extension-score"
        let json = """
        {"resourceType": "Questionnaire", "id": "legacy", "status": "active", "item": [{"linkId": "g", "type": "group", "item": [
          {"linkId": "a", "type": "choice", "answerOption": [
            {"valueCoding": {"code": "no"}, "extension": [\(Forms.ext(Forms.core + "questionnaire-optionScore", #""valueDecimal": 0"#))]},
            {"valueCoding": {"code": "yes"}, "extension": [\(Forms.ext(Forms.core + "questionnaire-optionScore", #""valueDecimal": 2"#))]}]},
          {"linkId": "b", "type": "choice", "answerOption": [
            {"valueCoding": {"code": "no"}, "extension": [\(Forms.ext(argonaut, #""valueDecimal": 0"#))]},
            {"valueCoding": {"code": "yes"}, "extension": [\(Forms.ext(argonaut, #""valueDecimal": 3"#))]}]},
          {"linkId": "total", "type": "decimal", "extension": [\(Forms.ext(Forms.core + "questionnaire-calculatedExpression",
            #""valueExpression": {"language": "text/fhirpath", "expression": "%resource.item.item.answer.value.ordinal().sum()"}"#))]}]}]}
        """
        let data = Data(json.utf8)
        let imported = try FHIRQuestionnaireImporter().importQuestionnaire(data)
        #expect(imported.issues.isEmpty, "\(imported.issues)")
        let task = try imported.requireComplete()
        #expect(task.steps.flatMap(\.calculatedItems).map(\.identifier) == ["total"])
        var environment = StudyKitEnvironment(now: { Date(timeIntervalSince1970: 1_790_000_000) }, makeUUID: { UUID() })
        environment.timeZone = TimeZone(identifier: "UTC")!
        var session = try TaskSession(task: task, environment: environment, calculator: FHIRPathTaskCalculator(questionnaires: [data]))
        try session.setAnswer(.choices([ChoiceSelection(.string("yes"))]), for: "a")
        try session.setAnswer(.choices([ChoiceSelection(.string("yes"))]), for: "b")
        try session.goForward()
        #expect(session.calculationErrors.isEmpty, "\(session.calculationErrors)")
        #expect(session.answer(for: "total") == .number(5))
    }

    @Test func theTableIsConsistent() {
        let entries = FHIRExtensionPolicy.entries
        #expect(Set(entries.map(\.url)).count == entries.count, "each URL once")
        for entry in entries {
            #expect(!entry.places.isEmpty, "\(entry.url)")
            #expect(!entry.treatment.reason.isEmpty, "\(entry.url)")
            if let canonical = entry.canonicalURL {
                #expect(FHIRExtensionPolicy.entry(for: canonical)?.canonicalURL == nil, "\(entry.url) names a canonical URL")
            }
            if entry.refusedWhen != nil {
                guard case .acceptedWithoutEffect = entry.treatment else {
                    Issue.record("\(entry.url): only an extension accepted without effect has a refusal condition")
                    continue
                }
            }
        }
        let used = Set(entries.compactMap(\.refusedWhen))
        #expect(used == Set(FHIRExtensionPolicy.Condition.allCases))
        #expect(FHIRExtensionPolicy.canonicalURL(of: Forms.core + "questionnaire-calculatedExpression") == Forms.sdc + "sdc-questionnaire-calculatedExpression")
        #expect(FHIRExtensionPolicy.entry(for: "http://example.org/unknown") == nil)
    }
}
