import Research

/// Builds ResearchKit's walking tasks with its parameters, step identifiers and recorders, on a browser's sensors:
/// the short walk (`shortWalkTask`), walking back and forth (`walkBackAndForthTask`), the timed walk (`timedWalkTask`,
/// with its assistive device form) and the fitness check (`fitnessCheckTask`), also as the six-minute walk with
/// ResearchKit-like questions after it. Each walking step is run by ``WalkModule``.
///
/// ```swift
/// let task = try WalkTask.shortWalk(identifier: "walk", numberOfStepsPerLeg: 20, restDuration: 20)
/// task.steps.map(\.identifier)
/// // ["instruction", "instruction1", "walking.outbound", "walking.return", "walking.rest", "conclusion"]
/// ```
///
/// What a browser cannot do: it has no pedometer, so steps are counted from the acceleration (``WalkAnalyzer``), and a
/// short walk's leg lasts one second a step (a slow 60 steps a minute) instead of ending at the pedometer's count; it
/// reads no heart rate, so the fitness check records none and says so. iOS gives motion readings only after a touch,
/// so each walking step starts at a touch rather than after a countdown.
public enum WalkTask {
    /// The fewest and most motion readings a second a walking step asks for.
    public static let frequencies: ClosedRange<Double> = 10...60
    /// The longest walking step, in seconds.
    public static let longestStep = 600.0
    /// The most readings a recorder of one walking step may take (its duration times its rate): six minutes at 30 a
    /// second, or three at 60. This bounds a step's post (``WalkModule/maximumPostedBytes(for:)``, about 6 MB) under
    /// the 16 MB the deployment's nginx accepts.
    public static let maximumReadings = 10_800.0

    /// The recorders of every walking step (ResearchKit's, less the pedometer).
    static let motion = "accelerometer,deviceMotion"
    /// The recorders of a walk whose distance counts.
    static let motionAndLocation = "accelerometer,deviceMotion,location"

