import Research

/// Builds the Stroop task: a colour's name is shown in ink of a colour, often another one, and the participant taps
/// the button of the ink's colour, not of the word. Naming the ink takes longer when the word names another colour;
/// that difference is the Stroop effect.
///
/// ```swift
/// let task = try StroopTask.make(identifier: "stroop", attempts: 15)
/// task.steps.map(\.identifier)   // ["instruction", "instruction1", "countdown.stroop", "stroop", "conclusion"]
/// ```
public enum StroopTask {
    /// The fewest and most attempts.
    public static let attemptCounts: ClosedRange<Int> = 3...100

    /// `attempts` words, each shown until the participant taps a colour.
    public static func make(identifier: String, intendedUse: String? = nil, attempts: Int = 15,
                            options: ActiveTaskOptions = [], language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        let t = ActiveTaskWording(language: language)
        guard attemptCounts.contains(attempts) else {
            throw ActiveTaskSettingsError(path: "attempts", message: "must be between \(attemptCounts.lowerBound) and \(attemptCounts.upperBound) (\(attempts))")
        }
        let title = t(.stroopTitle)
        let introduction = [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? t(.stroopUse), detail: nil),
            Step(identifier: "instruction1", kind: .instruction, title: title, text: t(.stroopHow, ["count": String(attempts)])),
        ]
        let step = Step(identifier: "stroop", kind: .active(ActiveStepContent(module: StroopModule.name, settings: ["attempts": .number(Double(attempts))])),
                        title: title, text: t(.stroopStep), isOptional: false)
        return try ActiveTaskSteps.task(identifier: identifier, title: title, ActiveTaskSteps.measured(step, t),
                                        introduction: introduction, options: options, t)
    }
}
