import Foundation
import JSONDiagnostics
import Research

/// Runs range-of-motion steps: checks the device motion and orientation the browser recorded and the two touches, keeps
/// the readings as the run's `deviceMotion` and `orientation` files, and computes ``RangeOfMotionAnalyzer``'s measures
/// from device motion's attitudes, or from orientation's where the browser gives no device motion (a phone without a
/// gyroscope reports orientation from its accelerometer and compass).
///
/// The browser posts `{"recorders": {"deviceMotion": …}, "startTouch": s, "finishTouch": s, "landscape": bool,
/// "complete": bool}`: the touches in seconds on the step's clock (the second null when the participant stopped before
/// it), and device motion as ``MotionRecordings`` reads it, or why there is none.
public struct RangeOfMotionModule: ActiveModule {
    /// The module's name in active steps.
    public static let name = "rangeOfMotion"
    public var name: String { Self.name }
    public var measureNames: [String] { RangeOfMotionAnalyzer.measureNames }

    /// The longest a step may take from its first frame, in seconds.
    static let longest = 600.0

    /// Creates the module.
    public init() {}

    public func result(of step: Step, content: ActiveStepContent, posted: Data) throws(ActiveSamplesError) -> ActiveStepResult {
        let names: Set<String> = ["recorders", "startTouch", "finishTouch", "landscape", "complete"]
        let members = try PostedSamples.members(try PostedSamples.document(posted), "", known: names, required: names)
        let startTouch = try PostedSamples.optionalNumber(members["startTouch"], "startTouch", in: 0...Self.longest)
        let finishTouch = try PostedSamples.optionalNumber(members["finishTouch"], "finishTouch", in: (startTouch ?? 0)...Self.longest)
        if startTouch == nil, finishTouch != nil {
            throw ActiveSamplesError(path: "finishTouch", message: "must be null when the step was not started")
        }
        let landscape = try PostedSamples.bool(members["landscape"], "landscape")
        let complete = try PostedSamples.bool(members["complete"], "complete")
        if complete, finishTouch == nil {
            throw ActiveSamplesError(path: "finishTouch", message: "is missing, but the step says it is complete")
        }
        let recorders = MotionRecordings.recorders(named: content.text("recorders"))
        let recordings = try MotionRecordings.read(members["recorders"], "recorders", expected: recorders,
                                                   frequency: content.number("frequency") ?? 60, end: finishTouch ?? Self.longest)
        var measures: RangeOfMotionAnalyzer.Measures?
        if complete, let startTouch, let finishTouch {
            // Device motion's attitudes; else, on a phone whose browser gives orientation but no device motion (no
            // gyroscope), the orientation recorder's.
            let attitudes = if let motion = recordings.deviceMotion, !motion.isEmpty { motion.map { (timestamp: $0.timestamp, attitude: $0.attitude) } }
                else { (recordings.orientation ?? []).map { (timestamp: $0.timestamp, attitude: MotionQuaternion(alpha: $0.alpha, beta: $0.beta, gamma: $0.gamma)) } }
            measures = RangeOfMotionAnalyzer(landscape: landscape).measures(ofAttitudes: attitudes, from: startTouch, to: finishTouch)
        }
        func number(_ value: Double?) -> JSONTree { value.map { .number($0) } ?? .null }
        let samples = JSONTree.object([
            .init(key: "startTouch", value: number(startTouch)), .init(key: "finishTouch", value: number(finishTouch)),
            .init(key: "landscape", value: .bool(landscape)), .init(key: "recorders", value: recordings.tree),
            .init(key: "complete", value: .bool(complete)),
        ])
        var result = result(of: step, isComplete: complete, samples: samples, measures: RangeOfMotionAnalyzer.list(measures))
        result.files = recordings.files.map { ActiveRecordedFile(identifier: $0.key.fileIdentifier, data: $0.value) }.sorted { $0.identifier < $1.identifier }
        return result
    }
}
