import Foundation
import JSONDiagnostics
import Research
import Testing
@testable import ActiveTasks

/// Reaction time by shaking: its step as ResearchKit's, its settings, each trial's outcome worked out from the
/// recorded device motion (reactions, false starts, timeouts), and posts that cannot be true.
struct ShakeReactionTimeModuleTests {
    let content = ActiveStepContent(module: "shakeReactionTime", settings: [
        "minimumStimulusInterval": .number(1), "maximumStimulusInterval": .number(2), "thresholdAcceleration": .number(0.5),
        "numberOfAttempts": .number(2), "timeout": .number(1), "recorders": .text("deviceMotion"), "frequency": .number(60), "pause": .number(1),
    ])
    let step = Step(identifier: "reactionTime", kind: .active(ActiveStepContent(module: "shakeReactionTime")), isOptional: false)

    /// Device motion at 60 readings a second from 0 to `end`, still except during each of `shakes` (start, seconds),
    /// when the user acceleration is 1.5 g along y.
    static func readings(end: Double, shakes: [(Double, Double)]) -> String {
        (0..<Int(end * 60)).map { index in
            let time = Double(index) / 60 + 0.001
            let moving = shakes.contains { time >= $0.0 && time < $0.0 + $0.1 }
            return #"{"timestamp":\#(time),"attitude":{"x":0,"y":0,"z":0,"w":1},"rotationRate":{"x":0,"y":0,"z":0},"userAcceleration":{"x":0.01,"y":\#(moving ? 1.5 : 0.02),"z":0},"gravity":{"x":0,"y":-1,"z":0}}"#
        }.joined(separator: ",")
    }

    /// The first reading at or after `time`.
    static func reading(after time: Double) -> Double {
        let index = ((time - 0.001) * 60).rounded(.up)
        return index / 60 + 0.001
    }

