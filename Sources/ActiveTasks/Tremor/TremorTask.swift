import Research

/// Builds the tremor test as ResearchKit's `tremorTest` does: for each hand the participant holds the phone in, one
/// pose after another (in the lap, at shoulder height, elbow bent at shoulder height, touching the nose, the queen
/// wave), each recorded for `duration` seconds after a countdown, with the accelerometer and device motion
/// (``TremorAnalyzer`` reads the tremor's frequency and amplitude from them).
///
/// ```swift
/// let task = try TremorTask.make(identifier: "tremor", duration: 10, hands: .right, excluding: [.queenWave])
/// task.steps.map(\.identifier)   // ["instruction", "instruction1", "countdown.tremor.handInLap.right", "tremor.handInLap.right", …]
/// ```
public enum TremorTask {
    /// A pose, by the name a study file gives it; its step is ResearchKit's `tremor.IDENTIFIER.HAND`.
    public enum Pose: String, Hashable, Sendable, CaseIterable {
        /// The hand resting in the lap (ResearchKit's `handInLap`).
        case inLap
        /// The arm held out in front at shoulder height (`handAtShoulderLength`).
        case atShoulderHeight
        /// The arm at shoulder height with the elbow bent (`handAtShoulderLengthWithElbowBent`).
        case elbowBent
        /// The hand brought to the nose and away again (`handToNose`).
        case touchNose
        /// The wrist turned back and forth as in a queen's wave (`handQueenWave`).
        case queenWave

        /// ResearchKit's name of the pose's step, before the hand.
        public var stepIdentifier: String {
            switch self {
            case .inLap: "tremor.handInLap"
            case .atShoulderHeight: "tremor.handAtShoulderLength"
            case .elbowBent: "tremor.handAtShoulderLengthWithElbowBent"
            case .touchNose: "tremor.handToNose"
            case .queenWave: "tremor.handQueenWave"
            }
        }

        var instruction: ActiveTaskText {
            switch self {
            case .inLap: .tremorInLap
            case .atShoulderHeight: .tremorAtShoulder
            case .elbowBent: .tremorElbowBent
            case .touchNose: .tremorTouchNose
            case .queenWave: .tremorQueenWave
            }
        }
    }

    /// The fewest and most seconds a pose is recorded.
    public static let durations: ClosedRange<Double> = 2...60

    /// The task for `hands` (right, then left, for both), each pose but those `excluding` names recorded for
    /// `duration` seconds (ResearchKit's `activeStepDuration`), the sensors read `frequency` times a second.
    public static func make(identifier: String, intendedUse: String? = nil, duration: Double = 10, hands: TappingTask.Hands = .right,
                            excluding: Set<Pose> = [], frequency: Double = 100, options: ActiveTaskOptions = [],
                            language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        guard duration.isFinite, durations.contains(duration) else {
            throw ActiveTaskSettingsError(path: "duration", message: "must be between \(PostedSamples.text(durations.lowerBound)) and \(PostedSamples.text(durations.upperBound)) seconds (\(PostedSamples.text(duration)))")
        }
        guard frequency.isFinite, RangeOfMotionTask.frequencies.contains(frequency) else {
            throw ActiveTaskSettingsError(path: "frequency", message: "must be between \(PostedSamples.text(RangeOfMotionTask.frequencies.lowerBound)) and \(PostedSamples.text(RangeOfMotionTask.frequencies.upperBound)) readings a second (\(PostedSamples.text(frequency)))")
        }
        let poses = Pose.allCases.filter { !excluding.contains($0) }
        guard !poses.isEmpty else {
            throw ActiveTaskSettingsError(path: "exclude", message: "leaves no pose to record; keep at least one of \(Pose.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let t = ActiveTaskWording(language: language)
        let title = t(.tremorTitle)
        let seconds = PostedSamples.text(duration)
        let introduction = [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? t(.tremorUse), detail: nil),
            Step(identifier: "instruction1", kind: .instruction, title: title, text: t(.tremorHow, ["seconds": seconds])),
        ]
        var steps: [Step] = []
        for hand in hands.sides {
            let handText = t(hand == "left" ? .tremorLeftHand : .tremorRightHand)
            if hands == .both {
                steps.append(Step(identifier: "instruction.\(hand)", kind: .instruction, title: title, text: handText))
            }
            for pose in poses {
                let step = Step(identifier: "\(pose.stepIdentifier).\(hand)", kind: .active(ActiveStepContent(module: TremorModule.name, duration: duration, settings: [
                    "pose": .text(pose.rawValue), "hand": .text(hand),
                    "recorders": .text([MotionRecorder.accelerometer, .deviceMotion].map(\.rawValue).joined(separator: ",")),
                    "frequency": .number(frequency),
                ])), title: title, text: t(pose.instruction, ["seconds": seconds]), isOptional: false)
                steps += ActiveTaskSteps.measured(step, t)
            }
        }
        return try ActiveTaskSteps.task(identifier: identifier, title: title, steps, introduction: introduction, options: options, t)
    }
}
