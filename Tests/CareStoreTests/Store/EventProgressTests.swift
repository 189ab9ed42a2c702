import Foundation
import Testing
@testable import CareStore

@Suite("EventProgress")
struct EventProgressTests {
    func outcome(_ values: [OutcomeValue]) -> Outcome { Outcome(taskUUID: UUID(), occurrenceIndex: 0, values: values) }

    @Test func withoutTargetsAnOutcomeCompletesTheEvent() {
        let open = EventProgress(targets: [], outcome: nil)
        #expect(open.value == 0 && open.target == 1)
        #expect(open.fractionCompleted == 0)
        #expect(!open.isCompleted)

        let done = EventProgress(targets: [], outcome: outcome([]))
        #expect(done.value == 1 && done.target == 1)
        #expect(done.fractionCompleted == 1)
        #expect(done.isCompleted)

        // Even an outcome whose values say "no" is an outcome.
        #expect(EventProgress(targets: [], outcome: outcome([OutcomeValue(.boolean(false))])).isCompleted)
    }

    @Test func targetsWithoutANumberCountAsNoTargets() {
        let targets = [OutcomeValue(.text("walk"), kind: "note"), OutcomeValue(.date(Date(timeIntervalSince1970: 0)))]
        #expect(EventProgress(targets: targets, outcome: nil).fractionCompleted == 0)
        #expect(EventProgress(targets: targets, outcome: outcome([])).isCompleted)
    }

    @Test func valuesOfTheTargetsKindAreSummedAgainstTheTarget() {
        let targets = [OutcomeValue(.integer(10), kind: "reps")]
        let partial = EventProgress(targets: targets, outcome: outcome([
            OutcomeValue(.integer(3), kind: "reps"), OutcomeValue(.double(1.5), kind: "reps"),
            OutcomeValue(.integer(100), kind: "steps"), OutcomeValue(.integer(100)), OutcomeValue(.text("7"), kind: "reps"),
        ]))
        #expect(partial.value == 4.5)
        #expect(partial.target == 10)
        #expect(partial.fractionCompleted == 0.45)
        #expect(!partial.isCompleted)

        let exact = EventProgress(targets: targets, outcome: outcome([OutcomeValue(.integer(10), kind: "reps")]))
        #expect(exact.fractionCompleted == 1)
        #expect(exact.isCompleted)

        let over = EventProgress(targets: targets, outcome: outcome([OutcomeValue(.integer(25), kind: "reps")]))
        #expect(over.value == 25)
        #expect(over.fractionCompleted == 1)

        let none = EventProgress(targets: targets, outcome: nil)
        #expect(none.value == 0 && none.target == 10 && none.fractionCompleted == 0)
        let unrelated = EventProgress(targets: targets, outcome: outcome([OutcomeValue(.integer(25), kind: "steps")]))
        #expect(unrelated.fractionCompleted == 0)
    }

    @Test func severalTargetsAreSummed() {
        let targets = [OutcomeValue(.integer(10), kind: "reps"), OutcomeValue(.double(2), kind: "sets"), OutcomeValue(.text("x"), kind: "note")]
        let progress = EventProgress(targets: targets, outcome: outcome([OutcomeValue(.integer(5), kind: "reps"), OutcomeValue(.integer(1), kind: "sets")]))
        #expect(progress.target == 12)
        #expect(progress.value == 6)
        #expect(progress.fractionCompleted == 0.5)
    }

    @Test func aTargetWithoutKindCountsEveryNumericValue() {
        let progress = EventProgress(targets: [OutcomeValue(.integer(4))], outcome: outcome([
            OutcomeValue(.integer(1), kind: "a"), OutcomeValue(.double(0.5)), OutcomeValue(.boolean(true), kind: "b"), OutcomeValue(.text("9")),
        ]))
        #expect(progress.value == 2.5)
        #expect(progress.fractionCompleted == 0.625)
    }

    @Test func booleanTargetsCountTrueAsOne() {
        let targets = [OutcomeValue(.boolean(true), kind: "took")]
        #expect(EventProgress(targets: targets, outcome: outcome([OutcomeValue(.boolean(true), kind: "took")])).isCompleted)
        #expect(EventProgress(targets: targets, outcome: outcome([OutcomeValue(.boolean(false), kind: "took")])).fractionCompleted == 0)
    }

    @Test func fractionStaysBetweenZeroAndOne() {
        let negative = EventProgress(targets: [OutcomeValue(.integer(5))], outcome: outcome([OutcomeValue(.integer(-3))]))
        #expect(negative.value == -3)
        #expect(negative.fractionCompleted == 0)
    }
}
