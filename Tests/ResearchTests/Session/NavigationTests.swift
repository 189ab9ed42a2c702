import Foundation
import Testing
@testable import Research

@Suite("Navigation and skip rules")
struct NavigationTests {
    let clock = TestClock()

    /// pain → (pain >= 7: followUp) → change? → (yes: back to pain) → review → done
    func branchingTask() throws -> ResearchTask {
        try ResearchTask(identifier: "branch", steps: [
            Build.scale("pain"), Build.scale("followUp"), Build.boolean("again"), Build.scale("extra"),
            Step(identifier: "review", kind: .review(ReviewContent())), Build.completion(),
        ], navigationRules: [
            "pain": .conditional([ConditionalDestination(if: .comparison(Build.ref("pain"), .greaterOrEqual, .number(7)), goTo: .step("followUp"))],
                                 otherwise: .step("again")),
            "again": .conditional([ConditionalDestination(if: .comparison(Build.ref("again"), .equal, .boolean(true)), goTo: .step("pain"))]),
            "extra": .direct(.step("review")),
        ], skipRules: [
            "extra": .comparison(Build.ref("pain"), .less, .number(3)),
        ])
    }

    func answer(_ session: inout TaskSession, _ value: Answer) throws {
        try session.setAnswer(value)
        try session.goForward()
    }

    @Test func conditionalRuleFirstMatchAndOtherwise() throws {
        var high = try TaskSession(task: branchingTask(), environment: clock.environment())
        try answer(&high, .number(8))
        #expect(high.currentStep?.identifier == "followUp")

        var low = try TaskSession(task: branchingTask(), environment: clock.environment())
        try answer(&low, .number(5))
        #expect(low.currentStep?.identifier == "again")
    }

    @Test func skipRulePassesOverAStep() throws {
        var session = try TaskSession(task: branchingTask(), environment: clock.environment())
        try answer(&session, .number(2))
        try answer(&session, .boolean(false))
        // pain < 3 skips "extra"; its direct rule still leads to review.
        #expect(session.currentStep?.identifier == "review")

        var notSkipped = try TaskSession(task: branchingTask(), environment: clock.environment())
        try answer(&notSkipped, .number(4))
        try answer(&notSkipped, .boolean(false))
        #expect(notSkipped.currentStep?.identifier == "extra")
    }

    @Test func loopBackKeepsTheEarlierResultAsPrevious() throws {
        var session = try TaskSession(task: branchingTask(), environment: clock.environment())
        try answer(&session, .number(5))
        try answer(&session, .boolean(true))
        #expect(session.currentStep?.identifier == "pain")
        // The earlier answer is shown again on the second pass.
        #expect(session.answer() == .number(5))
        try answer(&session, .number(2))
        try answer(&session, .boolean(false))
        try session.goForward() // review
        try session.goForward() // completion
        #expect(session.finishReason == .completed)
        let results = session.result.stepResults
        #expect(results.map(\.identifier) == ["pain", "again", "pain", "again", "review", "done"])
        #expect(results.map(\.isPrevious) == [true, true, false, false, false, false])
        #expect(results[0].questionResult("pain")?.answer == .number(5))
        #expect(session.result.answer(step: "pain") == .number(2))
    }

    @Test func endDestinationFinishesTheTask() throws {
        let task = try ResearchTask(identifier: "end", steps: [Build.boolean("eligible"), Build.scale("more"), Build.completion()],
                                    navigationRules: ["eligible": .conditional([
                                        ConditionalDestination(if: .comparison(Build.ref("eligible"), .equal, .boolean(false)), goTo: .end),
                                    ])])
        var session = try TaskSession(task: task, environment: clock.environment())
        try answer(&session, .boolean(false))
        #expect(session.finishReason == .completed)
        #expect(session.result.stepResults.map(\.identifier) == ["eligible"])
    }

    @Test func backAfterABranchDropsTheAbandonedBranchFromTheResult() throws {
        var session = try TaskSession(task: branchingTask(), environment: clock.environment())
        try answer(&session, .number(9))
        #expect(session.currentStep?.identifier == "followUp")
        try session.setAnswer(.number(4))
        try session.goBack()
        try session.setAnswer(.number(1))
        try session.goForward()
        #expect(session.currentStep?.identifier == "again")
        #expect(session.result.stepResults.map(\.identifier) == ["pain", "again"])
    }

