/// The summary measures of a tapping step, each defined in the README ("Active tasks").
///
/// - `tapCount`: touches that landed on a button.
/// - `offTargetCount`: touches that landed beside the buttons.
/// - `accuracy`: `tapCount` as a percentage of all touches; none without touches.
/// - `meanInterval`: the mean time, in milliseconds, from one on-target touch's start to the next one's; none with fewer
///   than two on-target touches.
/// - `intervalSD`: the sample standard deviation (n − 1) of those intervals; none with fewer than three on-target touches.
///
/// A step stopped before its end has no measures at all: its samples are kept, but no score is made up from part of a test.
public struct TappingSummary: Hashable, Sendable {
    public var tapCount: Int?
    public var offTargetCount: Int?
    public var accuracy: Double?
    public var meanInterval: Double?
    public var intervalSD: Double?

    /// The measures of `samples`.
    public init(_ samples: TappingSamples) {
        guard samples.isComplete else { return }
        let onTarget = samples.samples.filter { $0.buttonIdentifier != .none }
        tapCount = onTarget.count
        offTargetCount = samples.samples.count - onTarget.count
        if !samples.samples.isEmpty { accuracy = 100 * Double(onTarget.count) / Double(samples.samples.count) }
        let intervals = zip(onTarget.dropFirst(), onTarget).map { 1_000 * ($0.timestamp - $1.timestamp) }
        guard !intervals.isEmpty else { return }
        let mean = intervals.reduce(0, +) / Double(intervals.count)
        meanInterval = mean
        guard intervals.count > 1 else { return }
        intervalSD = (intervals.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(intervals.count - 1)).squareRoot()
    }

    /// The names of the measures, in the order results list them.
    public static let measureNames = ["tapCount", "offTargetCount", "accuracy", "meanInterval", "intervalSD"]

    /// The measures in the order of ``measureNames``, with their units.
    public var measures: [(identifier: String, value: Double?, units: String?)] {
        let values: [(Double?, String?)] = [(tapCount.map(Double.init), nil), (offTargetCount.map(Double.init), nil), (accuracy, "%"),
                                            (meanInterval, "ms"), (intervalSD, "ms")]
        return zip(Self.measureNames, values).map { ($0, $1.0, $1.1) }
    }
}
