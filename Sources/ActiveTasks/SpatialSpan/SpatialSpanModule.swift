import Foundation
import JSONDiagnostics
import Research

/// Runs spatial span steps: replays the test's rules over the posted games (each game's span follows from the ones
/// before it; the test ends where its rules end it), checks every touch against the target it names, works out each
/// game's status, and computes ``SpatialSpanSummary``.
public struct SpatialSpanModule: ActiveModule {
    /// The module's name in active steps.
    public static let name = "spatialSpan"
    public var name: String { Self.name }
    public var measureNames: [String] { SpatialSpanSummary.measureNames }

    /// Creates the module.
    public init() {}

    public func result(of step: Step, content: ActiveStepContent, posted: Data) throws(ActiveSamplesError) -> ActiveStepResult {
        let samples = try Self.samples(posted, content: content)
        return result(of: step, isComplete: samples.isComplete, samples: samples.tree, measures: SpatialSpanSummary(samples).measures)
    }

    static func samples(_ posted: Data, content: ActiveStepContent) throws(ActiveSamplesError) -> SpatialSpanSamples {
        let rules = SpatialSpanTask.settings(of: content)
        let members = try PostedSamples.members(try PostedSamples.document(posted), "", known: ["stepViewSize", "targetRects", "gameRecords", "complete"],
                                                required: ["stepViewSize", "targetRects", "gameRecords", "complete"])
        let size = try PostedSamples.size(members["stepViewSize"], "stepViewSize")
        let rectElements = try PostedSamples.array(members["targetRects"], "targetRects", limit: SpatialSpanTask.targetCount)
        guard rectElements.count == SpatialSpanTask.targetCount else {
            throw ActiveSamplesError(path: "targetRects", message: "has \(rectElements.count) targets; the board has \(SpatialSpanTask.targetCount)")
        }
        var rects: [TappingSamples.Rect] = []
        for (index, element) in rectElements.enumerated() { rects.append(try PostedSamples.rect(element, "targetRects[\(index)]", in: size)) }
        let complete = try PostedSamples.bool(members["complete"], "complete")
        var samples = SpatialSpanSamples(stepViewSize: size, targetRects: rects, gameRecords: [], isComplete: complete,
                                         requireReversal: rules.requireReversal)
        var span = rules.initialSpan, failuresInARow = 0, lastTime = 0.0
        let games = try PostedSamples.array(members["gameRecords"], "gameRecords", limit: rules.maximumTests)
        for (index, element) in games.enumerated() {
            let path = "gameRecords[\(index)]"
            if failuresInARow >= rules.maximumConsecutiveFailures {
                throw ActiveSamplesError(path: path, message: "comes after \(failuresInARow) failures in a row, which end the test")
            }
            let fields = try PostedSamples.members(element, path, known: ["sequence", "touchSamples"], required: ["sequence", "touchSamples"])
            let sequenceElements = try PostedSamples.array(fields["sequence"], "\(path).sequence", limit: SpatialSpanTask.targetCount)
            guard sequenceElements.count == span else {
                throw ActiveSamplesError(path: "\(path).sequence", message: "has \(sequenceElements.count) targets, but this game's span is \(span)")
            }
            var sequence: [Int] = []
            for (position, value) in sequenceElements.enumerated() {
                let target = Int(try PostedSamples.number(value, "\(path).sequence[\(position)]", in: 0...Double(SpatialSpanTask.targetCount - 1)))
                guard value.integerValue != nil, !sequence.contains(target) else {
                    throw ActiveSamplesError(path: "\(path).sequence[\(position)]", message: "must be a target index (0–8) not already in the sequence")
                }
                sequence.append(target)
            }
            var touches: [SpatialSpanSamples.Touch] = []
            for (position, touch) in try PostedSamples.array(fields["touchSamples"], "\(path).touchSamples", limit: span).enumerated() {
                let touchPath = "\(path).touchSamples[\(position)]"
                let touchFields = try PostedSamples.members(touch, touchPath, known: ["timestamp", "targetIndex", "location"], required: ["timestamp", "targetIndex", "location"])
                let timestamp = try PostedSamples.number(touchFields["timestamp"], "\(touchPath).timestamp", in: lastTime...lastTime + 3_600)
                let target = try PostedSamples.number(touchFields["targetIndex"], "\(touchPath).targetIndex", in: -1...Double(SpatialSpanTask.targetCount - 1))
                guard touchFields["targetIndex"]?.integerValue != nil else {
                    throw ActiveSamplesError(path: "\(touchPath).targetIndex", message: "must be a whole number")
                }
                let location = try PostedSamples.point(touchFields["location"], "\(touchPath).location", in: size)
                let hit = rects.firstIndex { $0.contains(location) } ?? -1
                let near = rects.firstIndex { $0.contains(location, tolerance: PostedSamples.tolerance) } ?? -1
                guard Int(target) == hit || Int(target) == near else {
                    throw ActiveSamplesError(path: "\(touchPath).targetIndex", message: "is \(Int(target)), but the touch at (\(PostedSamples.text(location.x)), \(PostedSamples.text(location.y))) is on \(hit)")
                }
                lastTime = timestamp
                touches.append(.init(timestamp: timestamp, targetIndex: Int(target), location: location))
            }
            let game = SpatialSpanSamples.Game(sequence: sequence, touchSamples: touches)
            let status = samples.status(game)
            if status == .failure, let wrong = samples.correctness(game).firstIndex(of: false), wrong < touches.count - 1 {
                throw ActiveSamplesError(path: "\(path).touchSamples[\(wrong + 1)]", message: "follows a wrong touch, which ends the game")
            }
            if status == .incomplete, index < games.count - 1 || complete {
                throw ActiveSamplesError(path: "\(path).touchSamples", message: "has \(touches.count) of the \(span) touches; only a test stopped early may end with a game unfinished")
            }
            samples.gameRecords.append(game)
            if status == .success {
                span = min(span + 1, rules.maximumSpan)
                failuresInARow = 0
            } else {
                span = max(span - 1, rules.minimumSpan)
                failuresInARow += 1
            }
        }
        if complete, samples.gameRecords.count < rules.maximumTests, failuresInARow < rules.maximumConsecutiveFailures {
            throw ActiveSamplesError(path: "gameRecords", message: "has \(samples.gameRecords.count) games, but the test goes on until \(rules.maximumTests) games or \(rules.maximumConsecutiveFailures) failures in a row")
        }
        return samples
    }
}
