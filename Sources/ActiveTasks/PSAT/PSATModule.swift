import Foundation
import JSONDiagnostics
import Research

/// Runs PSAT steps: checks the digits (1–9, never the same twice in a row), their onsets against the pace, each answer
/// (3–17 or −1) and its time within its digit's window, works out which answers were right, and computes ``PSATSummary``.
public struct PSATModule: ActiveModule {
    /// The module's name in active steps.
    public static let name = "psat"
    public var name: String { Self.name }
    public var measureNames: [String] { PSATSummary.measureNames }

    /// How far a digit's onset may fall from its place in the pace, in seconds: a few frames, and a page that was busy.
    static let paceSlack = 0.25

    /// Creates the module.
    public init() {}

    public func result(of step: Step, content: ActiveStepContent, posted: Data) throws(ActiveSamplesError) -> ActiveStepResult {
        let samples = try Self.samples(posted, content: content)
        return result(of: step, isComplete: samples.isComplete, samples: samples.tree, measures: PSATSummary(samples).measures)
    }

    static func samples(_ posted: Data, content: ActiveStepContent) throws(ActiveSamplesError) -> PSATSamples {
        let mode = PSATTask.PresentationMode(rawValue: content.text("presentationMode") ?? "visual") ?? .visual
        let interval = content.number("interStimulusInterval") ?? 3
        let length = Int(content.number("seriesLength") ?? 60)
        let members = try PostedSamples.members(try PostedSamples.document(posted), "", known: ["initialDigit", "samples", "complete"],
                                                required: ["initialDigit", "samples", "complete"])
        func digit(_ value: JSONTree?, _ path: String) throws(ActiveSamplesError) -> Int {
            guard let digit = value?.integerValue, (1...9).contains(digit) else { throw ActiveSamplesError(path: path, message: "must be a digit from 1 to 9") }
            return digit
        }
        var previous = try digit(members["initialDigit"], "initialDigit")
        var samples: [PSATSamples.Sample] = []
        for (index, element) in try PostedSamples.array(members["samples"], "samples", limit: length).enumerated() {
            let path = "samples[\(index)]"
            let fields = try PostedSamples.members(element, path, known: ["digit", "onset", "answer", "time"], required: ["digit", "onset", "answer", "time"])
            let value = try digit(fields["digit"], "\(path).digit")
            if value == previous { throw ActiveSamplesError(path: "\(path).digit", message: "repeats the digit before it, which the test never does") }
            let due = Double(index + 1) * interval
            let onset = try PostedSamples.number(fields["onset"], "\(path).onset", in: due - paceSlack...due + paceSlack)
            guard let answer = fields["answer"]?.integerValue, answer == -1 || (3...17).contains(answer) else {
                throw ActiveSamplesError(path: "\(path).answer", message: "must be a sum from 3 to 17, or -1 for none")
            }
            let time = try PostedSamples.number(fields["time"], "\(path).time", in: 0...interval + paceSlack)
            if answer == -1, abs(time - interval) > 1e-9 {
                throw ActiveSamplesError(path: "\(path).time", message: "must be the interval, \(PostedSamples.text(interval)) s, when there is no answer")
            }
            samples.append(.init(digit: value, onset: onset, answer: answer, time: time))
            previous = value
        }
        let complete = try PostedSamples.bool(members["complete"], "complete")
        if complete, samples.count != length {
            throw ActiveSamplesError(path: "samples", message: "has \(samples.count) additions, but a complete step has \(length)")
        }
        return PSATSamples(presentationMode: mode, interStimulusInterval: interval, stimulusDuration: content.number("stimulusDuration") ?? 0,
                           initialDigit: try digit(members["initialDigit"], "initialDigit"), samples: samples, isComplete: complete)
    }
}
