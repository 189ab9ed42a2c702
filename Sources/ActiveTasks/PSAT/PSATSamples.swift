import JSONDiagnostics

/// What a PSAT step recorded, with ResearchKit's names (`ORKPSATResult`, `ORKPSATSample`): the `initialDigit` that
/// starts the series, then one sample per addition with the `digit` presented, the `answer` tapped (the last key in
/// the digit's window; −1 for none) and its `time` (seconds from the digit's onset to that key, from the key's own event
/// timeStamp; the whole interval when none). Ours besides: each digit's `onset`, the timestamp of the animation frame
/// that presented it, in seconds from the frame that presented the initial digit. `correct` is worked out on the server.
public struct PSATSamples: Hashable, Sendable {
    /// One addition.
    public struct Sample: Hashable, Sendable {
        public var digit: Int
        public var onset: Double
        public var answer: Int
        public var time: Double
        /// Creates a sample.
        public init(digit: Int, onset: Double, answer: Int, time: Double) {
            self.digit = digit
            self.onset = onset
            self.answer = answer
            self.time = time
        }
    }

    public var presentationMode: PSATTask.PresentationMode
    public var interStimulusInterval: Double
    public var stimulusDuration: Double
    public var initialDigit: Int
    public var samples: [Sample]
    /// Whether every addition was presented.
    public var isComplete: Bool

    /// Creates samples.
    public init(presentationMode: PSATTask.PresentationMode, interStimulusInterval: Double, stimulusDuration: Double, initialDigit: Int,
                samples: [Sample], isComplete: Bool) {
        self.presentationMode = presentationMode
        self.interStimulusInterval = interStimulusInterval
        self.stimulusDuration = stimulusDuration
        self.initialDigit = initialDigit
        self.samples = samples
        self.isComplete = isComplete
    }

    /// For each sample, whether its answer is its digit plus the digit before it.
    public var correct: [Bool] {
        var previous = initialDigit
        return samples.map { sample in
            defer { previous = sample.digit }
            return sample.answer == previous + sample.digit
        }
    }

    /// The samples as the JSON object stored in the step's result.
    public var tree: JSONTree {
        func number(_ value: Double) -> JSONTree { .number(PostedSamples.text(value)) }
        return .object([
            .init(key: "presentationMode", value: .string(presentationMode.rawValue)),
            .init(key: "interStimulusInterval", value: number(interStimulusInterval)),
            .init(key: "stimulusDuration", value: number(stimulusDuration)),
            .init(key: "length", value: .number(String(samples.count))),
            .init(key: "initialDigit", value: .number(String(initialDigit))),
            .init(key: "samples", value: .array(zip(samples, correct).map { sample, right in
                .object([.init(key: "digit", value: .number(String(sample.digit))), .init(key: "onset", value: number(sample.onset)),
                         .init(key: "answer", value: .number(String(sample.answer))), .init(key: "time", value: number(sample.time)),
                         .init(key: "correct", value: .bool(right))])
            })),
            .init(key: "complete", value: .bool(isComplete)),
        ])
    }
}

/// The summary measures of a PSAT step, each defined in the README ("Active tasks").
///
/// - `totalCorrect`: additions answered with the right sum.
/// - `totalDyad`: right answers that follow a right answer (at most one fewer than the additions).
/// - `accuracy`: `totalCorrect` as a percentage of the additions.
/// - `meanTime`: the mean time from a digit's onset to its right answer, in milliseconds; none without one.
///
/// A step stopped before the last digit has no measures.
public struct PSATSummary: Hashable, Sendable {
    public var totalCorrect: Int?
    public var totalDyad: Int?
    public var accuracy: Double?
    public var meanTime: Double?

    /// The measures of `samples`.
    public init(_ samples: PSATSamples) {
        guard samples.isComplete, !samples.samples.isEmpty else { return }
        let correct = samples.correct
        totalCorrect = correct.filter { $0 }.count
        totalDyad = zip(correct, correct.dropFirst()).filter { $0 && $1 }.count
        accuracy = 100 * Double(totalCorrect ?? 0) / Double(correct.count)
        let times = zip(samples.samples, correct).filter(\.1).map { 1_000 * $0.0.time }
        if !times.isEmpty { meanTime = times.reduce(0, +) / Double(times.count) }
    }

    /// The names of the measures, in the order results list them.
    public static let measureNames = ["totalCorrect", "totalDyad", "accuracy", "meanTime"]

    /// The measures in the order of ``measureNames``, with their units.
    public var measures: [(identifier: String, value: Double?, units: String?)] {
        [("totalCorrect", totalCorrect.map(Double.init), nil), ("totalDyad", totalDyad.map(Double.init), nil), ("accuracy", accuracy, "%"),
         ("meanTime", meanTime, "ms")]
    }
}
