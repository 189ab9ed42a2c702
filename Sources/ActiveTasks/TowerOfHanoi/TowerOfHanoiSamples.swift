import JSONDiagnostics

/// What a Tower of Hanoi step recorded, with ResearchKit's names (`ORKTowerOfHanoiResult`): every legal move, its
/// `timestamp` in seconds from the first move (which is 0), its `donorTowerIndex` and `recipientTowerIndex` (0 to 2).
/// `firstMoveTime`, ours, is the first move's time from the frame that first showed the towers. Whether the puzzle
/// was solved (`puzzleWasSolved`) is worked out on the server by replaying the moves.
public struct TowerOfHanoiSamples: Hashable, Sendable {
    /// One move.
    public struct Move: Hashable, Sendable {
        public var timestamp: Double
        public var donorTowerIndex: Int
        public var recipientTowerIndex: Int
        /// Creates a move.
        public init(timestamp: Double, donorTowerIndex: Int, recipientTowerIndex: Int) {
            self.timestamp = timestamp
            self.donorTowerIndex = donorTowerIndex
            self.recipientTowerIndex = recipientTowerIndex
        }
    }

    /// The number of disks.
    public var numberOfDisks: Int
    /// Seconds from the towers' onset to the first move; nil without moves.
    public var firstMoveTime: Double?
    /// The moves, in order.
    public var moves: [Move]
    /// Whether the participant went on until the puzzle was solved, rather than stopping.
    public var isComplete: Bool

    /// Creates samples.
    public init(numberOfDisks: Int, firstMoveTime: Double?, moves: [Move], isComplete: Bool) {
        self.numberOfDisks = numberOfDisks
        self.firstMoveTime = firstMoveTime
        self.moves = moves
        self.isComplete = isComplete
    }

    /// Whether the moves leave every disk on the last tower.
    public var puzzleWasSolved: Bool {
        var towers = Self.start(numberOfDisks)
        for move in moves { _ = Self.apply(move, to: &towers) }
        return towers[2].count == numberOfDisks
    }

    /// The towers before the first move: every disk on the first, the largest (numbered `disks`) at the bottom.
    static func start(_ disks: Int) -> [[Int]] { [Array((1...disks).reversed()), [], []] }

    /// Makes `move` on `towers`; false, leaving them as they were, for an illegal move.
    static func apply(_ move: Move, to towers: inout [[Int]]) -> Bool {
        guard towers.indices.contains(move.donorTowerIndex), towers.indices.contains(move.recipientTowerIndex),
              move.donorTowerIndex != move.recipientTowerIndex, let disk = towers[move.donorTowerIndex].last,
              towers[move.recipientTowerIndex].last.map({ $0 > disk }) ?? true else { return false }
        towers[move.donorTowerIndex].removeLast()
        towers[move.recipientTowerIndex].append(disk)
        return true
    }

    /// The samples as the JSON object stored in the step's result.
    public var tree: JSONTree {
        .object([
            .init(key: "numberOfDisks", value: .number(String(numberOfDisks))),
            .init(key: "firstMoveTime", value: firstMoveTime.map { .number(PostedSamples.text($0)) } ?? .null),
            .init(key: "moves", value: .array(moves.map { move in
                .object([.init(key: "timestamp", value: .number(PostedSamples.text(move.timestamp))),
                         .init(key: "donorTowerIndex", value: .number(String(move.donorTowerIndex))),
                         .init(key: "recipientTowerIndex", value: .number(String(move.recipientTowerIndex)))])
            })),
            .init(key: "puzzleWasSolved", value: .bool(puzzleWasSolved)),
            .init(key: "complete", value: .bool(isComplete)),
        ])
    }
}

/// The summary measures of a Tower of Hanoi step, each defined in the README ("Active tasks").
///
/// - `numberOfMoves`: the legal moves made.
/// - `extraMoves`: moves beyond the fewest that solve the puzzle (2ⁿ − 1 for n disks).
/// - `totalTime`: seconds from the first move to the last.
///
/// A puzzle the participant stopped before solving it has no measures.
public struct TowerOfHanoiSummary: Hashable, Sendable {
    public var numberOfMoves: Int?
    public var extraMoves: Int?
    public var totalTime: Double?

    /// The measures of `samples`.
    public init(_ samples: TowerOfHanoiSamples) {
        guard samples.isComplete, samples.puzzleWasSolved else { return }
        numberOfMoves = samples.moves.count
        extraMoves = samples.moves.count - ((1 << samples.numberOfDisks) - 1)
        totalTime = samples.moves.last?.timestamp ?? 0
    }

    /// The names of the measures, in the order results list them.
    public static let measureNames = ["numberOfMoves", "extraMoves", "totalTime"]

    /// The measures in the order of ``measureNames``, with their units.
    public var measures: [(identifier: String, value: Double?, units: String?)] {
        [("numberOfMoves", numberOfMoves.map(Double.init), nil), ("extraMoves", extraMoves.map(Double.init), nil), ("totalTime", totalTime, "s")]
    }
}
