import Research

/// Builds the Tower of Hanoi: disks stacked on the first of three towers, to be moved to the last one, one at a time,
/// never a larger disk on a smaller. It has no countdown, time limit or move limit, as ResearchKit's has none.
///
/// ```swift
/// let task = try TowerOfHanoiTask.make(identifier: "hanoi", numberOfDisks: 4)
/// task.steps.map(\.identifier)   // ["instruction", "instruction1", "towerOfHanoi", "conclusion"]
/// ```
public enum TowerOfHanoiTask {
    /// The fewest and most disks (ResearchKit warns above eight: the puzzle then takes too long).
    public static let diskCounts: ClosedRange<Int> = 1...8

    /// The puzzle with `numberOfDisks` disks.
    public static func make(identifier: String, intendedUse: String? = nil, numberOfDisks: Int = 3,
                            options: ActiveTaskOptions = [], language: String = "en") throws(ActiveTaskSettingsError) -> ResearchTask {
        let t = ActiveTaskWording(language: language)
        guard diskCounts.contains(numberOfDisks) else {
            throw ActiveTaskSettingsError(path: "numberOfDisks", message: "must be between \(diskCounts.lowerBound) and \(diskCounts.upperBound) (\(numberOfDisks))")
        }
        let title = t(.hanoiTitle)
        let introduction = [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? t(.hanoiUse), detail: nil),
            Step(identifier: "instruction1", kind: .instruction, title: title, text: t(.hanoiHow)),
        ]
        let step = Step(identifier: "towerOfHanoi", kind: .active(ActiveStepContent(module: TowerOfHanoiModule.name,
                                                                                   settings: ["numberOfDisks": .number(Double(numberOfDisks))])),
                        title: title, text: t(.hanoiStep), isOptional: false)
        return try ActiveTaskSteps.task(identifier: identifier, title: title, [step], introduction: introduction, options: options, t)
    }
}
