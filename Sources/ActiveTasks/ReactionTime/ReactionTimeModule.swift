import Foundation
import JSONDiagnostics
import Research

/// Runs normalized reaction time steps: checks every trial the browser posts against the step's settings and the
/// order of its times, works out each trial's outcome itself, and computes ``ReactionTimeSummary``.
public struct ReactionTimeModule: ActiveModule {
    /// The module's name in active steps.
    public static let name = "reactionTime"
    public var name: String { Self.name }
    public var measureNames: [String] { ReactionTimeSummary.measureNames }

    /// Creates the module.
    public init() {}

    public func result(of step: Step, content: ActiveStepContent, posted: Data) throws(ActiveSamplesError) -> ActiveStepResult {
        let samples = try Self.samples(posted, content: content)
        return result(of: step, isComplete: samples.isComplete, samples: samples.tree, measures: ReactionTimeSummary(samples).measures)
    }

    /// The posted samples of a step with `content`, checked.
    static func samples(_ posted: Data, content: ActiveStepContent) throws(ActiveSamplesError) -> ReactionTimeSamples {
        let trialCount = Int(content.number("trials") ?? 5)
        let minimumDelay = content.number("minimumDelay") ?? 2, maximumDelay = content.number("maximumDelay") ?? 5
        let timeout = content.number("timeout") ?? 3
        let members = try PostedSamples.members(try PostedSamples.document(posted), "",
                                                known: ["stepViewSize", "buttonRect", "stimulusRect", "trials", "complete"],
                                                required: ["stepViewSize", "buttonRect", "stimulusRect", "trials", "complete"])
        let size = try PostedSamples.size(members["stepViewSize"], "stepViewSize")
        let button = try PostedSamples.rect(members["buttonRect"], "buttonRect", in: size)
        let stimulus = try PostedSamples.rect(members["stimulusRect"], "stimulusRect", in: size)
        let complete = try PostedSamples.bool(members["complete"], "complete")
        var trials: [ReactionTimeSamples.Trial] = []
        let elements = try PostedSamples.array(members["trials"], "trials", limit: trialCount)
        // A frame comes at most this long after the delay ends (a page in the background gets no frames at all).
        let frameSlack = 1.0
        for (index, element) in elements.enumerated() {
            let path = "trials[\(index)]"
            let fields = try PostedSamples.members(element, path, known: ["holdStart", "currentInterval", "stimulusStart", "release", "reaction", "location"],
                                                   required: ["holdStart", "currentInterval", "stimulusStart", "release", "reaction", "location"])
            let earliest = trials.last.map { $0.reaction ?? $0.release } ?? 0
            let holdStart = try PostedSamples.number(fields["holdStart"], "\(path).holdStart", in: earliest...earliest + 3_600)
            let interval = try PostedSamples.number(fields["currentInterval"], "\(path).currentInterval", in: minimumDelay...maximumDelay)
            let release = try PostedSamples.number(fields["release"], "\(path).release", in: holdStart...holdStart + interval + frameSlack + timeout + 60)
            let shown = try PostedSamples.optionalNumber(fields["stimulusStart"], "\(path).stimulusStart",
                                                          in: holdStart + interval...holdStart + interval + frameSlack)
            if shown == nil, release >= holdStart + interval + frameSlack {
                throw ActiveSamplesError(path: "\(path).stimulusStart", message: "is missing, but the button was held past the delay (\(PostedSamples.text(interval)) s)")
            }
            if let shown, release < shown, fields["reaction"]?.isNull == false {
                throw ActiveSamplesError(path: "\(path).reaction", message: "must be null: the finger let go before the stimulus showed")
            }
            let reaction = try PostedSamples.optionalNumber(fields["reaction"], "\(path).reaction", in: release...release + timeout + frameSlack)
            let location = fields["location"]?.isNull == false ? try PostedSamples.point(fields["location"], "\(path).location", in: size) : nil
            if (reaction == nil) != (location == nil) {
                throw ActiveSamplesError(path: "\(path).location", message: reaction == nil ? "must be null without a reaction" : "is missing for the reaction")
            }
            trials.append(.init(holdStart: holdStart, currentInterval: interval, stimulusStart: shown, release: release, reaction: reaction, location: location))
        }
        if complete, trials.count != trialCount {
            throw ActiveSamplesError(path: "trials", message: "has \(trials.count) trials, but a complete step has \(trialCount)")
        }
        return ReactionTimeSamples(stepViewSize: size, buttonRect: button, stimulusRect: stimulus, trials: trials, isComplete: complete)
    }
}
