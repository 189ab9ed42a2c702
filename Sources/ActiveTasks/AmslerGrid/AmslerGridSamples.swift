import JSONDiagnostics

/// What an Amsler grid step recorded: the grid's side in CSS pixels, and the marks drawn on it as paths of points
/// (`x`, `y` from the grid's top left corner; `t`, seconds from the frame that first showed the grid, from each pointer
/// event's own timeStamp). ResearchKit keeps the same drawing as bezier paths, with a picture of it.
public struct AmslerGridSamples: Hashable, Sendable {
    /// One point of a mark.
    public struct Point: Hashable, Sendable {
        public var x: Double
        public var y: Double
        public var t: Double
        /// Creates a point.
        public init(x: Double, y: Double, t: Double) { self.x = x; self.y = y; self.t = t }
    }

    /// Which eye looked.
    public var eye: String
    /// The grid's side.
    public var gridSize: Double
    /// The marks, each from pointer down to pointer up.
    public var paths: [[Point]]
    /// Whether the participant pressed Done (a grid without marks is a complete answer: no distortion seen).
    public var isComplete: Bool

    /// Creates samples.
    public init(eye: String, gridSize: Double, paths: [[Point]], isComplete: Bool) {
        self.eye = eye
        self.gridSize = gridSize
        self.paths = paths
        self.isComplete = isComplete
    }

    /// The share of the grid the marks cover, in percent: the grid is divided into 100 × 100 cells, and a cell counts
    /// when a mark passes within 2 % of the grid's side of its centre (a finger's width on a phone).
    public var markedArea: Double {
        let cells = 100, reach = 0.02
        var covered = Set<Int>()
        for path in paths {
            // Points along each segment, a tenth of a cell apart, stand for the line between them.
            var points: [(Double, Double)] = []
            for (a, b) in zip(path, path.dropFirst()) {
                let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot() / gridSize
                let steps = max(1, Int((length * Double(cells) * 10).rounded(.up)))
                for step in 0...steps {
                    let f = Double(step) / Double(steps)
                    points.append(((a.x + (b.x - a.x) * f) / gridSize, (a.y + (b.y - a.y) * f) / gridSize))
                }
            }
            if path.count == 1, let only = path.first { points.append((only.x / gridSize, only.y / gridSize)) }
            for (x, y) in points {
                let low = { (v: Double) in max(0, Int(((v - reach) * Double(cells)).rounded(.down))) }
                let high = { (v: Double) in min(cells - 1, Int(((v + reach) * Double(cells)).rounded(.up))) }
                guard low(x) <= high(x), low(y) <= high(y) else { continue }
                for column in low(x)...high(x) {
                    for row in low(y)...high(y) {
                        let cx = (Double(column) + 0.5) / Double(cells), cy = (Double(row) + 0.5) / Double(cells)
                        if (cx - x) * (cx - x) + (cy - y) * (cy - y) <= reach * reach { covered.insert(row * cells + column) }
                    }
                }
            }
        }
        return 100 * Double(covered.count) / Double(cells * cells)
    }

    /// The samples as the JSON object stored in the step's result.
    public var tree: JSONTree {
        func number(_ value: Double) -> JSONTree { .number(PostedSamples.text(value)) }
        return .object([
            .init(key: "eyeSide", value: .string(eye)),
            .init(key: "gridSize", value: number(gridSize)),
            .init(key: "paths", value: .array(paths.map { path in
                .array(path.map { .object([.init(key: "x", value: number($0.x)), .init(key: "y", value: number($0.y)), .init(key: "t", value: number($0.t))]) })
            })),
            .init(key: "complete", value: .bool(isComplete)),
        ])
    }
}

/// The summary measures of an Amsler grid step, each defined in the README ("Active tasks").
///
/// - `markedArea`: ``AmslerGridSamples/markedArea``, in percent of the grid; 0 when nothing was marked.
/// - `markCount`: the marks drawn.
///
/// A step left without pressing Done has no measures.
public struct AmslerGridSummary: Hashable, Sendable {
    public var markedArea: Double?
    public var markCount: Int?

    /// The measures of `samples`.
    public init(_ samples: AmslerGridSamples) {
        guard samples.isComplete else { return }
        markedArea = samples.markedArea
        markCount = samples.paths.count
    }

    /// The names of the measures, in the order results list them.
    public static let measureNames = ["markedArea", "markCount"]

    /// The measures in the order of ``measureNames``, with their units.
    public var measures: [(identifier: String, value: Double?, units: String?)] {
        [("markedArea", markedArea, "%"), ("markCount", markCount.map(Double.init), nil)]
    }
}
