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
    public static func make(identifier: String, intendedUse: String? = nil, options: ActiveTaskOptions = []) throws(ActiveTaskSettingsError) -> ResearchTask {
        let title = "Amsler grid"
        func grid(_ eye: String) -> Step {
            Step(identifier: "amslerGrid.\(eye)", kind: .active(ActiveStepContent(module: AmslerGridModule.name, settings: ["eye": .text(eye)])),
                 title: eye == "left" ? "Left eye" : "Right eye", text: "Look at the dot. Mark where lines look wavy, blurred or missing, then press Done.",
                 isOptional: false)
        }
        func cover(_ eye: String, _ identifier: String) -> Step {
            Step(identifier: identifier, kind: .instruction, title: eye == "left" ? "Left eye" : "Right eye",
                 text: "Hold the screen at reading distance, wearing your reading glasses if you use them. Cover your \(eye == "left" ? "right" : "left") eye and look at the dot in the middle of the grid with your \(eye) eye.")
        }
        let introduction = [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? "This activity checks the middle of your field of vision, one eye at a time.", detail: nil),
            cover("left", "instruction1"),
        ]
        do {
            return try ResearchTask(identifier: identifier, title: title,
                                    steps: ActiveTaskSteps.wrapped([grid("left"), cover("right", "instruction2"), grid("right")],
                                                                   introduction: introduction, options: options))
        } catch {
            throw ActiveTaskSettingsError(path: "id", message: error.message)
        }
    }
}
