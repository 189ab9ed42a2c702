import Foundation
import StudyKitEnvironment

/// Evaluates the calculated items of a task (``FormItem/calculation``) from the answers given so far.
///
/// A ``TaskSession`` asks its environment's calculator for each calculated item of a step when the step is
/// shown, and again when the participant leaves it, and stores the value as the item's answer, so it is part
/// of the task result like any other answer. Conformers say which expression languages they evaluate; an
/// item whose language no calculator knows cannot be shown, and the session says so.
public protocol TaskCalculator: Sendable {
    /// The value of `item`'s calculation, given the run's result so far (the item's own earlier value left
    /// out); nil when the expression gives no value, as when it reads questions not answered yet.
    ///
    /// - Parameters:
    ///   - item: The calculated form item; its ``FormItem/answerFormat`` is the type the value must have.
    ///   - calculation: The item's calculation.
    ///   - task: The task being run.
    ///   - result: The answers so far, in the order visited.
    ///   - environment: The run's clock and time zone, for expressions that read the date (FHIRPath's `today()`).
    func value(of item: FormItem, calculation: ItemCalculation, task: ResearchTask,
               result: TaskResult, environment: StudyKitEnvironment) throws(TaskCalculationError) -> Answer?

    /// Whether an ``Condition/expression(_:)`` condition holds for the answers in `result`; throws when it cannot
    /// be evaluated (the condition then does not hold). The default evaluates none.
    func holds(_ condition: ItemCalculation, task: ResearchTask, result: TaskResult,
               environment: StudyKitEnvironment) throws(TaskCalculationError) -> Bool

    /// This calculator for the runs of one participant, whose details expressions may read (FHIRPath's `%patient`).
    /// The default ignores them.
    func launched(for participant: ParticipantDetails) -> any TaskCalculator
}

extension TaskCalculator {
    /// Returns the calculator itself: it reads nothing about the participant.
    public func launched(for participant: ParticipantDetails) -> any TaskCalculator { self }

    /// Evaluates no condition: throws for every one.
    public func holds(_ condition: ItemCalculation, task: ResearchTask, result: TaskResult,
                      environment: StudyKitEnvironment) throws(TaskCalculationError) -> Bool {
        throw TaskCalculationError(item: "", message: "this calculator evaluates no conditions")
    }
}

/// Why a calculated item has no value: the expression failed, or no calculator evaluates its language.
public struct TaskCalculationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The calculated item.
    public var item: String
    /// What went wrong, in English.
    public var message: String

    /// Creates an error for `item`.
    public init(item: String, message: String) {
        self.item = item
        self.message = message
    }

    /// `item: message`.
    public var description: String { "\(item): \(message)" }
}
