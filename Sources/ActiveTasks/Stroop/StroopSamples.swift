import JSONDiagnostics

/// What a Stroop step recorded, with ResearchKit's names (`ORKStroopResult`): per attempt the word (`text`), its ink
/// (`color`), the colour tapped (`colorSelected`), when the word first showed (`startTime`, the animation frame's
/// timestamp) and when the button was touched (`endTime`, the pointer event's own timeStamp), in seconds from the frame
/// that first showed the step.
public struct StroopSamples: Hashable, Sendable {
    /// The colours of the task, by the identifiers samples use.
    public static let colors = ["red", "green", "blue", "yellow"]

    /// One attempt.
    public struct Attempt: Hashable, Sendable {
        public var startTime: Double
        public var endTime: Double
        /// The colour the word names.
        public var text: String
        /// The colour the word is printed in.
        public var color: String
        /// The colour the participant tapped.
        public var colorSelected: String
        /// Whether the word names its own ink.
        public var isCongruent: Bool { text == color }
        /// Whether the participant tapped the ink's colour.
        public var isCorrect: Bool { colorSelected == color }

        /// Creates an attempt.
        public init(startTime: Double, endTime: Double, text: String, color: String, colorSelected: String) {
            self.startTime = startTime
            self.endTime = endTime
            self.text = text
            self.color = color
            self.colorSelected = colorSelected
        }
    }

    /// The attempts, in order.
    public var attempts: [Attempt]
    /// Whether every attempt was made.
    public var isComplete: Bool

    /// Creates samples.
    public init(attempts: [Attempt], isComplete: Bool) {
        self.attempts = attempts
        self.isComplete = isComplete
    }

    /// The samples as the JSON object stored in the step's result.
    public var tree: JSONTree {
        .object([
            .init(key: "attempts", value: .array(attempts.map { attempt in
                .object([.init(key: "startTime", value: .number(PostedSamples.text(attempt.startTime))),
                         .init(key: "endTime", value: .number(PostedSamples.text(attempt.endTime))),
                         .init(key: "text", value: .string(attempt.text)), .init(key: "color", value: .string(attempt.color)),
                         .init(key: "colorSelected", value: .string(attempt.colorSelected))])
            })),
            .init(key: "complete", value: .bool(isComplete)),
        ])
    }
}

/// The summary measures of a Stroop step, each defined in the README ("Active tasks").
///
/// - `correct`: attempts answered with the ink's colour; `accuracy`: their share of all attempts, in percent.
/// - `meanCongruentTime`, `meanIncongruentTime`: the mean time from the word's onset to the touch, in milliseconds, over
///   the correct attempts whose word names its own ink, and over those whose word names another; none without one.
/// - `interference`: `meanIncongruentTime` − `meanCongruentTime` (the Stroop effect); none unless both exist.
///
/// A step stopped before its last attempt has no measures.
public struct StroopSummary: Hashable, Sendable {
    public var correct: Int?
    public var accuracy: Double?
    public var meanCongruentTime: Double?
    public var meanIncongruentTime: Double?
    public var interference: Double?

    /// The measures of `samples`.
    public init(_ samples: StroopSamples) {
        guard samples.isComplete, !samples.attempts.isEmpty else { return }
        let right = samples.attempts.filter(\.isCorrect)
        correct = right.count
        accuracy = 100 * Double(right.count) / Double(samples.attempts.count)
        func mean(_ attempts: [StroopSamples.Attempt]) -> Double? {
            attempts.isEmpty ? nil : attempts.map { 1_000 * ($0.endTime - $0.startTime) }.reduce(0, +) / Double(attempts.count)
        }
        meanCongruentTime = mean(right.filter(\.isCongruent))
        meanIncongruentTime = mean(right.filter { !$0.isCongruent })
        if let congruent = meanCongruentTime, let incongruent = meanIncongruentTime { interference = incongruent - congruent }
    }

    /// The names of the measures, in the order results list them.
    public static let measureNames = ["correct", "accuracy", "meanCongruentTime", "meanIncongruentTime", "interference"]

    /// The measures in the order of ``measureNames``, with their units.
    public var measures: [(identifier: String, value: Double?, units: String?)] {
        let values: [(Double?, String?)] = [(correct.map(Double.init), nil), (accuracy, "%"), (meanCongruentTime, "ms"),
                                            (meanIncongruentTime, "ms"), (interference, "ms")]
        return zip(Self.measureNames, values).map { ($0, $1.0, $1.1) }
    }
}
