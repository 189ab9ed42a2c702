import JSONDiagnostics

/// What a trail making step recorded, with ResearchKit's names (`ORKTrailmakingResult`): the circles' rectangles in
/// label order, and every tap on a circle (`timestamp` in seconds from the frame that first showed the circles, from
/// the pointer event's own timeStamp; `index`, the circle's place in label order; `location`). Whether a tap was
/// `incorrect` is worked out on the server: any circle but the next one.
public struct TrailMakingSamples: Hashable, Sendable {
    /// One tap on a circle.
    public struct Tap: Hashable, Sendable {
        public var timestamp: Double
        public var index: Int
        public var location: TappingSamples.Point
        /// Creates a tap.
        public init(timestamp: Double, index: Int, location: TappingSamples.Point) {
            self.timestamp = timestamp
            self.index = index
            self.location = location
        }
    }

    /// The part of the test.
    public var trailType: TrailMakingTask.TrailType
    /// The size of the area.
    public var stepViewSize: TappingSamples.Size
    /// The circles, in label order.
    public var circleRects: [TappingSamples.Rect]
    /// The taps, in order.
    public var taps: [Tap]
    /// Whether the trail was finished.
    public var isComplete: Bool

    /// Creates samples.
    public init(trailType: TrailMakingTask.TrailType, stepViewSize: TappingSamples.Size, circleRects: [TappingSamples.Rect], taps: [Tap], isComplete: Bool) {
        self.trailType = trailType
        self.stepViewSize = stepViewSize
        self.circleRects = circleRects
        self.taps = taps
        self.isComplete = isComplete
    }

    /// For each tap, whether it was on another circle than the next one of the trail.
    public var incorrect: [Bool] {
        var next = 0
        return taps.map { tap in
            guard tap.index == next else { return true }
            next += 1
            return false
        }
    }

    /// The samples as the JSON object stored in the step's result.
    public var tree: JSONTree {
        func number(_ value: Double) -> JSONTree { .number(PostedSamples.text(value)) }
        return .object([
            .init(key: "trailType", value: .string(trailType.rawValue)),
            .init(key: "stepViewSize", value: .object([.init(key: "width", value: number(stepViewSize.width)), .init(key: "height", value: number(stepViewSize.height))])),
            .init(key: "circleRects", value: .array(circleRects.map { r in
                .object([.init(key: "x", value: number(r.x)), .init(key: "y", value: number(r.y)), .init(key: "width", value: number(r.width)),
                         .init(key: "height", value: number(r.height))])
            })),
            .init(key: "taps", value: .array(zip(taps, incorrect).map { tap, wrong in
                .object([.init(key: "timestamp", value: number(tap.timestamp)), .init(key: "index", value: .number(String(tap.index))),
                         .init(key: "location", value: .object([.init(key: "x", value: number(tap.location.x)), .init(key: "y", value: number(tap.location.y))])),
                         .init(key: "incorrect", value: .bool(wrong))])
            })),
            .init(key: "complete", value: .bool(isComplete)),
        ])
    }
}

/// The summary measures of a trail making step, each defined in the README ("Active tasks").
///
/// - `totalTime`: seconds from the frame that first showed the circles to the tap on the last one.
/// - `numberOfErrors`: taps on another circle than the next one.
///
/// A trail left unfinished has no measures.
public struct TrailMakingSummary: Hashable, Sendable {
    public var totalTime: Double?
    public var numberOfErrors: Int?

    /// The measures of `samples`.
    public init(_ samples: TrailMakingSamples) {
        guard samples.isComplete else { return }
        numberOfErrors = samples.incorrect.filter { $0 }.count
        totalTime = samples.taps.last?.timestamp
    }

    /// The names of the measures, in the order results list them.
    public static let measureNames = ["totalTime", "numberOfErrors"]

    /// The measures in the order of ``measureNames``, with their units.
    public var measures: [(identifier: String, value: Double?, units: String?)] {
        [("totalTime", totalTime, "s"), ("numberOfErrors", numberOfErrors.map(Double.init), nil)]
    }
}
