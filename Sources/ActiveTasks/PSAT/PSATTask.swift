import Research

/// Builds the Paced Serial Addition Test: digits come one at a time at a fixed pace, and after each the participant
/// taps the sum of it and the digit before. Shown (PVSAT), spoken through the browser's speech synthesis (PASAT), or
/// both (PAVSAT).
///
/// ```swift
/// let task = try PSATTask.make(identifier: "psat", mode: .visual, interStimulusInterval: 3, stimulusDuration: 1, seriesLength: 60)
/// task.steps.map(\.identifier)   // ["instruction", "instruction1", "countdown.psat", "psat", "conclusion"]
/// ```
public enum PSATTask {
    /// How the digits are presented.
    public enum PresentationMode: String, Hashable, Sendable, CaseIterable {
        /// Spoken (PASAT).
        case auditory
        /// Shown (PVSAT).
        case visual
        /// Both (PAVSAT).
        case both

        var shows: Bool { self != .auditory }
        var speaks: Bool { self != .visual }
    }

    /// The shortest and longest time between digits, in seconds.
    public static let intervals: ClosedRange<Double> = 1...5
    /// The fewest and most additions.
    public static let seriesLengths: ClosedRange<Int> = 10...120

    /// The test: `seriesLength` additions, a digit every `interStimulusInterval` seconds, each shown for
    /// `stimulusDuration` seconds when the mode shows them.
    public static func make(identifier: String, intendedUse: String? = nil, mode: PresentationMode = .visual, interStimulusInterval: Double = 3,
                            stimulusDuration: Double = 1, seriesLength: Int = 60, options: ActiveTaskOptions = [],
                            language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        let t = ActiveTaskWording(language: language)
        guard interStimulusInterval.isFinite, intervals.contains(interStimulusInterval) else {
            throw ActiveTaskSettingsError(path: "interStimulusInterval", message: "must be between 1 and 5 seconds (\(PostedSamples.text(interStimulusInterval)))")
        }
        if mode.shows, !(stimulusDuration.isFinite && (0.2...interStimulusInterval).contains(stimulusDuration)) {
            throw ActiveTaskSettingsError(path: "stimulusDuration", message: "must be between 0.2 seconds and the interval, \(PostedSamples.text(interStimulusInterval)) seconds (\(PostedSamples.text(stimulusDuration)))")
        }
        guard seriesLengths.contains(seriesLength) else {
            throw ActiveTaskSettingsError(path: "seriesLength", message: "must be between \(seriesLengths.lowerBound) and \(seriesLengths.upperBound) additions (\(seriesLength))")
        }
        let title = switch mode {
        case .auditory: "PASAT"
        case .visual: "PVSAT"
        case .both: "PAVSAT"
        }
        let introduction = [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? t(.psatUse), detail: nil),
            Step(identifier: "instruction1", kind: .instruction, title: title,
                 text: t(mode == .auditory ? .psatHowAuditory : .psatHowVisual, ["seconds": PostedSamples.text(interStimulusInterval)])),
        ]
        let step = Step(identifier: "psat", kind: .active(ActiveStepContent(module: PSATModule.name, duration: Double(seriesLength + 1) * interStimulusInterval, settings: [
            "presentationMode": .text(mode.rawValue), "interStimulusInterval": .number(interStimulusInterval),
            "stimulusDuration": .number(mode.shows ? stimulusDuration : 0), "seriesLength": .number(Double(seriesLength)),
        ])), title: title, text: t(.psatStep), isOptional: false)
        return try ActiveTaskSteps.task(identifier: identifier, title: title, ActiveTaskSteps.measured(step, t),
                                        introduction: introduction, options: options, t)
    }
}
