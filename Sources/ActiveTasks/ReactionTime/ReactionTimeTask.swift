import Research

/// Builds the normalized reaction time task: the participant holds a button down, and when the stimulus appears after a
/// random delay, lets go and taps it. Holding first means every trial starts from the same finger position, so the time
/// to let go (the reaction) is measured apart from the time to reach the stimulus (the movement).
///
/// ```swift
/// let task = try ReactionTimeTask.normalized(identifier: "reaction", trials: 5)
/// task.steps.map(\.identifier)   // ["instruction", "instruction1", "countdown.reactionTime", "reactionTime", "conclusion"]
/// ```
public enum ReactionTimeTask {
    /// The fewest and most trials.
    public static let trialCounts: ClosedRange<Int> = 1...30
    /// The shortest and longest random delay before the stimulus, in seconds.
    public static let delays: ClosedRange<Double> = 0.5...10
    /// The shortest and longest time the participant has to tap the stimulus, in seconds.
    public static let timeouts: ClosedRange<Double> = 0.5...10

    /// `trials` trials, each with a delay drawn between `minimumDelay` and `maximumDelay` seconds, and `timeout` seconds
    /// to tap the stimulus once shown.
    public static func normalized(identifier: String, intendedUse: String? = nil, trials: Int = 5, minimumDelay: Double = 2,
                                  maximumDelay: Double = 5, timeout: Double = 3, options: ActiveTaskOptions = [],
                                  language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        let t = ActiveTaskWording(language: language)
        guard trialCounts.contains(trials) else {
            throw ActiveTaskSettingsError(path: "trials", message: "must be between \(trialCounts.lowerBound) and \(trialCounts.upperBound) (\(trials))")
        }
        for (name, value) in [("minimumDelay", minimumDelay), ("maximumDelay", maximumDelay)] where !(value.isFinite && delays.contains(value)) {
            throw ActiveTaskSettingsError(path: name, message: "must be between \(PostedSamples.text(delays.lowerBound)) and \(PostedSamples.text(delays.upperBound)) seconds (\(PostedSamples.text(value)))")
        }
        guard minimumDelay <= maximumDelay else {
            throw ActiveTaskSettingsError(path: "maximumDelay", message: "must not be below minimumDelay (\(PostedSamples.text(maximumDelay)) < \(PostedSamples.text(minimumDelay)))")
        }
        guard timeout.isFinite, timeouts.contains(timeout) else {
            throw ActiveTaskSettingsError(path: "timeout", message: "must be between \(PostedSamples.text(timeouts.lowerBound)) and \(PostedSamples.text(timeouts.upperBound)) seconds (\(PostedSamples.text(timeout)))")
        }
        let title = t(.reactionTitle)
        let introduction = [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? t(.reactionUse), detail: nil),
            Step(identifier: "instruction1", kind: .instruction, title: title, text: t(.reactionHow, ["count": String(trials)])),
        ]
        let step = Step(identifier: "reactionTime", kind: .active(ActiveStepContent(module: ReactionTimeModule.name, settings: [
            "trials": .number(Double(trials)), "minimumDelay": .number(minimumDelay), "maximumDelay": .number(maximumDelay),
            "timeout": .number(timeout),
        ])), title: title, text: t(.reactionStep), isOptional: false)
        return try ActiveTaskSteps.task(identifier: identifier, title: title, ActiveTaskSteps.measured(step, t),
                                        introduction: introduction, options: options, t)
    }
}
