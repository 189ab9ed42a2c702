import Foundation
import JSONDiagnostics
import Research

/// Runs the walking tasks' steps (a leg of a walk, a rest, a timed walk, a turn): checks the motion and location the
/// browser recorded and the walk's start and end, keeps each recorder's readings as a file of the run, and computes
/// ``WalkAnalyzer``'s measures: `stepCount`, `cadence` (steps a minute), `distance` (m) and `duration` (s).
///
/// The browser posts `{"recorders": {…}, "start": s, "end": s, "complete": bool}`: the touch that started the walk and
/// its end, in seconds on the step's clock (`end` null when the participant stopped before it), and the recorders the
/// step names (``MotionRecordings``), or why each has nothing. A `walk` or `rest` step ends by itself after its
/// duration; a `timed` walk or a `turnAround` ends at the participant's touch, and is incomplete when its duration (the
/// time limit) ran out first.
///
/// A walk records many readings: a step's post may have ``maximumPostedBytes(for:)`` bytes, worked out from its
/// duration, rate and recorders, rather than the usual ``PostedSamples`` limit of 1 MB.
public struct WalkModule: ActiveModule {
    /// The module's name in active steps.
    public static let name = "walk"
    public var name: String { Self.name }
    public var measureNames: [String] { Self.measureNames }

    /// The measures, in the order results list them.
    public static let measureNames = ["stepCount", "cadence", "distance", "duration"]

    /// What a walking step does.
    public enum Phase: String, CaseIterable, Hashable, Sendable {
        /// Walking for the step's duration (a leg of the short walk, the fitness check's walk).
        case walk
        /// Standing still for the step's duration.
        case rest
        /// Walking a given distance, ended by a touch, within the step's duration (the timed walk's trials).
        case timed
        /// Turning round, ended by a touch, within the step's duration.
        case turnAround
    }

    /// The longest a participant may take to touch the start, in seconds from the step's first frame.
    static let longestWait = 3_600.0

    /// The most JSON bytes one reading of each recorder takes as the browser writes it (rounded to the microsecond).
    static func bytesPerItem(_ recorder: MotionRecorder) -> Int {
        switch recorder {
        case .deviceMotion: 340
        case .accelerometer, .orientation: 100
        case .location: 280
        }
    }

    /// Creates the module.
    public init() {}

    /// The most bytes a step's samples may have: for each recorder, the readings its rate allows over the step's
    /// duration and a second (with the quarter to spare that ``MotionRecordings`` allows), at the bytes one takes, and
    /// 64 KB besides; at least the usual 1 MB. A fitness check's six-minute walk at 30 readings a second with the
    /// accelerometer, device motion and location comes to 6,152,416 bytes (its form: at most 13.4 MB).
    public func maximumPostedBytes(for content: ActiveStepContent) -> Int {
        let duration = (content.duration ?? 0) + 1
        let frequency = content.number("frequency") ?? 60
        let bytes = MotionRecordings.recorders(named: content.text("recorders")).reduce(65_536) { total, recorder in
            let rate = recorder == .location ? 1 : min(frequency, recorder.highestRate)
            return total + (Int((rate * 1.25 * duration).rounded(.up)) + 5) * Self.bytesPerItem(recorder)
        }
        return max(bytes, PostedSamples.maximumBytes)
    }

    public func result(of step: Step, content: ActiveStepContent, posted: Data) throws(ActiveSamplesError) -> ActiveStepResult {
        let names: Set<String> = ["recorders", "start", "end", "complete"]
        let document = try PostedSamples.document(posted, limit: maximumPostedBytes(for: content))
        let members = try PostedSamples.members(document, "", known: names, required: names)
        let duration = content.duration ?? 0
        let phase = Phase(rawValue: content.text("phase") ?? "") ?? .walk
        let start = try PostedSamples.optionalNumber(members["start"], "start", in: 0...Self.longestWait)
        // The page ends a walk in the first frame after its duration: a second's margin for a slow frame.
        let end = try PostedSamples.optionalNumber(members["end"], "end", in: (start ?? 0)...((start ?? 0) + duration + 1))
        if start == nil, end != nil {
            throw ActiveSamplesError(path: "end", message: "must be null when the walk was not started")
        }
        let complete = try PostedSamples.bool(members["complete"], "complete")
        if complete, end == nil {
            throw ActiveSamplesError(path: "end", message: "is missing, but the step says it is complete")
        }
        if complete, let start, let end, phase == .walk || phase == .rest, end - start < duration - 0.5 {
            throw ActiveSamplesError(path: "end", message: "comes \(PostedSamples.text(end - start)) s after the start, before the step's \(PostedSamples.text(duration)) s, but the step says it is complete")
        }
        let recorders = MotionRecordings.recorders(named: content.text("recorders"))
        let recordings = try MotionRecordings.read(members["recorders"], "recorders", expected: recorders,
                                                   frequency: content.number("frequency") ?? 60, end: end ?? (start ?? 0) + duration + 1)
        let measures = Self.measures(of: recordings, from: start, to: end)
        func number(_ value: Double?) -> JSONTree { value.map { .number($0) } ?? .null }
        var samples: [JSONTree.Member] = [
            .init(key: "phase", value: .string(phase.rawValue)), .init(key: "start", value: number(start)), .init(key: "end", value: number(end)),
            .init(key: "recorders", value: recordings.tree), .init(key: "complete", value: .bool(complete)),
        ]
        if let distance = content.number("distance") { samples.append(.init(key: "distanceInMeters", value: .number(distance))) }
        var result = result(of: step, isComplete: complete, samples: .object(samples), measures: measures)
        result.files = recordings.files.map { ActiveRecordedFile(identifier: $0.key.fileIdentifier, data: $0.value) }.sorted { $0.identifier < $1.identifier }
        return result
    }

    /// The measures of ``measureNames`` from `recordings` between the walk's `start` and `end`: steps and cadence from
    /// device motion (else the accelerometer), distance from location, duration from the two; nil where there is
    /// nothing to measure them from.
    static func measures(of recordings: MotionRecordings, from start: Double?, to end: Double?,
                         analyzer: WalkAnalyzer = WalkAnalyzer()) -> [(identifier: String, value: Double?, units: String?)] {
        let from = start ?? 0, to = end ?? .infinity
        let steps = recordings.deviceMotion.flatMap { analyzer.steps(deviceMotion: $0, from: from, to: to) }
            ?? recordings.accelerometer.flatMap { analyzer.steps(accelerometer: $0, from: from, to: to) }
        let distance = recordings.location.flatMap { analyzer.distance(of: $0, from: from, to: to) }
        let duration = start.flatMap { start in end.map { $0 - start } }
        func rounded(_ value: Double?, _ scale: Double = 10) -> Double? { value.map { ($0 * scale).rounded() / scale } }
        return [("stepCount", steps.map { Double($0.count) }, nil), ("cadence", rounded(steps?.cadence), "steps/min"),
                ("distance", rounded(distance), "m"), ("duration", rounded(duration, 1_000), "s")]
    }
}
