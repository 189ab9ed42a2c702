import Foundation
import JSONDiagnostics
import Research

/// Runs tremor steps: checks the accelerometer and device motion the browser recorded for one pose, keeps them as the
/// run's `accelerometer` and `deviceMotion` files, and computes ``TremorAnalyzer``'s measures from them.
///
/// The browser posts `{"recorders": {"accelerometer": …, "deviceMotion": …}, "end": s, "complete": bool}`: `end` the
/// seconds from the frame that started the recording to the frame that ended it (the step's duration, or less when the
/// participant stopped), and each recorder as ``MotionRecordings`` reads it, or why it has nothing. A step whose
/// sensors were denied, absent or silent is kept as such, incomplete and without measures.
public struct TremorModule: ActiveModule {
    /// The module's name in active steps.
    public static let name = "tremor"
    public var name: String { Self.name }
    public var measureNames: [String] { TremorAnalyzer.measureNames }

    /// Seconds a step's last frame may come after its duration.
    static let frameSlack = 1.0

    /// Creates the module.
    public init() {}

    public func result(of step: Step, content: ActiveStepContent, posted: Data) throws(ActiveSamplesError) -> ActiveStepResult {
        let names: Set<String> = ["recorders", "end", "complete"]
        let members = try PostedSamples.members(try PostedSamples.document(posted), "", known: names, required: names)
        let duration = content.duration ?? 10
        let end = try PostedSamples.number(members["end"], "end", in: 0...duration + Self.frameSlack)
        var complete = try PostedSamples.bool(members["complete"], "complete")
        if complete, end < duration {
            throw ActiveSamplesError(path: "end", message: "is before the step's duration (\(PostedSamples.text(duration)) s), but the step says it is complete")
        }
        let recorders = MotionRecordings.recorders(named: content.text("recorders"))
        let recordings = try MotionRecordings.read(members["recorders"], "recorders", expected: recorders,
                                                   frequency: content.number("frequency") ?? 60, end: end)
        // Nothing is measured from a recorder that gave nothing; a step none of whose recorders gave anything is not complete.
        if recordings.accelerometer?.isEmpty != false, recordings.deviceMotion?.isEmpty != false { complete = false }
        let measures = complete ? TremorAnalyzer().measures(deviceMotion: recordings.deviceMotion, accelerometer: recordings.accelerometer) : nil
        let samples = JSONTree.object([
            .init(key: "pose", value: content.text("pose").map(JSONTree.string) ?? .null),
            .init(key: "hand", value: content.text("hand").map(JSONTree.string) ?? .null),
            .init(key: "end", value: .number(end)), .init(key: "recorders", value: recordings.tree),
            .init(key: "complete", value: .bool(complete)),
        ])
        var result = result(of: step, isComplete: complete, samples: samples, measures: TremorAnalyzer.list(measures))
        result.files = recordings.files.map { ActiveRecordedFile(identifier: $0.key.fileIdentifier, data: $0.value) }.sorted { $0.identifier < $1.identifier }
        return result
    }
}
