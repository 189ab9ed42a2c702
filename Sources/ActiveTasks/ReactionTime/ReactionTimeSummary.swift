/// The summary measures of a reaction time step, each defined in the README ("Active tasks").
///
/// - `hits`, `anticipations`, `misses`, `timeouts`: the trials of each outcome (``ReactionTimeSamples/Outcome``).
/// - `meanReactionTime`, `medianReactionTime`: from the stimulus's onset to letting go of the hold button, in
///   milliseconds, over the hits; anticipations, misses and timeouts are left out. None without a hit.
/// - `meanMovementTime`: from letting go to touching the stimulus, over the hits.
///
/// A step stopped before its last trial has no measures.
public struct ReactionTimeSummary: Hashable, Sendable {
    /// A let-go sooner than this after the onset (seconds) cannot be a reaction to the stimulus: it is an anticipation.
    public static let anticipationLimit = 0.1

    public var hits: Int?
    public var anticipations: Int?
    public var misses: Int?
    public var timeouts: Int?
    public var meanReactionTime: Double?
    public var medianReactionTime: Double?
    public var meanMovementTime: Double?

    /// The measures of `samples`.
    public init(_ samples: ReactionTimeSamples) {
        guard samples.isComplete else { return }
        let outcomes = samples.trials.map(samples.outcome(of:))
        hits = outcomes.filter { $0 == .hit }.count
        anticipations = outcomes.filter { $0 == .anticipation }.count
        misses = outcomes.filter { $0 == .miss }.count
        timeouts = outcomes.filter { $0 == .timeout }.count
        let hitTrials = zip(samples.trials, outcomes).filter { $0.1 == .hit }.map(\.0)
        let reactions = hitTrials.compactMap { trial in trial.stimulusStart.map { 1_000 * (trial.release - $0) } }.sorted()
        let movements = hitTrials.compactMap { trial in trial.reaction.map { 1_000 * ($0 - trial.release) } }
        guard !reactions.isEmpty else { return }
        meanReactionTime = reactions.reduce(0, +) / Double(reactions.count)
        let middle = reactions.count / 2
        medianReactionTime = reactions.count % 2 == 1 ? reactions[middle] : (reactions[middle - 1] + reactions[middle]) / 2
        if !movements.isEmpty { meanMovementTime = movements.reduce(0, +) / Double(movements.count) }
    }

    /// The names of the measures, in the order results list them.
    public static let measureNames = ["hits", "anticipations", "misses", "timeouts", "meanReactionTime", "medianReactionTime", "meanMovementTime"]

    /// The measures in the order of ``measureNames``, with their units.
    public var measures: [(identifier: String, value: Double?, units: String?)] {
        let values: [(Double?, String?)] = [(hits.map(Double.init), nil), (anticipations.map(Double.init), nil), (misses.map(Double.init), nil),
                                            (timeouts.map(Double.init), nil), (meanReactionTime, "ms"), (medianReactionTime, "ms"),
                                            (meanMovementTime, "ms")]
        return zip(Self.measureNames, values).map { ($0, $1.0, $1.1) }
    }
}
