import Foundation
import JSONDiagnostics
import Research

/// Runs trail making steps: checks the circles and every tap (order of times, the circle each names against where it
/// landed, nothing after the trail's end), works out which taps were wrong, and computes ``TrailMakingSummary``.
public struct TrailMakingModule: ActiveModule {
    /// The module's name in active steps.
    public static let name = "trailMaking"
    public var name: String { Self.name }
    public var measureNames: [String] { TrailMakingSummary.measureNames }

    /// Creates the module.
    public init() {}

    public func result(of step: Step, content: ActiveStepContent, posted: Data) throws(ActiveSamplesError) -> ActiveStepResult {
        let samples = try Self.samples(posted, content: content)
        return result(of: step, isComplete: samples.isComplete, samples: samples.tree, measures: TrailMakingSummary(samples).measures)
    }

    /// The most taps a trail may record: every circle, with up to ten wrong taps each.
    static let tapLimit = TrailMakingTask.circleCount * 11

    static func samples(_ posted: Data, content: ActiveStepContent) throws(ActiveSamplesError) -> TrailMakingSamples {
        let trailType = TrailMakingTask.TrailType(rawValue: content.text("trailType") ?? "A") ?? .a
        let members = try PostedSamples.members(try PostedSamples.document(posted), "", known: ["stepViewSize", "circleRects", "taps", "complete"],
                                                required: ["stepViewSize", "circleRects", "taps", "complete"])
        let size = try PostedSamples.size(members["stepViewSize"], "stepViewSize")
        let rectElements = try PostedSamples.array(members["circleRects"], "circleRects", limit: TrailMakingTask.circleCount)
        guard rectElements.count == TrailMakingTask.circleCount else {
            throw ActiveSamplesError(path: "circleRects", message: "has \(rectElements.count) circles; the trail has \(TrailMakingTask.circleCount)")
        }
        var rects: [TappingSamples.Rect] = []
        for (index, element) in rectElements.enumerated() { rects.append(try PostedSamples.rect(element, "circleRects[\(index)]", in: size)) }
        var samples = TrailMakingSamples(trailType: trailType, stepViewSize: size, circleRects: rects, taps: [],
                                         isComplete: try PostedSamples.bool(members["complete"], "complete"))
        var next = 0
        for (position, element) in try PostedSamples.array(members["taps"], "taps", limit: tapLimit).enumerated() {
            let path = "taps[\(position)]"
            if next == TrailMakingTask.circleCount {
                throw ActiveSamplesError(path: path, message: "comes after the last circle, which ends the trail")
            }
            let fields = try PostedSamples.members(element, path, known: ["timestamp", "index", "location"], required: ["timestamp", "index", "location"])
            let earliest = samples.taps.last?.timestamp ?? 0
            let timestamp = try PostedSamples.number(fields["timestamp"], "\(path).timestamp", in: earliest...earliest + 3_600)
            guard let index = fields["index"]?.integerValue, rects.indices.contains(index) else {
                throw ActiveSamplesError(path: "\(path).index", message: "must be a circle's index, 0 to \(TrailMakingTask.circleCount - 1)")
            }
            let location = try PostedSamples.point(fields["location"], "\(path).location", in: size)
            guard rects[index].contains(location, tolerance: PostedSamples.tolerance) else {
                throw ActiveSamplesError(path: "\(path).location", message: "(\(PostedSamples.text(location.x)), \(PostedSamples.text(location.y))) is not on circle \(index)")
            }
            if index == next { next += 1 }
            samples.taps.append(.init(timestamp: timestamp, index: index, location: location))
        }
        if samples.isComplete, next != TrailMakingTask.circleCount {
            throw ActiveSamplesError(path: "taps", message: "reaches circle \(next) of \(TrailMakingTask.circleCount), but the step says the trail was finished")
        }
        return samples
    }
}