    /// The short walk: walk `numberOfStepsPerLeg` steps out, turn, walk back, then stand still for `restDuration`
    /// seconds (no rest step when 0), recording `frequency` readings a second.
    public static func shortWalk(identifier: String, intendedUse: String? = nil, numberOfStepsPerLeg: Int = 20, restDuration: Double = 20,
                                 frequency: Double = 60, options: ActiveTaskOptions = [], language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        guard (1...100).contains(numberOfStepsPerLeg) else {
            throw ActiveTaskSettingsError(path: "numberOfStepsPerLeg", message: "must be from 1 to 100 (\(numberOfStepsPerLeg))")
        }
        try check(restDuration, "restDuration", allowZero: true)
        try check(frequency: frequency)
        try check(readings: Double(numberOfStepsPerLeg), "numberOfStepsPerLeg", frequency: frequency)
        try check(readings: restDuration, "restDuration", frequency: frequency)
        let t = ActiveTaskWording(language: language)
        let title = t(.walkTitle)
        let legs = Double(numberOfStepsPerLeg)
        var steps = [
            walkStep("walking.outbound", .walk, legs, motion, frequency, title, t(.walkOutbound, ["steps": "\(numberOfStepsPerLeg)"])),
            walkStep("walking.return", .walk, legs, motion, frequency, title, t(.walkReturn)),
        ]
        if restDuration > 0 {
            steps.append(walkStep("walking.rest", .rest, restDuration, motion, frequency, title, t(.walkRest, ["seconds": PostedSamples.text(restDuration)])))
        }
        return try task(identifier, title, steps, introduction: [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? t(.walkUse), detail: nil),
            Step(identifier: "instruction1", kind: .instruction, title: title,
                 text: t(.walkHow, ["steps": "\(numberOfStepsPerLeg)", "seconds": PostedSamples.text(restDuration)])),
        ], options, t)
    }

    /// Walking back and forth in a straight line for `walkDuration` seconds, then standing still for `restDuration`
    /// (no rest step when 0).
    public static func walkBackAndForth(identifier: String, intendedUse: String? = nil, walkDuration: Double = 180, restDuration: Double = 180,
                                        frequency: Double = 30, options: ActiveTaskOptions = [], language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        try check(walkDuration, "walkDuration")
        try check(restDuration, "restDuration", allowZero: true)
        try check(frequency: frequency)
        try check(readings: walkDuration, "walkDuration", frequency: frequency)
        try check(readings: restDuration, "restDuration", frequency: frequency)
        let t = ActiveTaskWording(language: language)
        let title = t(.walkBackTitle)
        var steps = [walkStep("walking.outbound", .walk, walkDuration, motion, frequency, title, t(.walkBackStep, ["seconds": PostedSamples.text(walkDuration)]))]
        if restDuration > 0 {
            steps.append(walkStep("walking.rest", .rest, restDuration, motion, frequency, title, t(.walkRest, ["seconds": PostedSamples.text(restDuration)])))
        }
        return try task(identifier, title, steps, introduction: [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? t(.walkUse), detail: nil),
            Step(identifier: "instruction1", kind: .instruction, title: title,
                 text: t(.walkBackHow, ["seconds": PostedSamples.text(walkDuration), "rest": PostedSamples.text(restDuration)])),
        ], options, t)
    }

    /// The timed walk: `distanceInMeters` out as fast as is safe within `timeLimit` seconds, a turn within
    /// `turnAroundTimeLimit`, and back; before it, when `includeAssistiveDeviceForm`, ResearchKit's form asking about an
    /// ankle-foot orthosis and an assistive device.
    public static func timedWalk(identifier: String, intendedUse: String? = nil, distanceInMeters: Double = 100, timeLimit: Double = 180,
                                 turnAroundTimeLimit: Double = 60, includeAssistiveDeviceForm: Bool = true, frequency: Double = 60,
                                 options: ActiveTaskOptions = [], language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        guard distanceInMeters.isFinite, (1...1_000).contains(distanceInMeters) else {
            throw ActiveTaskSettingsError(path: "distanceInMeters", message: "must be from 1 to 1000 metres (\(PostedSamples.text(distanceInMeters)))")
        }
        try check(timeLimit, "timeLimit")
        try check(turnAroundTimeLimit, "turnAroundTimeLimit")
        try check(frequency: frequency)
        try check(readings: timeLimit, "timeLimit", frequency: frequency)
        try check(readings: turnAroundTimeLimit, "turnAroundTimeLimit", frequency: frequency)
        let t = ActiveTaskWording(language: language)
        let title = t(.timedTitle)
        let metres = ["distance": PostedSamples.text(distanceInMeters)]
        let introduction = [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? t(.timedUse), detail: nil),
            Step(identifier: "instruction1", kind: .instruction, title: title, text: t(.timedHow, metres)),
        ]
        let steps = [
            walkStep("timed.walk.trial1", .timed, timeLimit, motionAndLocation, frequency, title, t(.timedTrial1, metres), distance: distanceInMeters),
            walkStep("timed.walk.turn.around", .turnAround, turnAroundTimeLimit, motion, frequency, title, t(.timedTurn)),
            walkStep("timed.walk.trial2", .timed, timeLimit, motionAndLocation, frequency, title, t(.timedTrial2), distance: distanceInMeters),
        ]
        var all = ActiveTaskSteps.wrapped(steps, introduction: introduction, options: options, t)
        // As ResearchKit: the form comes first, whether or not the instructions are left out.
        if includeAssistiveDeviceForm {
            // ResearchKit's identifiers and stored values (in English, whatever the language shown).
            let devices: [(ActiveTaskText, String)] = [(.timedNone, "None"), (.timedCane1, "Unilateral Cane"), (.timedCrutch1, "Unilateral Crutch"),
                                                       (.timedCane2, "Bilateral Cane"), (.timedCrutch2, "Bilateral Crutch"), (.timedWalker, "Walker/Rollator")]
            all.insert(Step(identifier: "timed.walk.form", kind: .form(FormContent(items: [
                FormItem(identifier: "timed.walk.form.afo", text: t(.timedAFO), answerFormat: .boolean(BooleanFormat())),
                FormItem(identifier: "timed.walk.form.assistance", text: t(.timedAssistance),
                         answerFormat: .textChoice(TextChoiceFormat(style: .single, choices: devices.map { TextChoice(text: t($0.0), value: .string($0.1)) }))),
            ])), title: t(.timedFormTitle), text: t(.timedFormText)), at: 0)
        }
        return try ActiveTaskSteps.task(identifier: identifier, title: title, all)
    }

    /// The fitness check: walk as fast as is safe for `walkDuration` seconds, recording motion and location (for the
    /// distance), then rest for `restDuration` (no rest step when 0). A browser reads no heart rate: none is recorded.
    public static func fitnessCheck(identifier: String, intendedUse: String? = nil, walkDuration: Double = 360, restDuration: Double = 180,
                                    frequency: Double = 30, options: ActiveTaskOptions = [], language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        try fitness(identifier, intendedUse, walkDuration, restDuration, frequency, questions: false, options, language)
    }

    /// The six-minute walk: the fitness check (by default six minutes' walk and three minutes' rest), followed by a form
    /// asking how hard the walk was (Borg's CR10 scale, 0 to 10) and whether the participant stopped or rested.
    public static func sixMinuteWalk(identifier: String, intendedUse: String? = nil, walkDuration: Double = 360, restDuration: Double = 180,
                                     frequency: Double = 30, options: ActiveTaskOptions = [], language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        try fitness(identifier, intendedUse, walkDuration, restDuration, frequency, questions: true, options, language)
    }

    private static func fitness(_ identifier: String, _ intendedUse: String?, _ walkDuration: Double, _ restDuration: Double, _ frequency: Double,
                                questions: Bool, _ options: ActiveTaskOptions, _ language: String) throws(ActiveTaskSettingsError) -> ResearchTask {
        try check(walkDuration, "walkDuration")
        try check(restDuration, "restDuration", allowZero: true)
        try check(frequency: frequency)
        try check(readings: walkDuration, "walkDuration", frequency: frequency)
        try check(readings: restDuration, "restDuration", frequency: frequency)
        let t = ActiveTaskWording(language: language)
        let title = t(questions ? .sixMinuteTitle : .fitnessTitle)
        let minutes = PostedSamples.text((walkDuration / 6).rounded() / 10)
        var steps = [walkStep("fitness.walk", .walk, walkDuration, motionAndLocation, frequency, title, t(.fitnessWalk, ["minutes": minutes]))]
        if restDuration > 0 {
            steps.append(walkStep("fitness.rest", .rest, restDuration, motion, frequency, title, t(.fitnessRest, ["seconds": PostedSamples.text(restDuration)])))
        }
        if questions {
            steps.append(Step(identifier: "fitness.questions", kind: .form(FormContent(items: [
                FormItem(identifier: "fitness.questions.exertion", text: t(.exertionQuestion),
                         answerFormat: .scale(ScaleFormat(minimum: 0, maximum: 10, minimumDescription: t(.exertionLow), maximumDescription: t(.exertionHigh)))),
                FormItem(identifier: "fitness.questions.stopped", text: t(.stoppedQuestion), answerFormat: .boolean(BooleanFormat())),
            ])), title: t(.walkQuestionsTitle)))
        }
        return try task(identifier, title, steps, introduction: [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? t(.fitnessUse), detail: nil),
            Step(identifier: "instruction1", kind: .instruction, title: title,
                 text: t(.fitnessHow, ["minutes": minutes, "seconds": PostedSamples.text(restDuration)])),
        ], options, t)
    }

    /// Refuses a step of `duration` seconds at `frequency` readings a second that would take more than
    /// ``maximumReadings``.
    private static func check(readings duration: Double, _ path: String, frequency: Double) throws(ActiveTaskSettingsError) {
        guard duration * frequency <= maximumReadings else {
            throw ActiveTaskSettingsError(path: path, message: "at \(PostedSamples.text(frequency)) readings a second may be at most \(PostedSamples.text(maximumReadings / frequency)) seconds (\(PostedSamples.text(duration))); lower frequency for a longer walk")
        }
    }

    /// A walking step run by ``WalkModule``.
    static func walkStep(_ identifier: String, _ phase: WalkModule.Phase, _ duration: Double, _ recorders: String, _ frequency: Double,
                         _ title: String, _ text: String, distance: Double? = nil) -> Step {
        var settings: [String: ActiveSetting] = ["phase": .text(phase.rawValue), "recorders": .text(recorders), "frequency": .number(frequency)]
        if let distance { settings["distance"] = .number(distance) }
        return Step(identifier: identifier, kind: .active(ActiveStepContent(module: WalkModule.name, duration: duration, settings: settings)),
                    title: title, text: text, isOptional: false)
    }

    private static func check(_ seconds: Double, _ path: String, allowZero: Bool = false) throws(ActiveTaskSettingsError) {
        guard seconds.isFinite, seconds >= (allowZero ? 0 : 1), seconds <= longestStep else {
            throw ActiveTaskSettingsError(path: path, message: "must be from \(allowZero ? 0 : 1) to \(PostedSamples.text(longestStep)) seconds (\(PostedSamples.text(seconds)))")
        }
    }

    private static func check(frequency: Double) throws(ActiveTaskSettingsError) {
        guard frequency.isFinite, frequencies.contains(frequency) else {
            throw ActiveTaskSettingsError(path: "frequency", message: "must be between \(PostedSamples.text(frequencies.lowerBound)) and \(PostedSamples.text(frequencies.upperBound)) readings a second (\(PostedSamples.text(frequency)))")
        }
    }

    private static func task(_ identifier: String, _ title: String, _ steps: [Step], introduction: [Step], _ options: ActiveTaskOptions,
                             _ t: ActiveTaskWording) throws(ActiveTaskSettingsError) -> ResearchTask {
        try ActiveTaskSteps.task(identifier: identifier, title: title, steps, introduction: introduction, options: options, t)
    }
}
