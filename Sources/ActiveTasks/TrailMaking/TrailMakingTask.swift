import Research

/// Builds the trail making test: thirteen circles, tapped in order as fast as possible; part A numbers them 1–13,
/// part B alternates numbers and letters (1, A, 2, B … 7). ResearchKit lays the circles out from fixed tables, each run
/// picking one, mirroring it left to right and top to bottom and reversing its order at random, so every trail has
/// about the same length; ours follows that rule with four layouts of its own (`trailMaking.js`), each a trail of
/// 3.2–3.5 area widths that never crosses itself.
///
/// ```swift
/// let task = try TrailMakingTask.make(identifier: "trails", trailType: .b)
/// task.steps.map(\.identifier)   // ["instruction", "instruction1", "countdown.trailMaking", "trailMaking", "conclusion"]
/// ```
public enum TrailMakingTask {
    /// Which part of the test.
    public enum TrailType: String, Hashable, Sendable, CaseIterable {
        /// Numbers 1 to 13.
        case a = "A"
        /// Numbers and letters in turn: 1, A, 2, B … 7.
        case b = "B"
    }

    /// The number of circles.
    public static let circleCount = 13

    /// The test of `trailType`.
    public static func make(identifier: String, intendedUse: String? = nil, trailType: TrailType = .a,
                            options: ActiveTaskOptions = [], language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        let t = ActiveTaskWording(language: language)
        let title = t(.trailTitle)
        let letters = t(.trailLetters).split(separator: " ").map(String.init)
        let sequence = trailType == .a ? "1, 2, 3" : ["1", letters.first ?? "A", "2", letters.dropFirst().first ?? "B", "3"].joined(separator: ", ")
        let introduction = [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? t(.trailUse), detail: nil),
            Step(identifier: "instruction1", kind: .instruction, title: title, text: trailType == .a ? t(.trailHowA) : t(.trailHowB, ["sequence": sequence])),
        ]
        let step = Step(identifier: "trailMaking", kind: .active(ActiveStepContent(module: TrailMakingModule.name, settings: ["trailType": .text(trailType.rawValue)])),
                        title: title, text: t(.trailStep, ["sequence": sequence]), isOptional: false)
        return try ActiveTaskSteps.task(identifier: identifier, title: title, ActiveTaskSteps.measured(step, t),
                                        introduction: introduction, options: options, t)
    }
}