    func document(trials: [String], shakes: [(Double, Double)], end: Double = 12, complete: Bool = true, recorder: String? = nil) -> Data {
        let r = recorder ?? #"{"items":[\#(Self.readings(end: end, shakes: shakes))]}"#
        return Data(#"{"recorders":{"deviceMotion":\#(r)},"trials":[\#(trials.joined(separator: ","))],"end":\#(end),"complete":\#(complete)}"#.utf8)
    }

    static func trial(_ start: Double, _ delay: Double, _ shown: Double?, _ end: Double) -> String {
        #"{"start":\#(start),"delay":\#(delay),"stimulusStart":\#(shown.map { "\($0)" } ?? "null"),"end":\#(end)}"#
    }

    func measures(_ result: ActiveStepResult) -> [String: Double?] {
        Dictionary(uniqueKeysWithValues: result.measures.map { ($0.identifier, $0.value) })
    }

    @Test func theStepIsResearchKitsWithItsParameters() throws {
        let task = try ShakeReactionTimeTask.make(identifier: "shake")
        #expect(task.steps.map(\.identifier) == ["instruction", "instruction1", "countdown.reactionTime", "reactionTime", "conclusion"])
        guard case .active(let c) = task.steps[3].kind else { Issue.record("not active"); return }
        #expect(c.module == "shakeReactionTime" && c.number("thresholdAcceleration") == 0.5 && c.number("numberOfAttempts") == 3)
        #expect(c.number("minimumStimulusInterval") == 4 && c.number("maximumStimulusInterval") == 10 && c.number("timeout") == 3)
        #expect(throws: ActiveTaskSettingsError.self) { try ShakeReactionTimeTask.make(identifier: "t", maximumStimulusInterval: 2, minimumStimulusInterval: 3) }
        #expect(throws: ActiveTaskSettingsError.self) { try ShakeReactionTimeTask.make(identifier: "t", thresholdAcceleration: 0) }
        #expect(throws: ActiveTaskSettingsError.self) { try ShakeReactionTimeTask.make(identifier: "t", numberOfAttempts: 0) }
        _ = try ActiveTaskCatalog.task(named: "shakeReactionTime", identifier: "t", settings: ["numberOfAttempts": .number("2"), "timeout": .number("1.5")])
    }

    @Test func aFalseStartAReactionAndATimeout() throws {
        // Trial 1: delay 1.5 from 0.5; shaken at 1.2, before the stimulus (2.0): a false start.
        // Trial 2: from 2.5, delay 1, shown at 3.51; shaken at 3.91: a reaction of about 400 ms.
        // Trial 3: from 5, delay 1, shown at 6.01; still: a timeout at 7.01.
        let falseStart = Self.reading(after: 1.2), reaction = Self.reading(after: 3.91)
        let trials = [Self.trial(0.5, 1.5, nil, falseStart), Self.trial(2.5, 1, 3.51, reaction), Self.trial(5, 1, 6.01, 7.01)]
        let result = try ShakeReactionTimeModule().result(of: step, content: content, posted: document(trials: trials, shakes: [(1.2, 0.1), (3.91, 0.2)]))
        let m = measures(result)
        #expect(m["reactions"] == 1 && m["falseStarts"] == 1 && m["timeouts"] == 1)
        let expected = ((reaction - 3.51) * 10_000).rounded() / 10
        #expect(m["meanReactionTime"] == expected && m["medianReactionTime"] == expected)
        #expect(abs(expected - 400) < 17)
        guard case .array(let stored)? = result.samples["trials"] else { Issue.record("no trials"); return }
        #expect(stored.map { $0["outcome"] } == [.string("falseStart"), .string("reaction"), .string("timeout")])
        #expect(result.files.map(\.identifier) == ["deviceMotion"])
        #expect(result.measures.map(\.units) == [nil, nil, nil, "ms", "ms"])
    }

    @Test func theMedianOfTwoReactionsIsTheirMean() throws {
        let first = Self.reading(after: 1.3), second = Self.reading(after: 3.5)
        let secondStart = first + 1
        let trials = [Self.trial(0, 1, 1.0, first), Self.trial(secondStart, 1, secondStart + 1, second)]
        let result = try ShakeReactionTimeModule().result(of: step, content: content, posted: document(trials: trials, shakes: [(1.3, 0.1), (3.5, 0.1)], end: 5))
        let m = measures(result)
        #expect(m["reactions"] == 2)
        #expect(abs((m["medianReactionTime"] ?? nil)! - (m["meanReactionTime"] ?? nil)!) < 0.1)
    }

    @Test func aDeniedSensorHasNoTrialsAndNoMeasures() throws {
        let result = try ShakeReactionTimeModule().result(of: step, content: content,
                                                          posted: document(trials: [], shakes: [], complete: false, recorder: #"{"unavailable":"denied"}"#))
        #expect(!result.isComplete && result.files.isEmpty && result.measures.allSatisfy { $0.value == nil })
        #expect(result.samples["recorders"]?["deviceMotion"] == .object([.init(key: "unavailable", value: .string("denied"))]))
        // Trials without readings would be invented.
        #expect(throws: ActiveSamplesError.self) {
            try ShakeReactionTimeModule().result(of: step, content: content, posted: document(trials: [Self.trial(0, 1, 1, 2)], shakes: [], complete: false,
                                                                                          recorder: #"{"items":[]}"#))
        }
    }

    @Test func trialsThatCannotBeTrueAreRefused() {
        let module = ShakeReactionTimeModule()
        // A delay outside the settings.
        #expect(throws: ActiveSamplesError.self) { try module.result(of: step, content: content, posted: document(trials: [Self.trial(0, 3, 3, 4)], shakes: [], complete: false)) }
        // A stimulus long after its delay.
        #expect(throws: ActiveSamplesError.self) { try module.result(of: step, content: content, posted: document(trials: [Self.trial(0, 1, 2.5, 3.5)], shakes: [], complete: false)) }
        // No stimulus, but nothing moved: not a false start.
        #expect(throws: ActiveSamplesError.self) { try module.result(of: step, content: content, posted: document(trials: [Self.trial(0, 1, nil, 0.5)], shakes: [], complete: false)) }
        // A timeout that ends before its time.
        #expect(throws: ActiveSamplesError.self) { try module.result(of: step, content: content, posted: document(trials: [Self.trial(0, 1, 1, 1.5)], shakes: [], complete: false)) }
        // Complete with one attempt of two.
        #expect(throws: ActiveSamplesError.self) { try module.result(of: step, content: content, posted: document(trials: [Self.trial(0, 1, 1, 2)], shakes: [])) }
        // Overlapping trials.
        #expect(throws: ActiveSamplesError.self) {
            try module.result(of: step, content: content, posted: document(trials: [Self.trial(0, 1, 1, 2), Self.trial(1.5, 1, 2.5, 3.5)], shakes: []))
        }
    }
}
