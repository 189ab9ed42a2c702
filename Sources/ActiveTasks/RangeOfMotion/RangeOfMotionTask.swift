import Research

/// Builds the knee and shoulder range-of-motion tasks as ResearchKit's predefined tasks do: the phone is held on the
/// shin (knee) or the upper arm (shoulder) of one side; the participant touches the screen at full extension, moves the
/// joint as far as it goes and back, and touches again. The measures come from the device's attitude (``RangeOfMotionAnalyzer``).
///
/// ```swift
/// let task = try RangeOfMotionTask.make(identifier: "knee", joint: .knee, side: .right)
/// task.steps.map(\.identifier)   // ["instruction", "instruction1", "rangeOfMotion.right", "conclusion"]
/// ```
public enum RangeOfMotionTask {
    /// The joint measured.
    public enum Joint: String, Hashable, Sendable, CaseIterable {
        case knee
        case shoulder
    }

    /// The side of the body (ResearchKit's `limbOption`).
    public enum Side: String, Hashable, Sendable, CaseIterable {
        case left
        case right
    }

    /// The fewest and most device motion readings a second the step asks for.
    public static let frequencies: ClosedRange<Double> = 10...100

    /// The task for `joint` on `side`, recording device motion `frequency` times a second (ResearchKit records 100; a
    /// browser gives about 60).
    public static func make(identifier: String, joint: Joint, side: Side, intendedUse: String? = nil, frequency: Double = 60,
                            options: ActiveTaskOptions = [], language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        guard frequency.isFinite, frequencies.contains(frequency) else {
            throw ActiveTaskSettingsError(path: "frequency", message: "must be between \(PostedSamples.text(frequencies.lowerBound)) and \(PostedSamples.text(frequencies.upperBound)) readings a second (\(PostedSamples.text(frequency)))")
        }
        let t = ActiveTaskWording(language: language)
        let sideText = t(side == .left ? .leftSide : .rightSide)
        let title = t(joint == .knee ? .kneeTitle : .shoulderTitle, ["side": sideText])
        let introduction = [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? t(.rangeOfMotionUse), detail: nil),
            Step(identifier: "instruction1", kind: .instruction, title: title,
                 text: t(joint == .knee ? .kneeHow : .shoulderHow, ["side": sideText])),
        ]
        let step = Step(identifier: "rangeOfMotion.\(side.rawValue)", kind: .active(ActiveStepContent(module: RangeOfMotionModule.name, settings: [
            "joint": .text(joint.rawValue), "side": .text(side.rawValue), "recorders": .text("\(MotionRecorder.deviceMotion.rawValue),\(MotionRecorder.orientation.rawValue)"),
            "frequency": .number(frequency),
        ])), title: title, text: t(joint == .knee ? .kneeStep : .shoulderStep), isOptional: false)
        return try ActiveTaskSteps.task(identifier: identifier, title: title, [step], introduction: introduction, options: options, t)
    }
}
