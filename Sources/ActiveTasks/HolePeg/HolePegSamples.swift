import JSONDiagnostics

/// What a hole peg step recorded: the area, the peg's width, the target (the hole for a place step, the line for a
/// remove step), and every attempt: when two fingers picked the peg up (`start`) and let it go (`end`), in seconds from
/// the frame that first showed the peg, from the pointer events' own timeStamps, and where its centre was then (`from`,
/// `to`). Whether each attempt succeeded is worked out on the server from where the peg was let go, as ResearchKit's
/// rules say: the centre within a square of `threshold` × the peg's width around the hole's centre, or the whole peg
/// past the line.
public struct HolePegSamples: Hashable, Sendable {
    /// One attempt: a pick-up and a release.
    public struct Attempt: Hashable, Sendable {
        public var start: Double
        public var end: Double
        public var from: TappingSamples.Point
        public var to: TappingSamples.Point
        /// Creates an attempt.
        public init(start: Double, end: Double, from: TappingSamples.Point, to: TappingSamples.Point) {
            self.start = start
            self.end = end
            self.from = from
            self.to = to
        }
        /// The straight distance the peg moved, in CSS pixels.
        public var distance: Double { ((to.x - from.x) * (to.x - from.x) + (to.y - from.y) * (to.y - from.y)).squareRoot() }
    }

    /// Whether the peg goes into a hole or out past a line.
    public var action: String
    /// Which way the peg moves: `right` from the left edge, `left` from the right edge.
    public var direction: String
    public var stepViewSize: TappingSamples.Size
    public var pegSize: Double
    /// The hole, for a place step.
    public var holeRect: TappingSamples.Rect?
    /// The line's horizontal position, for a remove step.
    public var lineX: Double?
    public var threshold: Double
    public var attempts: [Attempt]
    /// Whether the step ended because its time was up.
    public var timedOut: Bool
    /// Whether the step ran to its end (every peg done, or the time up).
    public var isComplete: Bool

    /// Creates samples.
    public init(action: String, direction: String, stepViewSize: TappingSamples.Size, pegSize: Double, holeRect: TappingSamples.Rect?, lineX: Double?,
                threshold: Double, attempts: [Attempt], timedOut: Bool, isComplete: Bool) {
        self.action = action
        self.direction = direction
        self.stepViewSize = stepViewSize
        self.pegSize = pegSize
        self.holeRect = holeRect
        self.lineX = lineX
        self.threshold = threshold
        self.attempts = attempts
        self.timedOut = timedOut
        self.isComplete = isComplete
    }

    /// Whether the peg let go at `point` (its centre) is where it had to go.
    public func succeeds(at point: TappingSamples.Point) -> Bool {
        if let hole = holeRect {
            let half = threshold * pegSize / 2
            return abs(point.x - (hole.x + hole.width / 2)) <= half && abs(point.y - (hole.y + hole.height / 2)) <= half
        }
        guard let line = lineX else { return false }
        return direction == "right" ? point.x - pegSize / 2 > line : point.x + pegSize / 2 < line
    }

    /// The samples as the JSON object stored in the step's result.
    public var tree: JSONTree {
        func number(_ value: Double) -> JSONTree { .number(PostedSamples.text(value)) }
        func point(_ p: TappingSamples.Point) -> JSONTree { .object([.init(key: "x", value: number(p.x)), .init(key: "y", value: number(p.y))]) }
        var members: [JSONTree.Member] = [
            .init(key: "action", value: .string(action)), .init(key: "direction", value: .string(direction)),
            .init(key: "stepViewSize", value: .object([.init(key: "width", value: number(stepViewSize.width)), .init(key: "height", value: number(stepViewSize.height))])),
            .init(key: "pegSize", value: number(pegSize)), .init(key: "threshold", value: number(threshold)),
        ]
        if let hole = holeRect {
            members.append(.init(key: "holeRect", value: .object([.init(key: "x", value: number(hole.x)), .init(key: "y", value: number(hole.y)),
                                                                  .init(key: "width", value: number(hole.width)), .init(key: "height", value: number(hole.height))])))
        }
        if let lineX { members.append(.init(key: "lineX", value: number(lineX))) }
        members.append(.init(key: "attempts", value: .array(attempts.map { attempt in
            .object([.init(key: "start", value: number(attempt.start)), .init(key: "end", value: number(attempt.end)),
                     .init(key: "from", value: point(attempt.from)), .init(key: "to", value: point(attempt.to)),
                     .init(key: "distance", value: number((attempt.distance * 1_000).rounded() / 1_000)), .init(key: "success", value: .bool(succeeds(at: attempt.to)))])
        })))
        members.append(.init(key: "timedOut", value: .bool(timedOut)))
        members.append(.init(key: "complete", value: .bool(isComplete)))
        return .object(members)
    }
}

/// The summary measures of a hole peg step, each defined in the README ("Active tasks").
///
/// - `totalSuccesses`, `totalFailures`: attempts that put the peg where it had to go, and those that did not.
/// - `totalTime`: seconds from the first pick-up to the release of the last peg, or to the end of the time.
/// - `meanPegTime`: `totalTime` / `totalSuccesses`; none without a success.
/// - `totalDistance`: the straight distances the successful pegs moved, in CSS pixels.
///
/// A step stopped before its end has no measures.
public struct HolePegSummary: Hashable, Sendable {
    public var totalSuccesses: Int?
    public var totalFailures: Int?
    public var totalTime: Double?
    public var meanPegTime: Double?
    public var totalDistance: Double?

    /// The measures of `samples`, whose time limit is `timeLimit` seconds.
    public init(_ samples: HolePegSamples, timeLimit: Double) {
        guard samples.isComplete else { return }
        let successes = samples.attempts.filter { samples.succeeds(at: $0.to) }
        totalSuccesses = successes.count
        totalFailures = samples.attempts.count - successes.count
        let first = samples.attempts.first?.start ?? 0
        totalTime = samples.timedOut ? timeLimit : (successes.last.map { $0.end - first } ?? 0)
        if !successes.isEmpty, let totalTime { meanPegTime = totalTime / Double(successes.count) }
        totalDistance = successes.map(\.distance).reduce(0, +)
    }

    /// The names of the measures, in the order results list them.
    public static let measureNames = ["totalSuccesses", "totalFailures", "totalTime", "meanPegTime", "totalDistance"]

    /// The measures in the order of ``measureNames``, with their units.
    public var measures: [(identifier: String, value: Double?, units: String?)] {
        [("totalSuccesses", totalSuccesses.map(Double.init), nil), ("totalFailures", totalFailures.map(Double.init), nil), ("totalTime", totalTime, "s"),
         ("meanPegTime", meanPegTime, "s"), ("totalDistance", totalDistance.map { ($0 * 1_000).rounded() / 1_000 }, "px")]
    }
}
