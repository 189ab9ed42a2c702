import Foundation

/// A yes/no question about answers given so far, used by navigation rules and skip rules.
///
/// A condition is a tree (``Codable`` as JSON objects) with a one-line text form that parses into the
/// same tree and prints back from it, so a study author can read and write it:
///
/// ```swift
/// let condition = try Condition(parsing: "pain >= 7 and not answered(meds)")
/// condition.description // "pain >= 7 and not answered(meds)"
/// ```
///
/// Comparisons only hold for answered questions: a missing or "don't know" answer makes every comparison
/// false (including `!=`); use `answered(…)` and `dontKnow(…)` to ask about those cases.
public indirect enum Condition: Hashable, Sendable {
    /// `ref op value`: compares the answer with a value.
    case comparison(AnswerReference, ComparisonOperator, ConditionValue)
    /// `ref in lower...upper`: the numeric answer lies in the inclusive range.
    case inRange(AnswerReference, lower: ConditionValue, upper: ConditionValue)
    /// `ref contains value`: a choice answer includes the value (or a text answer contains the string).
    case contains(AnswerReference, ConditionValue)
    /// `ref matches "pattern"`: a text answer matches the regular expression as a whole.
    case matches(AnswerReference, pattern: String)
    /// `answered(ref)`: the question has an answer other than "don't know".
    case answered(AnswerReference)
    /// `dontKnow(ref)`: the participant chose "I don't know".
    case dontKnow(AnswerReference)
    /// `a and b and …`
    case and([Condition])
    /// `a or b or …`
    case or([Condition])
    /// `not a`
    case not(Condition)
    /// `true` or `false`.
    case constant(Bool)
    /// `expression("text/fhirpath", "…")`: an expression in another language (a FHIR Questionnaire's
    /// `enableWhenExpression`), which the session's ``TaskCalculator`` evaluates on the answers so far. It holds only
    /// when the calculator says true; without a calculator for its language, or when it fails, it does not hold.
    case expression(ItemCalculation)
}

/// Points at one answer: a step of this task (or of another task, by its identifier), and an item of a form step.
///
/// Text form: `step`, `step.item`, `task:step` or `task:step.item`; identifiers that are not plain words
/// go in backticks: `` `daily-check`:`q 1` ``.
public struct AnswerReference: Hashable, Sendable {
    /// Another task whose latest result is read; nil for the task being run.
    public var task: String?
    /// The step whose answer is read: the question step, or the form step that holds ``item``.
    public var step: String
    /// A form item; nil for a question step's own answer.
    public var item: String?

    /// Creates a reference; see the properties for each part.
    public init(task: String? = nil, step: String, item: String? = nil) {
        self.task = task
        self.step = step
        self.item = item
    }
}

/// The comparison operators of conditions.
public enum ComparisonOperator: String, Hashable, Sendable, Codable, CaseIterable {
    /// `==`: the answer equals the value.
    case equal = "=="
    /// `!=`: the answer differs from the value (false, like every comparison, when there is no answer).
    case notEqual = "!="
    /// `<`: the answer orders before the value: a smaller number or duration, an earlier date or time, text
    /// that sorts earlier.
    case less = "<"
    /// `<=`: the answer orders before the value or equals it.
    case lessOrEqual = "<="
    /// `>`: the answer orders after the value: a larger number or duration, a later date or time, text that sorts later.
    case greater = ">"
    /// `>=`: the answer orders after the value or equals it.
    case greaterOrEqual = ">="
}

/// A literal in a condition: a number, a string or a boolean.
///
/// Strings also stand for days (`"2026-03-01"`), date-times with offset and times of day (`"08:30"`)
/// when compared with date or time answers.
public enum ConditionValue: Hashable, Sendable {
    /// A number, for numeric answers, durations in seconds and numeric choice values.
    case number(Decimal)
    /// A string, for text answers and string choice values, or a day, date-time or time of day for date and time answers.
    case string(String)
    /// `true` or `false`, for yes-or-no answers; only `==` and `!=` apply.
    case boolean(Bool)
}

/// Where a condition finds answers: the run in progress and the latest results of other tasks.
public struct ConditionContext: Sendable {
    /// The latest (non-previous) result of a step of the current run, by step identifier.
    private let latestResult: @Sendable (String) -> StepResult?
    /// Latest results of other tasks, by task identifier.
    public var otherTasks: [String: TaskResult]
    /// Evaluates ``Condition/expression(_:)`` conditions; nil when there is no calculator (they then do not hold).
    public var evaluateExpression: (@Sendable (ItemCalculation) -> Bool)?

    /// A context over step results of the current run (earlier passes marked previous are ignored).
    public init(current: [StepResult], otherTasks: [String: TaskResult] = [:]) {
        var latest: [String: StepResult] = [:]
        for result in current where !result.isPrevious { latest[result.identifier] = result }
        let results = latest
        self.latestResult = { results[$0] }
        self.otherTasks = otherTasks
    }

    /// A context that looks results up on demand, so that a run only builds the results its conditions read.
    public init(otherTasks: [String: TaskResult] = [:], latestResult: @escaping @Sendable (_ stepIdentifier: String) -> StepResult?) {
        self.latestResult = latestResult
        self.otherTasks = otherTasks
    }

    /// The answer `reference` points at; nil when the question was not answered (or the step not reached).
    public func answer(_ reference: AnswerReference) -> Answer? {
        let step: StepResult?
        if let task = reference.task {
            step = otherTasks[task]?.stepResults.last { $0.identifier == reference.step && !$0.isPrevious }
        } else {
            step = latestResult(reference.step)
        }
        return step?.questionResult(reference.item ?? reference.step)?.answer
    }
}
