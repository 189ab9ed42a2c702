import Foundation
import JSONDiagnostics

/// What a tapping step recorded, with ResearchKit's field names (`ORKTappingIntervalResult`): every touch as a
/// sample, the size of the area the buttons were in, and the buttons' rectangles.
///
/// Times are in seconds and positions in CSS pixels of the tapping area, whose top left corner is (0, 0). A sample's
/// `timestamp` is when the touch began, counted from the animation frame that first showed the buttons, taken from
/// the input event's own time stamp (not from when a script ran); its `duration` is how long the finger, pen or
/// mouse button stayed down.
public struct TappingSamples: Hashable, Sendable {
    /// Which button a touch landed on.
    public enum Button: String, Hashable, Sendable, CaseIterable {
        /// Neither: a touch beside the buttons, kept as an off-target tap.
        case none
        /// The left button (`buttonRect1`), or the only one of a single-target step.
        case left
        /// The right button (`buttonRect2`).
        case right
    }

    /// A point in the tapping area.
    public struct Point: Hashable, Sendable {
        public var x: Double
        public var y: Double
        /// Creates a point.
        public init(x: Double, y: Double) { self.x = x; self.y = y }
    }

    /// The size of the tapping area.
    public struct Size: Hashable, Sendable {
        public var width: Double
        public var height: Double
        /// Creates a size.
        public init(width: Double, height: Double) { self.width = width; self.height = height }
    }

    /// A rectangle in the tapping area.
    public struct Rect: Hashable, Sendable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
        /// Creates a rectangle.
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
        /// Whether `point` lies in the rectangle, edges included, allowing `tolerance` pixels of rounding.
        public func contains(_ point: Point, tolerance: Double = 0) -> Bool {
            point.x >= x - tolerance && point.x <= x + width + tolerance && point.y >= y - tolerance && point.y <= y + height + tolerance
        }
    }

    /// One touch.
    public struct Sample: Hashable, Sendable {
        /// Seconds from the first frame that showed the buttons to the touch's start.
        public var timestamp: Double
        /// Seconds the touch lasted.
        public var duration: Double
        /// The button touched, or `none`.
        public var buttonIdentifier: Button
        /// Where the touch began.
        public var location: Point
        /// Creates a sample.
        public init(timestamp: Double, duration: Double, buttonIdentifier: Button, location: Point) {
            self.timestamp = timestamp
            self.duration = duration
            self.buttonIdentifier = buttonIdentifier
            self.location = location
        }
    }

    /// The size of the tapping area.
    public var stepViewSize: Size
    /// The left (or only) button.
    public var buttonRect1: Rect
    /// The right button; nil on a single-target step.
    public var buttonRect2: Rect?
    /// Every touch, in order.
    public var samples: [Sample]
    /// Whether the step ran for its whole duration.
    public var isComplete: Bool

    /// Creates samples; see the properties.
    public init(stepViewSize: Size, buttonRect1: Rect, buttonRect2: Rect?, samples: [Sample], isComplete: Bool) {
        self.stepViewSize = stepViewSize
        self.buttonRect1 = buttonRect1
        self.buttonRect2 = buttonRect2
        self.samples = samples
        self.isComplete = isComplete
    }

    /// The samples as the JSON object stored in the step's result.
    public var tree: JSONTree {
        func number(_ value: Double) -> JSONTree { .number(PostedSamples.text(value)) }
        func rect(_ r: Rect) -> JSONTree {
            .object([.init(key: "x", value: number(r.x)), .init(key: "y", value: number(r.y)),
                     .init(key: "width", value: number(r.width)), .init(key: "height", value: number(r.height))])
        }
        var members: [JSONTree.Member] = [
            .init(key: "stepViewSize", value: .object([.init(key: "width", value: number(stepViewSize.width)),
                                                       .init(key: "height", value: number(stepViewSize.height))])),
            .init(key: "buttonRect1", value: rect(buttonRect1)),
        ]
        if let buttonRect2 { members.append(.init(key: "buttonRect2", value: rect(buttonRect2))) }
        members.append(.init(key: "samples", value: .array(samples.map { sample in
            .object([.init(key: "timestamp", value: number(sample.timestamp)), .init(key: "duration", value: number(sample.duration)),
                     .init(key: "buttonIdentifier", value: .string(sample.buttonIdentifier.rawValue)),
                     .init(key: "location", value: .object([.init(key: "x", value: number(sample.location.x)),
                                                           .init(key: "y", value: number(sample.location.y))]))])
        })))
        members.append(.init(key: "complete", value: .bool(isComplete)))
        return .object(members)
    }
}
