import Foundation
import StudyKitEnvironment
import Testing
@testable import Research

/// A calculator for tests: `sum(a, b, …)` adds the numeric answers to the named items wherever they were
/// answered, and `fail` always fails. It reads only the result it is given, as real calculators must.
private struct SumCalculator: TaskCalculator {
    func value(of item: FormItem, calculation: ItemCalculation, task: ResearchTask,
               result: TaskResult, environment: StudyKitEnvironment) throws(TaskCalculationError) -> Answer? {
        guard calculation.language == "test/sum" else {
            throw TaskCalculationError(item: item.identifier ?? "?", message: "unknown language \(calculation.language)")
        }
        if calculation.expression == "fail" { throw TaskCalculationError(item: item.identifier ?? "?", message: "told to fail") }
        let names = calculation.expression.dropFirst(4).dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var total: Decimal = 0
        var any = false
        for step in result.stepResults where !step.isPrevious {
            for question in step.questionResults where names.contains(question.identifier) {
                if case .number(let value)? = question.answer { total += value; any = true }
            }
        }
        return any ? .number(total) : nil
    }
}

@Suite("Calculated items")
struct CalculatedItemTests {
    let clock = TestClock()

    func scoredTask(expression: String = "sum(q1, q2)") throws -> ResearchTask {
        let score = FormItem(identifier: "total", text: "Total", answerFormat: .numeric(NumericFormat(style: .decimal, unit: "{score}")),
                             calculation: ItemCalculation(language: "test/sum", expression: expression))
        return try ResearchTask(identifier: "scored", steps: [
            Build.form("questions", items: ["q1", "q2"], required: ["q1"]),
            Step(identifier: "score", kind: .form(FormContent(items: [score])), title: "Your score", isOptional: false),
            Build.completion(),
        ])
    }


    @Test func theValueIsCalculatedWhenTheStepIsShownAndStoredInTheResult() throws {
        var session = try TaskSession(task: scoredTask(), environment: clock.environment(), calculator: SumCalculator())
        try session.setAnswer(.number(2), for: "q1")
        try session.setAnswer(.number(3), for: "q2")
        try session.goForward()
        #expect(session.currentStep?.identifier == "score")
        #expect(session.answer(for: "total") == .number(5))
        #expect(session.canGoForward)
        try session.goForward()
        try session.goForward()
        #expect(session.currentStep?.identifier != "score", "the participant left the step")
        let score = session.result.stepResults.first { $0.identifier == "score" }?.questionResults.first
        #expect(score?.identifier == "total")
        #expect(score?.answer == .number(5))
        #expect(score?.unit == "{score}")
    }

    @Test func changingAnEarlierAnswerRecalculates() throws {
        var session = try TaskSession(task: scoredTask(), environment: clock.environment(), calculator: SumCalculator())
        try session.setAnswer(.number(1), for: "q1")
        try session.goForward()
        #expect(session.answer(for: "total") == .number(1))
        try session.goBack()
        try session.setAnswer(.number(3), for: "q1")
        try session.setAnswer(.number(3), for: "q2")
        try session.goForward()
        #expect(session.answer(for: "total") == .number(6))
    }

    @Test func aParticipantCannotAnswerACalculatedItem() throws {
        var session = try TaskSession(task: scoredTask(), environment: clock.environment(), calculator: SumCalculator())
        try session.setAnswer(.number(1), for: "q1")
        try session.goForward()
        #expect(throws: TaskSessionError.notAllowed("'total' is calculated from the other answers; it cannot be answered")) {
            try session.setAnswer(.number(27), for: "total")
        }
        #expect(throws: TaskSessionError.self) { try session.setAnswer(text: "27", for: "total") }
        #expect(session.answer(for: "total") == .number(1))
    }

    @Test func withoutACalculatorTheStepSaysWhyAndTheParticipantGoesOn() throws {
        var session = try TaskSession(task: scoredTask(), environment: clock.environment())
        try session.setAnswer(.number(1), for: "q1")
        try session.goForward()
        #expect(session.calculationErrors["total"]?.message == "no calculator evaluates test/sum expressions here")
        try session.goForward()
        #expect(session.currentStep?.identifier != "score", "the participant left the step")
        let total = try #require(session.result.stepResult("score")?.questionResult("total"))
        #expect(total.answer == nil)
        #expect(total.calculationError == "no calculator evaluates test/sum expressions here")
    }

    @Test func aFailingExpressionIsReportedNotStoredAndKeptInTheResult() throws {
        var session = try TaskSession(task: scoredTask(expression: "fail"), environment: clock.environment(), calculator: SumCalculator())
        try session.setAnswer(.number(1), for: "q1")
        try session.goForward()
        #expect(session.answer(for: "total") == nil)
        #expect(session.calculationErrors["total"]?.message == "told to fail")
        // Saved and restored on the failing step, the run still goes on, and the result says why the item is empty.
        var restored = try TaskSession(task: scoredTask(expression: "fail"), restoring: session.restorationData,
                                       environment: clock.environment(), calculator: SumCalculator())
        try restored.goForward()
        let total = try #require(restored.result.stepResult("score")?.questionResult("total"))
        #expect(total.answer == nil && total.calculationError == "told to fail")
        let json = String(decoding: try ResearchJSON.encoder(pretty: false).encode(restored.result), as: UTF8.self)
        #expect(json.contains(#""calculationError":"told to fail""#))
        #expect(try ResearchJSON.decoder().decode(TaskResult.self, from: Data(json.utf8)) == restored.result)
    }

    @Test func aRestoredRunRecalculates() throws {
        var session = try TaskSession(task: scoredTask(), environment: clock.environment(), calculator: SumCalculator())
        try session.setAnswer(.number(2), for: "q1")
        try session.goForward()
        let restored = try TaskSession(task: scoredTask(), restoring: session.restorationData, environment: clock.environment(), calculator: SumCalculator())
        #expect(restored.answer(for: "total") == .number(2))
    }

    @Test func calculationsRoundTripThroughJSONAndUnknownKeysAreNamed() throws {
        let data = try ResearchJSON.encoder().encode(scoredTask())
        let decoded = try TaskValidator.load(data)
        #expect(decoded == (try scoredTask()))
        let text = String(decoding: data, as: UTF8.self)
        let misspelt = text.replacingOccurrences(of: "\"expression\"", with: "\"expresion\"")
        #expect(problems(loading: misspelt).contains { $0.path == "steps[1].items[0].calculation.expression" && $0.message == "is required but missing" })
        let extra = text.replacingOccurrences(of: "\"language\"", with: "\"descripton\" : \"x\", \"language\"")
        #expect(problems(loading: extra).contains {
            $0.path == "steps[1].items[0].calculation.descripton" && $0.message.contains("did you mean 'description'")
        })
    }

    private func problems(loading text: String) -> [TaskDefinitionError] {
        do {
            _ = try TaskValidator.load(Data(text.utf8))
            return []
        } catch {
            return error.problems
        }
    }

    @Test func aRequiredOrEmptyCalculationIsAConstructionProblem() throws {
        var score = FormItem(identifier: "total", text: "Total", answerFormat: .numeric(NumericFormat(style: .decimal)),
                             calculation: ItemCalculation(language: "", expression: " "))
        score.isOptional = false
        let steps = [Step(identifier: "score", kind: .form(FormContent(items: [score])))]
        let problems = TaskValidator.problems(identifier: "t", steps: steps, navigationRules: [:], skipRules: [:])
        #expect(problems.map(\.path).sorted() == ["steps[0].items[0].calculation.expression", "steps[0].items[0].calculation.language",
                                                  "steps[0].items[0].optional"])
    }
}
