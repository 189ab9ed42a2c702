import Foundation
import JSONDiagnostics
import Research

/// Runs hole peg steps: checks the geometry and every attempt (times in order and within the time limit, places on
/// the area, nothing after the last peg), works out each attempt's success, and computes ``HolePegSummary``.
public struct HolePegModule: ActiveModule {
    /// The module's name in active steps.
    public static let name = "holePeg"
    public var name: String { Self.name }
    public var measureNames: [String] { HolePegSummary.measureNames }

    /// Creates the module.
    public init() {}

    public func result(of step: Step, content: ActiveStepContent, posted: Data) throws(ActiveSamplesError) -> ActiveStepResult {
        let samples = try Self.samples(posted, content: content)
        return result(of: step, isComplete: samples.isComplete, samples: samples.tree, measures: HolePegSummary(samples, timeLimit: content.duration ?? 300).measures)
    }

    static func samples(_ posted: Data, content: ActiveStepContent) throws(ActiveSamplesError) -> HolePegSamples {
        let action = content.text("action") ?? "place", direction = content.text("direction") ?? "right"
        let pegs = Int(content.number("numberOfPegs") ?? 9), threshold = content.number("threshold") ?? 0.2
        let limit = content.duration ?? 300
        let targetKey = action == "place" ? "holeRect" : "lineX"
        let members = try PostedSamples.members(try PostedSamples.document(posted), "",
                                                known: ["stepViewSize", "pegSize", targetKey, "attempts", "timedOut", "complete"],
                                                required: ["stepViewSize", "pegSize", targetKey, "attempts", "timedOut", "complete"])
        let size = try PostedSamples.size(members["stepViewSize"], "stepViewSize")
        let pegSize = try PostedSamples.number(members["pegSize"], "pegSize", in: 10...min(size.width, size.height))
        let hole = action == "place" ? try PostedSamples.rect(members["holeRect"], "holeRect", in: size) : nil
        let line = action == "remove" ? try PostedSamples.number(members["lineX"], "lineX", in: 0...size.width) : nil
        let timedOut = try PostedSamples.bool(members["timedOut"], "timedOut")
        var samples = HolePegSamples(action: action, direction: direction, stepViewSize: size, pegSize: pegSize, holeRect: hole, lineX: line,
                                     threshold: threshold, attempts: [], timedOut: timedOut, isComplete: try PostedSamples.bool(members["complete"], "complete"))
        var successes = 0
        for (index, element) in try PostedSamples.array(members["attempts"], "attempts", limit: pegs * 50).enumerated() {
            let path = "attempts[\(index)]"
            if successes == pegs { throw ActiveSamplesError(path: path, message: "comes after the last peg, which ends the step") }
            let fields = try PostedSamples.members(element, path, known: ["start", "end", "from", "to"], required: ["start", "end", "from", "to"])
            let earliest = samples.attempts.last?.end ?? 0
            let first = samples.attempts.first?.start
            let start = try PostedSamples.number(fields["start"], "\(path).start", in: earliest...(first.map { $0 + limit + 1 } ?? earliest + 3_600))
            let end = try PostedSamples.number(fields["end"], "\(path).end", in: start...((first ?? start) + limit + 1))
            let attempt = HolePegSamples.Attempt(start: start, end: end, from: try PostedSamples.point(fields["from"], "\(path).from", in: size),
                                                 to: try PostedSamples.point(fields["to"], "\(path).to", in: size))
            if samples.succeeds(at: attempt.to) { successes += 1 }
            samples.attempts.append(attempt)
        }
        if samples.isComplete, !timedOut, successes != pegs {
            throw ActiveSamplesError(path: "attempts", message: "have \(successes) of the \(pegs) pegs, but the step says it ended with every peg done")
        }
        return samples
    }
}
