/// What a reaction time step of shakes recorded, and its measures, each defined in the README ("Active tasks"), as
/// ResearchKit's `ORKReactionTimeStep` decides them, from the device motion the step recorded:
///
/// - A reading *moves* when the magnitude of its `userAcceleration` (gravity removed, in g) is above the step's
///   `thresholdAcceleration`.
/// - A trial is a *false start* when a reading moves at or after the trial's `start` and before its `stimulusStart`
///   (up to its `end` when the stimulus never showed): the phone was shaken before the stimulus. The attempt is then
///   run again with a new delay, as ResearchKit does.
/// - Otherwise it is a *reaction* when a reading moves at or after `stimulusStart` and no later than `timeout` seconds
///   after it (nor after the trial's `end`): its reaction time is from the stimulus's onset (the animation frame that
///   showed it) to the first such reading's timestamp, in milliseconds.
/// - Otherwise it is a *timeout*.
///
/// Measures, over a complete step: `reactions`, `falseStarts`, `timeouts` (trials of each outcome);
/// `meanReactionTime` and `medianReactionTime` (ms, over the reactions; none without one).
public struct ShakeReactionTimeAnalyzer: Hashable, Sendable {
    /// What became of a trial.
    public enum Outcome: String, Hashable, Sendable {
        /// The phone moved within the timeout after the stimulus's onset.
        case reaction
        /// The phone moved before the stimulus's onset; the attempt runs again.
        case falseStart
        /// The phone did not move within the timeout.
        case timeout
    }

    /// One trial, in seconds on the step's clock.
    public struct Trial: Hashable, Sendable {
        /// When the trial's delay began.
        public var start: Double
        /// The random delay drawn, between the step's `minimumStimulusInterval` and `maximumStimulusInterval`.
        public var delay: Double
        /// The onset of the stimulus: the animation frame that showed it; nil when the trial ended before it.
        public var stimulusStart: Double?
        /// When the trial ended: the reading that ended it, or the end of its timeout.
        public var end: Double

        /// A trial.
        public init(start: Double, delay: Double, stimulusStart: Double?, end: Double) {
            self.start = start
            self.delay = delay
            self.stimulusStart = stimulusStart
            self.end = end
        }
    }

    /// The acceleration (g) above which a reading moves.
    public var threshold: Double
    /// Seconds after the onset within which a reaction counts.
    public var timeout: Double

    /// An analyzer with the step's `thresholdAcceleration` and `timeout`.
    public init(threshold: Double, timeout: Double) {
        self.threshold = threshold
        self.timeout = timeout
    }

    /// The outcome of `trial` and, for a reaction, its time in milliseconds, from `samples` (rising timestamps).
    public func outcome(of trial: Trial, in samples: [DeviceMotionSample]) -> (outcome: Outcome, reactionTime: Double?) {
        let moving = samples.lazy.filter { $0.userAcceleration.magnitude > threshold && $0.timestamp >= trial.start && $0.timestamp <= trial.end }
        if moving.first(where: { sample in trial.stimulusStart.map { sample.timestamp < $0 } ?? true }) != nil { return (.falseStart, nil) }
        guard let shown = trial.stimulusStart else { return (.timeout, nil) }
        if let reading = moving.first(where: { $0.timestamp >= shown && $0.timestamp <= shown + timeout }) {
            return (.reaction, ((reading.timestamp - shown) * 1_000_000).rounded() / 1_000)
        }
        return (.timeout, nil)
    }

    /// The measures of a step's trials.
    public struct Measures: Hashable, Sendable {
        /// Trials that ended in a reaction.
        public var reactions: Int
        /// Trials that ended in a false start.
        public var falseStarts: Int
        /// Trials that timed out.
        public var timeouts: Int
        /// ms; nil without a reaction.
        public var meanReactionTime: Double?
        /// ms; nil without a reaction.
        public var medianReactionTime: Double?

        /// The measures of `outcomes`.
        public init(_ outcomes: [(outcome: Outcome, reactionTime: Double?)]) {
            reactions = outcomes.filter { $0.outcome == .reaction }.count
            falseStarts = outcomes.filter { $0.outcome == .falseStart }.count
            timeouts = outcomes.filter { $0.outcome == .timeout }.count
            let times = outcomes.compactMap(\.reactionTime).sorted()
            guard !times.isEmpty else { return }
            meanReactionTime = times.reduce(0, +) / Double(times.count)
            let middle = times.count / 2
            medianReactionTime = times.count % 2 == 1 ? times[middle] : (times[middle - 1] + times[middle]) / 2
        }
    }

    /// The names of the measures, in the order results list them.
    public static let measureNames = ["reactions", "falseStarts", "timeouts", "meanReactionTime", "medianReactionTime"]

    /// `measures` in the order of ``measureNames``, with their units; all nil without measures.
    public static func list(_ measures: Measures?) -> [(identifier: String, value: Double?, units: String?)] {
        let values: [Double?] = [measures.map { Double($0.reactions) }, measures.map { Double($0.falseStarts) }, measures.map { Double($0.timeouts) },
                                 measures?.meanReactionTime.map { ($0 * 10).rounded() / 10 }, measures?.medianReactionTime.map { ($0 * 10).rounded() / 10 }]
        let units: [String?] = [nil, nil, nil, "ms", "ms"]
        return zip(measureNames, zip(values, units)).map { ($0, $1.0, $1.1) }
    }
}
