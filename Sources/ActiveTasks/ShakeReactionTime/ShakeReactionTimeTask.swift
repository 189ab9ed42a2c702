import Research

/// Builds the reaction time task of ResearchKit's `reactionTime` (its `ORKReactionTimeStep`): after a random delay a
/// circle shows, and the participant shakes the phone as soon as they see it. The shake is the device motion's
/// acceleration rising above `thresholdAcceleration`; a shake before the circle is a false start, and the attempt is
/// run again (``ShakeReactionTimeAnalyzer``).
///
/// ```swift
/// let task = try ShakeReactionTimeTask.make(identifier: "shake", numberOfAttempts: 3)
/// task.steps.map(\.identifier)   // ["instruction", "instruction1", "countdown.reactionTime", "reactionTime", "conclusion"]
/// ```
public enum ShakeReactionTimeTask {
    /// The shortest and longest random delay before the stimulus, in seconds.
    public static let intervals: ClosedRange<Double> = 0.5...20
    /// The lowest and highest threshold, in g.
    public static let thresholds: ClosedRange<Double> = 0.05...5
    /// The fewest and most attempts.
    public static let attemptCounts: ClosedRange<Int> = 1...20
    /// The shortest and longest time the participant has to shake, in seconds.
    public static let timeouts: ClosedRange<Double> = 0.5...10
    /// Seconds between one attempt's end and the next one's delay.
    public static let pause = 1.0

    /// `numberOfAttempts` attempts, each with a delay drawn between `minimumStimulusInterval` and
    /// `maximumStimulusInterval` seconds, a reaction being an acceleration above `thresholdAcceleration` g within
    /// `timeout` seconds of the stimulus (ResearchKit's parameters; the defaults are those of its catalogue app).
    public static func make(identifier: String, intendedUse: String? = nil, maximumStimulusInterval: Double = 10, minimumStimulusInterval: Double = 4,
                            thresholdAcceleration: Double = 0.5, numberOfAttempts: Int = 3, timeout: Double = 3, frequency: Double = 100,
                            options: ActiveTaskOptions = [], language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        func seconds(_ range: ClosedRange<Double>) -> String { "\(PostedSamples.text(range.lowerBound)) and \(PostedSamples.text(range.upperBound))" }
        for (name, value) in [("minimumStimulusInterval", minimumStimulusInterval), ("maximumStimulusInterval", maximumStimulusInterval)]
            where !(value.isFinite && intervals.contains(value)) {
            throw ActiveTaskSettingsError(path: name, message: "must be between \(seconds(intervals)) seconds (\(PostedSamples.text(value)))")
        }
        guard minimumStimulusInterval <= maximumStimulusInterval else {
            throw ActiveTaskSettingsError(path: "maximumStimulusInterval", message: "must not be below minimumStimulusInterval (\(PostedSamples.text(maximumStimulusInterval)) < \(PostedSamples.text(minimumStimulusInterval)))")
        }
        guard thresholdAcceleration.isFinite, thresholds.contains(thresholdAcceleration) else {
            throw ActiveTaskSettingsError(path: "thresholdAcceleration", message: "must be between \(seconds(thresholds)) g (\(PostedSamples.text(thresholdAcceleration)))")
        }
        guard attemptCounts.contains(numberOfAttempts) else {
            throw ActiveTaskSettingsError(path: "numberOfAttempts", message: "must be between \(attemptCounts.lowerBound) and \(attemptCounts.upperBound) (\(numberOfAttempts))")
        }
        guard timeout.isFinite, timeouts.contains(timeout) else {
            throw ActiveTaskSettingsError(path: "timeout", message: "must be between \(seconds(timeouts)) seconds (\(PostedSamples.text(timeout)))")
        }
        guard frequency.isFinite, RangeOfMotionTask.frequencies.contains(frequency) else {
            throw ActiveTaskSettingsError(path: "frequency", message: "must be between \(seconds(RangeOfMotionTask.frequencies)) readings a second (\(PostedSamples.text(frequency)))")
        }
        let t = ActiveTaskWording(language: language)
        let title = t(.shakeTitle)
        let introduction = [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? t(.shakeUse), detail: nil),
            Step(identifier: "instruction1", kind: .instruction, title: title, text: t(.shakeHow, ["count": String(numberOfAttempts)])),
        ]
        let step = Step(identifier: "reactionTime", kind: .active(ActiveStepContent(module: ShakeReactionTimeModule.name, settings: [
            "maximumStimulusInterval": .number(maximumStimulusInterval), "minimumStimulusInterval": .number(minimumStimulusInterval),
            "thresholdAcceleration": .number(thresholdAcceleration), "numberOfAttempts": .number(Double(numberOfAttempts)),
            "timeout": .number(timeout), "recorders": .text(MotionRecorder.deviceMotion.rawValue), "frequency": .number(frequency),
            "pause": .number(pause),
        ])), title: title, text: t(.shakeStep), isOptional: false)
        return try ActiveTaskSteps.task(identifier: identifier, title: title, ActiveTaskSteps.measured(step, t),
                                        introduction: introduction, options: options, t)
    }
}
