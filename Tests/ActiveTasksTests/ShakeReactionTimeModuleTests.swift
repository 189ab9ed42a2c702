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

    /// Device motion at `rate` readings a second from 0 to `end` (none in `gap`, none after `stop`), with `noise` g of
    /// jitter below the threshold on every axis, and 1.5 g along y from `shake` for 0.2 s.
    static func readings(rate: Double, end: Double, shake: Double, noise: Double, gap: ClosedRange<Double>? = nil, stop: Double = .infinity) -> String {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func jitter() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) / Double(1 << 53) * 2 - 1) * noise
        }
        return (0..<Int(end * rate)).compactMap { index -> String? in
            let time = Double(index) / rate + 0.001
            if gap?.contains(time) == true || time > stop { return nil }
            let y = time >= shake && time < shake + 0.2 ? 1.5 : jitter()
            return #"{"timestamp":\#(time),"attitude":{"x":0,"y":0,"z":0,"w":1},"rotationRate":{"x":0,"y":0,"z":0},"userAcceleration":{"x":\#(jitter()),"y":\#(y),"z":\#(jitter())},"gravity":{"x":0,"y":-1,"z":0}}"#
        }.joined(separator: ",")
    }

    /// One attempt from 0.5 s whose stimulus shows at 1.51 s, judged by the server from `items` (the step ends at 3 s).
    func oneAttempt(items: String, end trialEnd: Double, rate: Double = 60) throws -> ActiveStepResult {
        let content = ActiveStepContent(module: "shakeReactionTime", settings: [
            "minimumStimulusInterval": .number(1), "maximumStimulusInterval": .number(2), "thresholdAcceleration": .number(0.5),
            "numberOfAttempts": .number(1), "timeout": .number(1), "recorders": .text("deviceMotion"), "frequency": .number(rate), "pause": .number(1),
        ])
        let posted = #"{"recorders":{"deviceMotion":{"items":[\#(items)]}},"trials":[\#(Self.trial(0.5, 1.01, 1.51, trialEnd))],"end":3,"complete":true}"#
        return try ShakeReactionTimeModule().result(of: step, content: content, posted: Data(posted.utf8))
    }

    @Test func noiseAGapTwentyReadingsASecondAndAPhoneThatStopsAreJudgedByWhatWasRecorded() throws {
        // Noise of 0.3 g (under the 0.5 g threshold) and a shake 400 ms after the onset: 400 ms, to the next reading.
        let noisy = try oneAttempt(items: Self.readings(rate: 60, end: 3, shake: 1.91, noise: 0.3), end: Self.reading(after: 1.91))
        guard case .array(let noisyTrials)? = noisy.samples["trials"] else { Issue.record("no trials"); return }
        #expect(noisyTrials.first?["outcome"] == .string("reaction"))
        let noisyTime = try #require(measures(noisy)["meanReactionTime"] ?? nil)
        #expect(noisyTime >= 400 && noisyTime < 400 + 1000 / 60.0 + 1)
        // Twenty readings a second: known to the next reading, within 50 ms.
        let slowEnd = (1.91 * 20).rounded(.up) / 20 + 0.001
        let slow = try oneAttempt(items: Self.readings(rate: 20, end: 3, shake: 1.91, noise: 0.05), end: slowEnd, rate: 20)
        let slowTime = try #require(measures(slow)["meanReactionTime"] ?? nil)
        #expect(slowTime >= 400 && slowTime <= 450)
        // No readings from 1.6 to 2.0 s: the shake at 1.91 is seen at the first reading after the gap.
        let gapped = try oneAttempt(items: Self.readings(rate: 60, end: 3, shake: 1.91, noise: 0.05, gap: 1.6...2.0), end: Self.reading(after: 2.0))
        let gappedTime = try #require(measures(gapped)["meanReactionTime"] ?? nil)
        #expect(gappedTime >= 490 && gappedTime < 510)
        // The phone stops reporting at 1.7 s, before the shake: no reading moves, so no reaction is made up.
        let stopped = try oneAttempt(items: Self.readings(rate: 60, end: 3, shake: 1.91, noise: 0.05, stop: 1.7), end: 2.51)
        #expect(measures(stopped)["reactions"] == 0 && measures(stopped)["meanReactionTime"]! == nil)
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
