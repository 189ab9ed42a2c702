import Research

/// Builds tapping tasks the way ResearchKit's predefined tasks are built: why the study asks, how to tap, for each
/// hand a countdown and the tapping step, and a completion step that shows the result.
///
/// ```swift
/// let task = try TappingTask.twoFingerInterval(identifier: "tapping", intendedUse: "Tapping shows how your hand moves.",
///                                              duration: 20, hands: .both)
/// task.steps.map(\.identifier)
/// // ["instruction", "instruction1", "instruction.right", "countdown.tapping.right", "tapping.right",
/// //  "instruction.left", "countdown.tapping.left", "tapping.left", "conclusion"]
/// ```
public enum TappingTask {
    /// Which hands tap, one after the other when both.
    public enum Hands: String, Hashable, Sendable, CaseIterable {
        /// The left hand only.
        case left
        /// The right hand only.
        case right
        /// The right hand, then the left.
        case both

        var sides: [String] {
            switch self {
            case .left: ["left"]
            case .right: ["right"]
            case .both: ["right", "left"]
            }
        }
    }

    /// The shortest and longest tapping, in seconds.
    public static let durations: ClosedRange<Double> = 5...300

    /// Two buttons, tapped in turn with two fingers of one hand for `duration` seconds from the first tap: the measures
    /// are the taps, the interval between them and its spread, and the share of taps on a button.
    public static func twoFingerInterval(identifier: String, intendedUse: String? = nil, duration: Double = 20, hands: Hands = .both,
                                         options: ActiveTaskOptions = [], language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        try make(identifier: identifier, targets: 2, intendedUse: intendedUse, duration: duration, hands: hands, options: options,
                 t: ActiveTaskWording(language: language))
    }

    /// One button, tapped as fast as possible with one finger for `duration` seconds from the first tap.
    public static func speed(identifier: String, intendedUse: String? = nil, duration: Double = 10, hands: Hands = .right,
                             options: ActiveTaskOptions = [], language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        try make(identifier: identifier, targets: 1, intendedUse: intendedUse, duration: duration, hands: hands, options: options,
                 t: ActiveTaskWording(language: language))
    }

    private static func make(identifier: String, targets: Int, intendedUse: String?, duration: Double, hands: Hands,
                             options: ActiveTaskOptions, t: ActiveTaskWording) throws(ActiveTaskSettingsError) -> ResearchTask {
        let title = t(.tappingTitle)
        let how = t(targets == 2 ? .tappingHowTwo : .tappingHowOne, ["seconds": PostedSamples.text(duration)])
        guard duration.isFinite, durations.contains(duration) else {
            throw ActiveTaskSettingsError(path: "duration", message: "must be between \(Int(durations.lowerBound)) and \(Int(durations.upperBound)) seconds (\(PostedSamples.text(duration)))")
        }
        let introduction = [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? t(.tappingUse), detail: nil),
            Step(identifier: "instruction1", kind: .instruction, title: title, text: how),
        ]
        var steps: [Step] = []
        for side in hands.sides {
            let stepID = "tapping.\(side)"
            if hands == .both {
                steps.append(Step(identifier: "instruction.\(side)", kind: .instruction, title: t(side == "right" ? .rightHand : .leftHand),
                                  text: t(side == "right" ? .tapRight : .tapLeft)))
            }
            steps.append(ActiveTaskSteps.countdown(before: stepID, t))
            steps.append(Step(identifier: stepID, kind: .active(ActiveStepContent(
                module: TappingModule.name, duration: duration,
                settings: ["targets": .number(Double(targets)), "hand": .text(side)])),
                title: t(side == "right" ? .rightHand : .leftHand), text: t(targets == 2 ? .tapTwoStep : .tapOneStep), isOptional: false))
        }
        return try ActiveTaskSteps.task(identifier: identifier, title: title, steps, introduction: introduction, options: options, t)
    }
}
