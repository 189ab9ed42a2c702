import Foundation
import JSONDiagnostics
import Research

/// Runs Stroop steps: checks every attempt the browser posts (colours, order of times) and computes ``StroopSummary``.
public struct StroopModule: ActiveModule {
    /// The module's name in active steps.
    public static let name = "stroop"
    public var name: String { Self.name }
    public var measureNames: [String] { StroopSummary.measureNames }

    /// Creates the module.
    public init() {}

    public func result(of step: Step, content: ActiveStepContent, posted: Data) throws(ActiveSamplesError) -> ActiveStepResult {
        let samples = try Self.samples(posted, content: content)
        return result(of: step, isComplete: samples.isComplete, samples: samples.tree, measures: StroopSummary(samples).measures)
    }

    static func samples(_ posted: Data, content: ActiveStepContent) throws(ActiveSamplesError) -> StroopSamples {
        let count = Int(content.number("attempts") ?? 15)
        let members = try PostedSamples.members(try PostedSamples.document(posted), "", known: ["attempts", "complete"], required: ["attempts", "complete"])
        var attempts: [StroopSamples.Attempt] = []
        for (index, element) in try PostedSamples.array(members["attempts"], "attempts", limit: count).enumerated() {
            let path = "attempts[\(index)]"
            let fields = try PostedSamples.members(element, path, known: ["startTime", "endTime", "text", "color", "colorSelected"],
                                                   required: ["startTime", "endTime", "text", "color", "colorSelected"])
            let earliest = attempts.last?.endTime ?? 0
            let start = try PostedSamples.number(fields["startTime"], "\(path).startTime", in: earliest...earliest + 3_600)
            let end = try PostedSamples.number(fields["endTime"], "\(path).endTime", in: start...start + 600)
            attempts.append(.init(startTime: start, endTime: end,
                                  text: try PostedSamples.choice(fields["text"], "\(path).text", among: StroopSamples.colors),
                                  color: try PostedSamples.choice(fields["color"], "\(path).color", among: StroopSamples.colors),
                                  colorSelected: try PostedSamples.choice(fields["colorSelected"], "\(path).colorSelected", among: StroopSamples.colors)))
        }
        let complete = try PostedSamples.bool(members["complete"], "complete")
        if complete, attempts.count != count {
            throw ActiveSamplesError(path: "attempts", message: "has \(attempts.count) attempts, but a complete step has \(count)")
        }
        return StroopSamples(attempts: attempts, isComplete: complete)
    }
}
