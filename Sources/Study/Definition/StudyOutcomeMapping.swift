/// Which answer of a task's survey becomes an outcome value of the task's event, and what the value is called.
///
/// In `study.yaml`: `outcome: [{question: painLevel, kind: pain, units: NRS}]`, optionally with a `code` (see
/// ``StudyCoding``). `question` names a question step
/// (`painLevel`) or an item of a form step (`checkIn.mood`).
public struct StudyOutcomeMapping: Hashable, Sendable {
    /// The question step's identifier, or `step.item` for an item of a form step; for a measure, `step.measure`.
    public var question: String
    /// Whether ``question`` names a measure of an active step (`measure: tapping.right.meanInterval`) rather than an answer.
    public var isMeasure: Bool
    /// The outcome value's kind, such as `pain`; nil to use the question's identifier.
    public var kind: String?
    /// The outcome value's units; nil to use the unit the answer carries, if any.
    public var units: String?
    /// What the value means in a standard terminology (such as a LOINC code), for exports; nil when not coded.
    public var code: StudyCoding?

    /// Creates a mapping of `question`'s answer to a value of `kind` in `units`, coded `code`.
    public init(question: String, kind: String? = nil, units: String? = nil, code: StudyCoding? = nil) {
        self.question = question
        self.isMeasure = false
        self.kind = kind
        self.units = units
        self.code = code
    }

    /// A mapping of the active step measure `measure` (`tapping.right.meanInterval`: the step, then the measure) to a
    /// value of `kind` in `units` (nil: the measure's own), coded `code`.
    public init(measure: String, kind: String? = nil, units: String? = nil, code: StudyCoding? = nil) {
        self.question = measure
        self.isMeasure = true
        self.kind = kind
        self.units = units
        self.code = code
    }

    /// The step identifier part of ``question``: before its first dot for an answer, before its last for a measure
    /// (active steps' identifiers have dots: `tapping.right`).
    public var stepIdentifier: String {
        if isMeasure, let dot = question.lastIndex(of: ".") { return String(question[..<dot]) }
        return question.split(separator: ".", maxSplits: 1).first.map(String.init) ?? question
    }

    /// The item part of ``question`` (`mood` in `checkIn.mood`, `meanInterval` in `tapping.right.meanInterval`); nil
    /// for a question step.
    public var itemIdentifier: String? {
        if isMeasure, let dot = question.lastIndex(of: ".") { return String(question[question.index(after: dot)...]) }
        let parts = question.split(separator: ".", maxSplits: 1)
        return parts.count == 2 ? String(parts[1]) : nil
    }
}
