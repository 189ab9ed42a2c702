import Foundation
import Interop
import Research
import Testing

/// `enableWhen` exactly as FHIR R4 defines it, for every operator on every answer type, with and without an answer:
/// each case of the table is imported, run with the answer given, and compared with R4's rule worked out here.
@Suite("FHIR Questionnaire import: enableWhen as R4 defines it")
struct FHIRQuestionnaireEnableWhenTests {
    /// One answer type: its item type, the `answer[x]` JSON of the condition's value (the middle of three ordered
    /// values), and the answer a participant gives for each of the three (lowest first).
    struct Kind {
        var type: String
        var answerKey: String
        var value: String
        var answers: [Answer]
        var isOrdered = true
        var options: String? = nil
    }

    static let utc = TimeZone(identifier: "UTC")!

    static func day(_ text: String, time: Bool = false) -> Answer {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = time ? [.withInternetDateTime] : [.withFullDate]
        formatter.timeZone = utc
        return .date(DateAnswer(date: formatter.date(from: text)!, timeZone: utc, includesTime: time))
    }

    static let kinds: [Kind] = [
        Kind(type: "integer", answerKey: "answerInteger", value: "2", answers: [.number(1), .number(2), .number(3)]),
        Kind(type: "decimal", answerKey: "answerDecimal", value: "2.5", answers: [.number(1.5), .number(2.5), .number(3.5)]),
        Kind(type: "quantity", answerKey: "answerQuantity", value: #"{"value": 2.5, "code": "kg", "system": "http://unitsofmeasure.org"}"#,
             answers: [.number(1.5), .number(2.5), .number(3.5)]),
        Kind(type: "date", answerKey: "answerDate", value: #""2020-06-15""#,
             answers: [day("2020-01-01"), day("2020-06-15"), day("2021-01-01")]),
        Kind(type: "dateTime", answerKey: "answerDateTime", value: #""2020-06-15T10:00:00Z""#,
             answers: [day("2020-06-15T08:00:00Z", time: true), day("2020-06-15T10:00:00Z", time: true), day("2020-06-15T12:00:00Z", time: true)]),
        Kind(type: "time", answerKey: "answerTime", value: #""10:00:00""#,
             answers: [.timeOfDay(TimeOfDay(hour: 8, minute: 0, second: 0)), .timeOfDay(TimeOfDay(hour: 10, minute: 0, second: 0)),
                       .timeOfDay(TimeOfDay(hour: 12, minute: 0, second: 0))]),
        Kind(type: "string", answerKey: "answerString", value: #""banana""#, answers: [.text("apple"), .text("banana"), .text("cherry")]),
        Kind(type: "boolean", answerKey: "answerBoolean", value: "true", answers: [.boolean(false), .boolean(true)], isOrdered: false),
        Kind(type: "choice", answerKey: "answerCoding", value: #"{"system": "http://example.org/fruit", "code": "b"}"#,
             answers: ["a", "b", "c"].map { .choices([ChoiceSelection(.string($0))]) }, isOrdered: false,
             options: #"[{"valueCoding": {"system": "http://example.org/fruit", "code": "a"}}, {"valueCoding": {"system": "http://example.org/fruit", "code": "b"}}, {"valueCoding": {"system": "http://example.org/fruit", "code": "c"}}]"#),
    ]

    static let operators = ["=", "!=", ">", "<", ">=", "<="]

    /// R4: `exists` is whether there is an answer; `!=` holds when no answer equals the value (so with no answer
    /// too); every other operator holds when an answer stands in that relation to the value, never without one.
    /// `position` is the answer's place among the kind's values (the value is at 1), nil for no answer.
    static func r4Enables(_ op: String, answerAt position: Int?) -> Bool {
        guard let position else { return op == "!=" }
        switch op {
        case "=": return position == 1
        case "!=": return position != 1
        case ">": return position > 1
        case "<": return position < 1
        case ">=": return position >= 1
        default: return position <= 1
        }
    }

    /// A Questionnaire with one question of the kind, then one item per operator (and `exists` true and false).
    static func questionnaire(_ kind: Kind) -> String {
        let options = kind.options.map { #", "answerOption": \#($0)"# } ?? ""
        var items = [#"{"linkId": "q", "type": "\#(kind.type)", "text": "The question"\#(options)}"#]
        for (index, op) in operators.enumerated() where kind.isOrdered || op == "=" || op == "!=" {
            items.append(#"{"linkId": "op\#(index)", "type": "string", "text": "if \#(op)", "enableWhen": [{"question": "q", "operator": "\#(op)", "\#(kind.answerKey)": \#(kind.value)}]}"#)
        }
        for exists in [true, false] {
            items.append(#"{"linkId": "exists\#(exists)", "type": "string", "text": "if exists", "enableWhen": [{"question": "q", "operator": "exists", "answerBoolean": \#(exists)}]}"#)
        }
        return #"{"resourceType": "Questionnaire", "id": "ew-\#(kind.type)", "status": "active", "item": [\#(items.joined(separator: ",\n"))]}"#
    }

    /// The linkIds the participant is asked, answering `q` with `answer` (or leaving it empty).
    static func asked(_ task: ResearchTask, answer: Answer?) throws -> Set<String> {
        var session = try TaskSession(task: task)
        var asked = Set<String>()
        while let step = session.currentStep {
            for question in step.questions {
                asked.insert(question.identifier)
                if question.identifier == "q", let answer { try session.setAnswer(answer, for: "q") }
            }
            try session.goForward()
        }
        return asked
    }

    @Test(arguments: kinds.map(\.type))
    func everyOperatorWithAndWithoutAnAnswer(type: String) throws {
        let kind = try #require(Self.kinds.first { $0.type == type })
        let imported = try FHIRQuestionnaireImporter().importQuestionnaire(Data(Self.questionnaire(kind).utf8))
        #expect(imported.issues.isEmpty, "\(imported.issues)")
        // Each answer's place among the kind's values: the condition's value is at 1 (for yes/no, true after false).
        let positions: [Int?] = [nil] + kind.answers.indices.map { $0 }
        for (answer, position) in zip([nil] + kind.answers.map(Optional.some), positions) {
            let asked = try Self.asked(imported.task, answer: answer)
            for (index, op) in Self.operators.enumerated() where kind.isOrdered || op == "=" || op == "!=" {
                #expect(asked.contains("op\(index)") == Self.r4Enables(op, answerAt: position),
                        "\(type) \(op) \(kind.value) with answer \(answer.map { "\($0)" } ?? "none")")
            }
            #expect(asked.contains("existstrue") == (answer != nil), "\(type) exists true with answer \(answer.map { "\($0)" } ?? "none")")
            #expect(asked.contains("existsfalse") == (answer == nil), "\(type) exists false with answer \(answer.map { "\($0)" } ?? "none")")
        }
    }

    @Test(arguments: ["all", "any"])
    func enableBehaviorCombinesTheClauses(behavior: String) throws {
        let json = #"""
        {"resourceType": "Questionnaire", "id": "behavior", "status": "active", "item": [
          {"linkId": "a", "type": "integer"}, {"linkId": "b", "type": "boolean"},
          {"linkId": "both", "type": "string", "enableBehavior": "\#(behavior)", "enableWhen": [
            {"question": "a", "operator": ">", "answerInteger": 5}, {"question": "b", "operator": "=", "answerBoolean": true}]}]}
        """#
        let task = try FHIRQuestionnaireImporter().importQuestionnaire(Data(json.utf8)).requireComplete()
        for a in [nil, 3, 7] as [Int?] {
            for b in [nil, false, true] as [Bool?] {
                var session = try TaskSession(task: task)
                var asked = false
                while let step = session.currentStep {
                    for question in step.questions {
                        if question.identifier == "both" { asked = true }
                        if question.identifier == "a", let a { try session.setAnswer(.number(Decimal(a)), for: "a") }
                        if question.identifier == "b", let b { try session.setAnswer(.boolean(b), for: "b") }
                    }
                    try session.goForward()
                }
                let first = a.map { $0 > 5 } ?? false, second = b ?? false
                #expect(asked == (behavior == "all" ? first && second : first || second), "\(behavior) with a = \(a.map(String.init) ?? "none"), b = \(b.map(String.init) ?? "none")")
            }
        }
    }
}