    @Test func skipRulesThatLoopForeverAreReported() throws {
        let task = try ResearchTask(identifier: "cycle", steps: [Build.scale("a"), Build.scale("b"), Build.scale("c")],
                                    navigationRules: ["b": .direct(.step("a"))],
                                    skipRules: ["a": .constant(true), "b": .constant(true)])
        #expect(throws: TaskSessionError.navigationCycle("a")) { try TaskSession(task: task, environment: clock.environment()) }
    }

    @Test func conditionsCanReadOtherTasksResults() throws {
        let baseline = TaskResult(identifier: "baseline", taskRunUUID: UUID(), startDate: clock.now, endDate: clock.now, stepResults: [
            StepResult(identifier: "surgery", startDate: clock.now, endDate: clock.now,
                       results: [.question(QuestionResult(identifier: "surgery", type: .boolean, answer: .boolean(true)))]),
        ])
        let task = try ResearchTask(identifier: "daily", steps: [Build.scale("a"), Build.scale("knee"), Build.completion()],
                                    skipRules: ["knee": .not(.comparison(AnswerReference(task: "baseline", step: "surgery"), .equal, .boolean(true)))])
        var withSurgery = try TaskSession(task: task, environment: clock.environment(), otherTasks: ["baseline": baseline])
        try answer(&withSurgery, .number(1))
        #expect(withSurgery.currentStep?.identifier == "knee")

        var without = try TaskSession(task: task, environment: clock.environment())
        try answer(&without, .number(1))
        #expect(without.currentStep?.identifier == "done")
    }

    @Test func reviewStepListsAnswersAndSendsBackToChangeOne() throws {
        var session = try TaskSession(task: branchingTask(), environment: clock.environment())
        try answer(&session, .number(5))
        try answer(&session, .boolean(false))
        try answer(&session, .number(3))
        #expect(session.currentStep?.identifier == "review")
        let entries = session.reviewEntries
        #expect(entries.map(\.step.identifier) == ["pain", "again", "extra"])
        #expect(entries[0].items.first?.answer == .number(5))

        try session.revisit("again")
        #expect(session.currentStep?.identifier == "again")
        #expect(session.answer() == .boolean(false))
        try session.goForward()
        // Back on the review step, through "extra" whose answer still stands.
        #expect(session.currentStep?.identifier == "review")
        #expect(session.result.stepResults.map(\.identifier) == ["pain", "again", "extra", "review"])
        #expect(throws: TaskSessionError.self) { try session.revisit("done") }
    }

    @Test func reviewReturnStopsWhereAChangedAnswerLeadsSomewhereNew() throws {
        var session = try TaskSession(task: branchingTask(), environment: clock.environment())
        try answer(&session, .number(5))
        try answer(&session, .boolean(false))
        try answer(&session, .number(3))
        try session.revisit("pain")
        try answer(&session, .number(8))
        #expect(session.currentStep?.identifier == "followUp")
    }

    @Test func orderedTaskStepBeforeAndAfter() throws {
        let task = try ResearchTask(identifier: "o", steps: [Build.scale("a"), Build.scale("b")])
        #expect(!task.isNavigable)
        #expect(task.step(after: nil, context: ConditionContext(current: []))?.identifier == "a")
        #expect(task.step(after: "a", context: ConditionContext(current: []))?.identifier == "b")
        #expect(task.step(after: "b", context: ConditionContext(current: [])) == nil)
        #expect(task.step(before: "b")?.identifier == "a")
        #expect(task.step(before: "a") == nil)
    }

    @Test func duplicateStepIdentifiersAreRejectedAtConstruction() {
        #expect(throws: TaskDefinitionError(path: "steps[1].identifier", message: "duplicate step identifier 'a'")) {
            try ResearchTask(identifier: "dup", steps: [Build.scale("a"), Build.boolean("a")])
        }
    }
}
