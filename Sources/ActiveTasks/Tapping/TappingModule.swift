import Foundation
import JSONDiagnostics
import Research

/// Runs tapping steps: two buttons tapped in turn with two fingers (ResearchKit's two-finger tapping interval), or one
/// button tapped as fast as possible (tapping speed).
///
/// Settings: `targets` (1 or 2), `hand` (`left` or `right`); the step's duration is how long tapping goes on after the
/// first touch on a button. The browser posts ``TappingSamples`` as JSON; every sample is checked here (order, ranges,
/// and that each touch's button is the one its location falls in), and ``TappingSummary`` computes the measures.
public struct TappingModule: ActiveModule {
    /// The module's name in active steps.
    public static let name = "tapping"
    public var name: String { Self.name }
    public var measureNames: [String] { TappingSummary.measureNames }
    /// The most touches a second a step may record: well beyond the fastest human tapping (about 12 a second).
    static let touchesPerSecond = 40.0
    /// Pixels a touch may lie outside a button, for rounding of positions.
    static let tolerance = PostedSamples.tolerance

    /// Creates the module.
    public init() {}

    public func result(of step: Step, content: ActiveStepContent, posted: Data) throws(ActiveSamplesError) -> ActiveStepResult {
        let samples = try Self.samples(posted, content: content)
        return result(of: step, isComplete: samples.isComplete, samples: samples.tree, measures: TappingSummary(samples).measures)
    }

    /// The posted samples of a step with `content`, checked.
    static func samples(_ posted: Data, content: ActiveStepContent) throws(ActiveSamplesError) -> TappingSamples {
        let targets = Int(content.number("targets") ?? 2)
        let duration = content.duration ?? 20
        let document = try PostedSamples.document(posted)
        let members = try PostedSamples.members(document, "", known: ["stepViewSize", "buttonRect1", "buttonRect2", "samples", "complete"],
                                                required: targets == 2 ? ["stepViewSize", "buttonRect1", "buttonRect2", "samples", "complete"]
                                                                       : ["stepViewSize", "buttonRect1", "samples", "complete"])
        if targets == 1, members["buttonRect2"] != nil {
            throw ActiveSamplesError(path: "buttonRect2", message: "this step has one button; a second one cannot have been shown")
        }
        let size = try PostedSamples.size(members["stepViewSize"], "stepViewSize")
        let first = try PostedSamples.rect(members["buttonRect1"], "buttonRect1", in: size)
        let second = targets == 2 ? try PostedSamples.rect(members["buttonRect2"], "buttonRect2", in: size) : nil
        let limit = Int(duration * touchesPerSecond) + 20
        var samples: [TappingSamples.Sample] = []
        var firstTap: Double?
        for (index, element) in try PostedSamples.array(members["samples"], "samples", limit: limit).enumerated() {
            let path = "samples[\(index)]"
            let fields = try PostedSamples.members(element, path, known: ["timestamp", "duration", "buttonIdentifier", "location"],
                                                   required: ["timestamp", "duration", "buttonIdentifier", "location"])
            let timestamp = try PostedSamples.number(fields["timestamp"], "\(path).timestamp", in: 0...3_600)
            if let previous = samples.last, timestamp < previous.timestamp {
                throw ActiveSamplesError(path: "\(path).timestamp", message: "must not be before the sample before it (\(timestamp) < \(previous.timestamp))")
            }
            if let firstTap, timestamp > firstTap + duration + 1 {
                throw ActiveSamplesError(path: "\(path).timestamp", message: "is \(PostedSamples.text(timestamp - firstTap)) s after the first tap; the step taps for \(PostedSamples.text(duration)) s")
            }
            let touchDuration = try PostedSamples.number(fields["duration"], "\(path).duration", in: 0...(duration + 60))
            let buttons = targets == 2 ? ["none", "left", "right"] : ["none", "left"]
            let button = TappingSamples.Button(rawValue: try PostedSamples.choice(fields["buttonIdentifier"], "\(path).buttonIdentifier", among: buttons)) ?? .none
            let location = try PostedSamples.point(fields["location"], "\(path).location", in: size)
            let hit: TappingSamples.Button = first.contains(location) ? .left : (second?.contains(location) == true ? .right : .none)
            let near: TappingSamples.Button = first.contains(location, tolerance: tolerance) ? .left
                : (second?.contains(location, tolerance: tolerance) == true ? .right : .none)
            guard button == hit || button == near else {
                throw ActiveSamplesError(path: "\(path).buttonIdentifier", message: "is '\(button.rawValue)', but the touch at (\(PostedSamples.text(location.x)), \(PostedSamples.text(location.y))) is on '\(hit.rawValue)'")
            }
            if button != .none, firstTap == nil { firstTap = timestamp }
            samples.append(TappingSamples.Sample(timestamp: timestamp, duration: touchDuration, buttonIdentifier: button, location: location))
        }
        return TappingSamples(stepViewSize: size, buttonRect1: first, buttonRect2: second, samples: samples,
                              isComplete: try PostedSamples.bool(members["complete"], "complete"))
    }
}
