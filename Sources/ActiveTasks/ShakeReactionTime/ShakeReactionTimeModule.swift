import Foundation
import JSONDiagnostics
import Research

/// Runs reaction time steps of shakes: checks the device motion the browser recorded and every trial against the
/// step's settings, works out each trial's outcome itself from the readings (``ShakeReactionTimeAnalyzer``), keeps the
/// readings as the run's `deviceMotion` file, and computes the measures.
///
/// The browser posts `{"recorders": {"deviceMotion": …}, "trials": [{"start", "delay", "stimulusStart", "end"}],
/// "end": s, "complete": bool}`, times in seconds from the frame that first showed the step's test. A step whose
/// sensor was denied, absent or silent has no trials and no measures.
public struct ShakeReactionTimeModule: ActiveModule {
    /// The module's name in active steps.
    public static let name = "shakeReactionTime"
    public var name: String { Self.name }
    public var measureNames: [String] { ShakeReactionTimeAnalyzer.measureNames }

    /// A frame comes at most this long after the delay ends (a page in the background gets no frames at all).
    static let frameSlack = 1.0
    /// The longest a step may take, in seconds.
    static let longest = 3_600.0

    /// Creates the module.
    public init() {}

    public func result(of step: Step, content: ActiveStepContent, posted: Data) throws(ActiveSamplesError) -> ActiveStepResult {
        let attempts = Int(content.number("numberOfAttempts") ?? 3)
        let minimum = content.number("minimumStimulusInterval") ?? 4, maximum = content.number("maximumStimulusInterval") ?? 10
        let analyzer = ShakeReactionTimeAnalyzer(threshold: content.number("thresholdAcceleration") ?? 0.5, timeout: content.number("timeout") ?? 3)
        let names: Set<String> = ["recorders", "trials", "end", "complete"]
        let members = try PostedSamples.members(try PostedSamples.document(posted), "", known: names, required: names)
        let end = try PostedSamples.number(members["end"], "end", in: 0...Self.longest)
        let complete = try PostedSamples.bool(members["complete"], "complete")
        let recordings = try MotionRecordings.read(members["recorders"], "recorders", expected: [.deviceMotion],
                                                   frequency: content.number("frequency") ?? 60, end: end)
        let readings = recordings.deviceMotion ?? []
        let elements = try PostedSamples.array(members["trials"], "trials", limit: Self.maximumFalseStarts(attempts) + attempts)
        if readings.isEmpty, !elements.isEmpty {
            throw ActiveSamplesError(path: "trials", message: "must be empty: the step recorded no device motion")
        }
        var trials: [ShakeReactionTimeAnalyzer.Trial] = []
        var outcomes: [(outcome: ShakeReactionTimeAnalyzer.Outcome, reactionTime: Double?)] = []
        for (index, element) in elements.enumerated() {
            let path = "trials[\(index)]"
            let fields = try PostedSamples.members(element, path, known: ["start", "delay", "stimulusStart", "end"],
                                                   required: ["start", "delay", "stimulusStart", "end"])
            let earliest = trials.last?.end ?? 0
            let start = try PostedSamples.number(fields["start"], "\(path).start", in: earliest...end)
            let delay = try PostedSamples.number(fields["delay"], "\(path).delay", in: minimum...maximum)
            let shown = try PostedSamples.optionalNumber(fields["stimulusStart"], "\(path).stimulusStart",
                                                          in: start + delay...start + delay + Self.frameSlack)
            // A false start may end before the onset of a stimulus shown meanwhile: its reading came before that frame.
            let trialEnd = try PostedSamples.number(fields["end"], "\(path).end", in: start...end)
            let trial = ShakeReactionTimeAnalyzer.Trial(start: start, delay: delay, stimulusStart: shown, end: trialEnd)
            let outcome = analyzer.outcome(of: trial, in: readings)
            if shown == nil, outcome.outcome != .falseStart {
                throw ActiveSamplesError(path: "\(path).stimulusStart", message: "is missing, but the phone did not move before it")
            }
            if let shown, outcome.outcome == .timeout, trialEnd < shown + analyzer.timeout - 1e-6 {
                throw ActiveSamplesError(path: "\(path).end", message: "is before the timeout (\(PostedSamples.text(analyzer.timeout)) s after the stimulus), but the phone did not move")
            }
            trials.append(trial)
            outcomes.append(outcome)
        }
        let measures = ShakeReactionTimeAnalyzer.Measures(outcomes)
        if complete {
            if readings.isEmpty { throw ActiveSamplesError(path: "complete", message: "must be false: the step recorded no device motion") }
            if measures.reactions + measures.timeouts != attempts, measures.falseStarts < Self.maximumFalseStarts(attempts) {
                throw ActiveSamplesError(path: "trials", message: "has \(measures.reactions + measures.timeouts) attempts and \(measures.falseStarts) false starts, but a complete step has \(attempts) attempts, or \(Self.maximumFalseStarts(attempts)) false starts")
            }
        }
        func number(_ value: Double?) -> JSONTree { value.map { .number($0) } ?? .null }
        let samples = JSONTree.object([
            .init(key: "trials", value: .array(zip(trials, outcomes).map { trial, outcome in
                .object([.init(key: "start", value: .number(trial.start)), .init(key: "delay", value: .number(trial.delay)),
                         .init(key: "stimulusStart", value: number(trial.stimulusStart)), .init(key: "end", value: .number(trial.end)),
                         .init(key: "outcome", value: .string(outcome.outcome.rawValue)), .init(key: "reactionTime", value: number(outcome.reactionTime))])
            })),
            .init(key: "end", value: .number(end)), .init(key: "recorders", value: recordings.tree), .init(key: "complete", value: .bool(complete)),
        ])
        var result = result(of: step, isComplete: complete, samples: samples, measures: ShakeReactionTimeAnalyzer.list(complete ? measures : nil))
        result.files = recordings.files.map { ActiveRecordedFile(identifier: $0.key.fileIdentifier, data: $0.value) }.sorted { $0.identifier < $1.identifier }
        return result
    }

    /// The false starts after which a step ends, whatever its attempts: twice their number.
    static func maximumFalseStarts(_ attempts: Int) -> Int { 2 * attempts }
}
