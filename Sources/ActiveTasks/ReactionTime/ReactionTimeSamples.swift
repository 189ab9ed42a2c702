import JSONDiagnostics

/// What a reaction time step recorded: one entry per trial. ResearchKit's `ORKNormalizedReactionTimeResult` has
/// `currentInterval` (the same), `stimulusStartDate` (here `stimulusStart`), `timerStartDate`, which is when the finger
/// let go (here `release`), and `reactionDate` (here `reaction`); `holdStart`, when the button was pressed, is ours.
///
/// Times are seconds from the animation frame that first showed the step's hold button, each from its pointer event's
/// own timeStamp, except `stimulusStart`, the timestamp of the frame that first showed the stimulus.
public struct ReactionTimeSamples: Hashable, Sendable {
    /// One trial.
    public struct Trial: Hashable, Sendable {
        /// When the participant pressed the hold button, which started the trial's delay.
        public var holdStart: Double
        /// The random delay drawn for the trial, in seconds: the stimulus shows at the first frame after it.
        public var currentInterval: Double
        /// When the stimulus first showed; nil when the participant let go before it did.
        public var stimulusStart: Double?
        /// When the participant lifted the finger from the hold button.
        public var release: Double
        /// When the participant touched the screen after letting go; nil when they did not within the timeout.
        public var reaction: Double?
        /// Where that touch was, in the area's CSS pixels; nil without a touch.
        public var location: TappingSamples.Point?

        /// Creates a trial.
        public init(holdStart: Double, currentInterval: Double, stimulusStart: Double?, release: Double, reaction: Double?,
                    location: TappingSamples.Point?) {
            self.holdStart = holdStart
            self.currentInterval = currentInterval
            self.stimulusStart = stimulusStart
            self.release = release
            self.reaction = reaction
            self.location = location
        }
    }

    /// What became of a trial, worked out on the server from its times and the stimulus's rectangle.
    public enum Outcome: String, Hashable, Sendable {
        /// Let go at least ``ReactionTimeSummary/anticipationLimit`` after the stimulus showed, and tapped it.
        case hit
        /// Let go before the stimulus showed, or too soon after it to have reacted to it.
        case anticipation
        /// Reacted, but tapped beside the stimulus.
        case miss
        /// Did not tap within the timeout.
        case timeout
    }

    /// The size of the area the trials ran in.
    public var stepViewSize: TappingSamples.Size
    /// The hold button.
    public var buttonRect: TappingSamples.Rect
    /// The stimulus.
    public var stimulusRect: TappingSamples.Rect
    /// The trials, in order.
    public var trials: [Trial]
    /// Whether every trial was run.
    public var isComplete: Bool

    /// Creates samples.
    public init(stepViewSize: TappingSamples.Size, buttonRect: TappingSamples.Rect, stimulusRect: TappingSamples.Rect, trials: [Trial], isComplete: Bool) {
        self.stepViewSize = stepViewSize
        self.buttonRect = buttonRect
        self.stimulusRect = stimulusRect
        self.trials = trials
        self.isComplete = isComplete
    }

    /// What became of `trial`.
    public func outcome(of trial: Trial) -> Outcome {
        guard let shown = trial.stimulusStart, trial.release >= shown + ReactionTimeSummary.anticipationLimit else { return .anticipation }
        guard let location = trial.location, trial.reaction != nil else { return .timeout }
        return stimulusRect.contains(location, tolerance: 1) ? .hit : .miss
    }

    /// The samples as the JSON object stored in the step's result, each trial with its outcome.
    public var tree: JSONTree {
        func number(_ value: Double?) -> JSONTree { value.map { .number(PostedSamples.text($0)) } ?? .null }
        func rect(_ r: TappingSamples.Rect) -> JSONTree {
            .object([.init(key: "x", value: number(r.x)), .init(key: "y", value: number(r.y)),
                     .init(key: "width", value: number(r.width)), .init(key: "height", value: number(r.height))])
        }
        return .object([
            .init(key: "stepViewSize", value: .object([.init(key: "width", value: number(stepViewSize.width)),
                                                       .init(key: "height", value: number(stepViewSize.height))])),
            .init(key: "buttonRect", value: rect(buttonRect)),
            .init(key: "stimulusRect", value: rect(stimulusRect)),
            .init(key: "trials", value: .array(trials.map { trial in
                .object([.init(key: "holdStart", value: number(trial.holdStart)), .init(key: "currentInterval", value: number(trial.currentInterval)),
                         .init(key: "stimulusStart", value: number(trial.stimulusStart)), .init(key: "release", value: number(trial.release)),
                         .init(key: "reaction", value: number(trial.reaction)),
                         .init(key: "location", value: trial.location.map { .object([.init(key: "x", value: number($0.x)), .init(key: "y", value: number($0.y))]) } ?? .null),
                         .init(key: "outcome", value: .string(outcome(of: trial).rawValue))])
            })),
            .init(key: "complete", value: .bool(isComplete)),
        ])
    }
}
