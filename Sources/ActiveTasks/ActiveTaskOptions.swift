/// Which of the standard steps around an active task's measurements to leave out, as ResearchKit's
/// `ORKPredefinedTaskOption` does for the instructions and the conclusion.
public struct ActiveTaskOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int

    /// Creates options from their raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Leave out the intended-use and instruction steps at the start.
    public static let excludeInstructions = ActiveTaskOptions(rawValue: 1 << 0)
    /// Leave out the completion step at the end.
    public static let excludeConclusion = ActiveTaskOptions(rawValue: 1 << 1)
}
