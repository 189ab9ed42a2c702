import Foundation
import JSONDiagnostics
import Research

/// Runs Amsler grid steps: checks every mark's points (on the grid, in time order), and computes ``AmslerGridSummary``.
public struct AmslerGridModule: ActiveModule {
    /// The module's name in active steps.
    public static let name = "amslerGrid"
    public var name: String { Self.name }
    public var measureNames: [String] { AmslerGridSummary.measureNames }

    /// The most points of all marks together.
    static let pointLimit = 20_000

    /// Creates the module.
    public init() {}

    public func result(of step: Step, content: ActiveStepContent, posted: Data) throws(ActiveSamplesError) -> ActiveStepResult {
        let samples = try Self.samples(posted, content: content)
        return result(of: step, isComplete: samples.isComplete, samples: samples.tree, measures: AmslerGridSummary(samples).measures)
    }

    static func samples(_ posted: Data, content: ActiveStepContent) throws(ActiveSamplesError) -> AmslerGridSamples {
        let members = try PostedSamples.members(try PostedSamples.document(posted), "", known: ["gridSize", "paths", "complete"], required: ["gridSize", "paths", "complete"])
        let side = try PostedSamples.number(members["gridSize"], "gridSize", in: 50...20_000)
        var paths: [[AmslerGridSamples.Point]] = []
        var count = 0, lastTime = 0.0
        for (index, element) in try PostedSamples.array(members["paths"], "paths", limit: 500).enumerated() {
            var path: [AmslerGridSamples.Point] = []
            for (position, point) in try PostedSamples.array(element, "paths[\(index)]", limit: pointLimit).enumerated() {
                let at = "paths[\(index)][\(position)]"
                count += 1
                if count > pointLimit { throw ActiveSamplesError(path: at, message: "is one point too many: marks may have \(pointLimit) points in all") }
                let fields = try PostedSamples.members(point, at, known: ["x", "y", "t"], required: ["x", "y", "t"])
                let t = try PostedSamples.number(fields["t"], "\(at).t", in: lastTime...lastTime + 3_600)
                path.append(.init(x: try PostedSamples.number(fields["x"], "\(at).x", in: -PostedSamples.tolerance...side + PostedSamples.tolerance),
                                  y: try PostedSamples.number(fields["y"], "\(at).y", in: -PostedSamples.tolerance...side + PostedSamples.tolerance), t: t))
                lastTime = t
            }
            if path.isEmpty { throw ActiveSamplesError(path: "paths[\(index)]", message: "is a mark without points") }
            paths.append(path)
        }
        return AmslerGridSamples(eye: content.text("eye") ?? "left", gridSize: side, paths: paths,
                                 isComplete: try PostedSamples.bool(members["complete"], "complete"))
    }
}
