import Research

/// Builds the Amsler grid test: one eye at a time, the participant looks at the dot in the middle of a grid and marks
/// where its lines look wavy, blurred or missing. The left eye first, then the right, as ResearchKit's.
///
/// ```swift
/// let task = try AmslerGridTask.make(identifier: "amsler")
/// task.steps.map(\.identifier)
/// // ["instruction", "instruction1", "amslerGrid.left", "instruction2", "amslerGrid.right", "conclusion"]
/// ```
public enum AmslerGridTask {
    /// The test of both eyes.
    public static func make(identifier: String, intendedUse: String? = nil, options: ActiveTaskOptions = [],
                            language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        let t = ActiveTaskWording(language: language)
        let title = t(.amslerTitle)
        func grid(_ eye: String) -> Step {
            Step(identifier: "amslerGrid.\(eye)", kind: .active(ActiveStepContent(module: AmslerGridModule.name, settings: ["eye": .text(eye)])),
                 title: t(eye == "left" ? .leftEye : .rightEye), text: t(.amslerStep), isOptional: false)
        }
        func cover(_ eye: String, _ identifier: String) -> Step {
            Step(identifier: identifier, kind: .instruction, title: t(eye == "left" ? .leftEye : .rightEye),
                 text: t(eye == "left" ? .amslerCoverRight : .amslerCoverLeft))
        }
        let introduction = [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? t(.amslerUse), detail: nil),
            cover("left", "instruction1"),
        ]
        return try ActiveTaskSteps.task(identifier: identifier, title: title, [grid("left"), cover("right", "instruction2"), grid("right")],
                                        introduction: introduction, options: options, t)
    }
}
