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
                            options: ActiveTaskOptions = []) throws(ActiveTaskSettingsError) -> ResearchTask {
        guard diskCounts.contains(numberOfDisks) else {
            throw ActiveTaskSettingsError(path: "numberOfDisks", message: "must be between \(diskCounts.lowerBound) and \(diskCounts.upperBound) (\(numberOfDisks))")
        }
        let title = "Tower of Hanoi"
        let introduction = [
            ActiveTaskSteps.intendedUse(title: title, text: intendedUse ?? "This puzzle measures how you plan ahead.", detail: nil),
            Step(identifier: "instruction1", kind: .instruction, title: title,
                 text: "Move the whole stack to the last tower. Tap a tower to pick up its top disk, then tap the tower to put it on. You may move one disk at a time, and never put a larger disk on a smaller one. Take your time."),
        ]
        let step = Step(identifier: "towerOfHanoi", kind: .active(ActiveStepContent(module: TowerOfHanoiModule.name,
                                                                                   settings: ["numberOfDisks": .number(Double(numberOfDisks))])),
                        title: title, text: "Move the stack to the last tower.", isOptional: false)
        do {
            return try ResearchTask(identifier: identifier, title: title,
                                    steps: ActiveTaskSteps.wrapped([step], introduction: introduction, options: options))
        } catch {
            throw ActiveTaskSettingsError(path: "id", message: error.message)
        }
    }
}
