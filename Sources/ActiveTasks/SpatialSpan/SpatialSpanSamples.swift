import JSONDiagnostics

/// What a spatial span step recorded, with ResearchKit's names (`ORKSpatialSpanMemoryResult`): the targets' rectangles
/// and one game record per game, each with its `sequence` of target indices and its `touchSamples` (`timestamp` in
/// seconds from the frame that first showed the board, from the pointer event's own timeStamp; `targetIndex`, −1 for a
/// touch beside every target; `location`). Whether a touch was `correct` and how a game ended (`gameStatus`) are worked
/// out on the server.
public struct SpatialSpanSamples: Hashable, Sendable {
    /// How a game ended.
    public enum GameStatus: String, Hashable, Sendable {
        /// Every target tapped in order.
        case success
        /// A wrong touch.
        case failure
        /// The participant stopped touching before the sequence was done (the step ended).
        case incomplete
    }

    /// One touch during a game.
    public struct Touch: Hashable, Sendable {
        public var timestamp: Double
        public var targetIndex: Int
        public var location: TappingSamples.Point
        /// Creates a touch.
        public init(timestamp: Double, targetIndex: Int, location: TappingSamples.Point) {
            self.timestamp = timestamp
            self.targetIndex = targetIndex
            self.location = location
        }
    }

    /// One game.
    public struct Game: Hashable, Sendable {
        /// The targets lit, in the order shown.
        public var sequence: [Int]
        /// The touches after the sequence played.
        public var touchSamples: [Touch]
        /// Creates a game.
        public init(sequence: [Int], touchSamples: [Touch]) {
            self.sequence = sequence
            self.touchSamples = touchSamples
        }
    }

    /// The size of the board.
    public var stepViewSize: TappingSamples.Size
    /// The targets, by index.
    public var targetRects: [TappingSamples.Rect]
    /// The games, in order.
    public var gameRecords: [Game]
    /// Whether the test ran until its rules ended it.
    public var isComplete: Bool
    /// Whether the sequences were tapped in reverse.
    public var requireReversal: Bool

    /// Creates samples.
    public init(stepViewSize: TappingSamples.Size, targetRects: [TappingSamples.Rect], gameRecords: [Game], isComplete: Bool, requireReversal: Bool) {
        self.stepViewSize = stepViewSize
        self.targetRects = targetRects
        self.gameRecords = gameRecords
        self.isComplete = isComplete
        self.requireReversal = requireReversal
    }

    /// The order in which `game`'s targets must be tapped.
    public func expected(_ game: Game) -> [Int] { requireReversal ? game.sequence.reversed() : game.sequence }

    /// Whether each of `game`'s touches was the target expected at its place.
    public func correctness(_ game: Game) -> [Bool] {
        let expected = expected(game)
        return game.touchSamples.enumerated().map { index, touch in index < expected.count && touch.targetIndex == expected[index] }
    }

    /// How `game` ended.
    public func status(_ game: Game) -> GameStatus {
        let correct = correctness(game)
        if correct.contains(false) { return .failure }
        return correct.count == game.sequence.count ? .success : .incomplete
    }

    /// The samples as the JSON object stored in the step's result.
    public var tree: JSONTree {
        func number(_ value: Double) -> JSONTree { .number(PostedSamples.text(value)) }
        return .object([
            .init(key: "stepViewSize", value: .object([.init(key: "width", value: number(stepViewSize.width)), .init(key: "height", value: number(stepViewSize.height))])),
            .init(key: "targetRects", value: .array(targetRects.map { r in
                .object([.init(key: "x", value: number(r.x)), .init(key: "y", value: number(r.y)), .init(key: "width", value: number(r.width)),
                         .init(key: "height", value: number(r.height))])
            })),
            .init(key: "gameRecords", value: .array(gameRecords.map { game in
                .object([
                    .init(key: "sequence", value: .array(game.sequence.map { .number(String($0)) })),
                    .init(key: "gameSize", value: .number(String(game.sequence.count))),
                    .init(key: "gameStatus", value: .string(status(game).rawValue)),
                    .init(key: "touchSamples", value: .array(zip(game.touchSamples, correctness(game)).map { touch, correct in
                        .object([.init(key: "timestamp", value: number(touch.timestamp)), .init(key: "targetIndex", value: .number(String(touch.targetIndex))),
                                 .init(key: "location", value: .object([.init(key: "x", value: number(touch.location.x)), .init(key: "y", value: number(touch.location.y))])),
                                 .init(key: "correct", value: .bool(correct))])
                    })),
                ])
            })),
            .init(key: "requireReversal", value: .bool(requireReversal)),
            .init(key: "complete", value: .bool(isComplete)),
        ])
    }
}

/// The summary measures of a spatial span step, each defined in the README ("Active tasks").
///
/// - `score`: the sum of the spans of the games won.
/// - `maximumSpan`: the longest span won; none when no game was won.
/// - `numberOfGames`, `numberOfFailures`: the games played, and those lost.
///
/// A step stopped before its rules ended it has no measures.
public struct SpatialSpanSummary: Hashable, Sendable {
    public var score: Int?
    public var maximumSpan: Int?
    public var numberOfGames: Int?
    public var numberOfFailures: Int?

    /// The measures of `samples`.
    public init(_ samples: SpatialSpanSamples) {
        guard samples.isComplete else { return }
        let won = samples.gameRecords.filter { samples.status($0) == .success }
        score = won.map(\.sequence.count).reduce(0, +)
        maximumSpan = won.map(\.sequence.count).max()
        numberOfGames = samples.gameRecords.count
        numberOfFailures = samples.gameRecords.count - won.count
    }

    /// The names of the measures, in the order results list them.
    public static let measureNames = ["score", "maximumSpan", "numberOfGames", "numberOfFailures"]

    /// The measures in the order of ``measureNames``.
    public var measures: [(identifier: String, value: Double?, units: String?)] {
        zip(Self.measureNames, [score, maximumSpan, numberOfGames, numberOfFailures]).map { ($0, $1.map(Double.init), nil) }
    }
}
