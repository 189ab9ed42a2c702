import Research

/// The steps every active task shares, worded once: the intended use, the countdown before a measurement and the
/// completion, as ResearchKit's predefined tasks arrange them.
enum ActiveTaskSteps {
    /// The identifier of the first instruction step, which carries the intended use.
    static let introduction = "instruction"
    /// The identifier of the completion step.
    static let conclusion = "conclusion"
    /// Seconds of the countdown before each measurement.
    static let countdownSeconds = 3.0

    /// The intended-use step: the task's title and why the study asks for it.
    static func intendedUse(title: String, text: String, detail: String?) -> Step {
        Step(identifier: introduction, kind: .instruction, title: title, text: text, detailText: detail)
    }

    /// A countdown before the measurement `step`, so the participant is ready when it starts.
    static func countdown(before step: String, _ t: ActiveTaskWording) -> Step {
        Step(identifier: "countdown.\(step)", kind: .active(ActiveStepContent(module: CountdownModule.name, duration: countdownSeconds)),
             title: t(.getReady), text: t(.startingIn), isOptional: false)
    }

    /// The completion step, which shows the participant's measures.
    static func completion(_ t: ActiveTaskWording) -> Step {
        Step(identifier: conclusion, kind: .completion, title: t(.allDone), text: t(.thankYou))
    }

    /// `steps` with the introduction and the conclusion put around them as `options` allow.
    static func wrapped(_ steps: [Step], introduction: [Step], options: ActiveTaskOptions, _ t: ActiveTaskWording) -> [Step] {
        (options.contains(.excludeInstructions) ? [] : introduction) + steps + (options.contains(.excludeConclusion) ? [] : [completion(t)])
    }

    /// The measurement `step` after its countdown.
    static func measured(_ step: Step, _ t: ActiveTaskWording) -> [Step] {
        [countdown(before: step.identifier, t), step]
    }

    /// The task of `steps` with the introduction and the conclusion put around them as `options` allow.
    static func task(identifier: String, title: String, _ steps: [Step], introduction: [Step], options: ActiveTaskOptions,
                     _ t: ActiveTaskWording) throws(ActiveTaskSettingsError) -> ResearchTask {
        try task(identifier: identifier, title: title, wrapped(steps, introduction: introduction, options: options, t))
    }

    /// The task of `steps` as they are; an identifier no task can have is an error at `id`.
    static func task(identifier: String, title: String, _ steps: [Step]) throws(ActiveTaskSettingsError) -> ResearchTask {
        do {
            return try ResearchTask(identifier: identifier, title: title, steps: steps)
        } catch {
            throw ActiveTaskSettingsError(path: "id", message: error.message)
        }
    }
}
