import Foundation
import JSONDiagnostics
import Research
import Testing
@testable import ActiveTasks

/// The reaction time module: outcomes worked out from the times, the measures by hand, and trials that cannot be true.
struct ReactionTimeModuleTests {
    let content = ActiveStepContent(module: "reactionTime", settings: ["trials": .number(4), "minimumDelay": .number(2),
                                                                        "maximumDelay": .number(5), "timeout": .number(3)])
    let step = Step(identifier: "reactionTime", kind: .active(ActiveStepContent(module: "reactionTime")), isOptional: false)

    /// A trial as reactionTime.js posts it; the stimulus is at (100, 50) 100 × 100 in a 300 × 500 area.
    func trial(start: Double, interval: Double = 2, shownAfter: Double? = 0.01, release: Double, reaction: Double?,
               at location: (Double, Double)? = (150, 100)) -> String {
        let shown = shownAfter.map { "\(start + interval + $0)" } ?? "null"
        let place = location.map { #"{"x":\#($0.0),"y":\#($0.1)}"# } ?? "null"
        return #"{"holdStart":\#(start),"currentInterval":\#(interval),"stimulusStart":\#(shown),"release":\#(release),"reaction":\#(reaction.map { "\($0)" } ?? "null"),"location":\#(reaction == nil ? "null" : place)}"#
    }

    func document(_ trials: [String], complete: Bool = true) -> Data {
        Data("""
            {"stepViewSize":{"width":300,"height":500},"buttonRect":{"x":100,"y":380,"width":100,"height":100},
             "stimulusRect":{"x":100,"y":50,"width":100,"height":100},"trials":[\(trials.joined(separator: ","))],"complete":\(complete)}
            """.utf8)
    }

    @Test func outcomesAndMeasuresFollowFromTheTimes() throws {
        // Onsets at 3.01, 10.01, 20.01, 30.01. Trial 1: let go 250 ms after, tapped 150 ms later (hit). Trial 2: let go
        // 350 ms after, tapped 250 ms later (hit). Trial 3: let go 50 ms after the onset (anticipation). Trial 4: let go
        // 300 ms after and tapped beside the circle (miss).
        let trials = [
            trial(start: 1, release: 3.26, reaction: 3.41),
            trial(start: 8, release: 10.36, reaction: 10.61),
            trial(start: 18, release: 20.06, reaction: nil),
            trial(start: 28, release: 30.31, reaction: 30.5, at: (20, 300)),
        ]
        let result = try ReactionTimeModule().result(of: step, content: content, posted: document(trials))
        let m = Dictionary(uniqueKeysWithValues: result.measures.map { ($0.identifier, $0.value) })
        #expect(m["hits"] == 2 && m["anticipations"] == 1 && m["misses"] == 1 && m["timeouts"] == 0)
        #expect(abs((m["meanReactionTime"]! ?? 0) - 300) < 1e-6)
        #expect(abs((m["medianReactionTime"]! ?? 0) - 300) < 1e-6)
        #expect(abs((m["meanMovementTime"]! ?? 0) - 200) < 1e-6)
        guard case .object(let members) = result.samples, case .array(let stored)? = members.first(where: { $0.key == "trials" })?.value else {
            Issue.record("no trials"); return
        }
        #expect(stored.map { $0["outcome"] } == [.string("hit"), .string("hit"), .string("anticipation"), .string("miss")])
    }

    @Test func letGoBeforeTheStimulusIsAnAnticipationAndNoHitGivesNoTime() throws {
        let trials = [trial(start: 1, shownAfter: nil, release: 2.5, reaction: nil), trial(start: 5, shownAfter: nil, release: 6, reaction: nil),
                      trial(start: 9, release: 14, reaction: nil), trial(start: 20, release: 22.02, reaction: nil)]
        let result = try ReactionTimeModule().result(of: step, content: content, posted: document(trials))
        let m = Dictionary(uniqueKeysWithValues: result.measures.map { ($0.identifier, $0.value) })
        #expect(m["anticipations"] == 3 && m["timeouts"] == 1 && m["hits"] == 0)
        #expect(m["meanReactionTime"]! == nil && m["medianReactionTime"]! == nil)
    }

    @Test func aStepStoppedHalfWayHasNoMeasures() throws {
        let result = try ReactionTimeModule().result(of: step, content: content,
                                                     posted: document([trial(start: 1, release: 3.26, reaction: 3.41)], complete: false))
        #expect(!result.isComplete && result.measures.allSatisfy { $0.value == nil })
    }

    @Test(arguments: [
        ("trial(start: 1, interval: 1, release: 3.26, reaction: 3.41)", "trials[0].currentInterval"),
        ("trial(start: 1, shownAfter: 2, release: 5.3, reaction: 5.5)", "trials[0].stimulusStart"),
        ("trial(start: 1, shownAfter: nil, release: 4.5, reaction: nil)", "trials[0].stimulusStart"),
        ("trial(start: 1, release: 3.26, reaction: 9)", "trials[0].reaction"),
        ("trial(start: 1, release: 0.5, reaction: nil)", "trials[0].release"),
    ])
    func trialsThatCannotBeTrueAreRefused(description: String, path: String) {
        let trials: [String: String] = [
            "trial(start: 1, interval: 1, release: 3.26, reaction: 3.41)": trial(start: 1, interval: 1, release: 3.26, reaction: 3.41),
            "trial(start: 1, shownAfter: 2, release: 5.3, reaction: 5.5)": trial(start: 1, shownAfter: 2, release: 5.3, reaction: 5.5),
            "trial(start: 1, shownAfter: nil, release: 4.5, reaction: nil)": trial(start: 1, shownAfter: nil, release: 4.5, reaction: nil),
            "trial(start: 1, release: 3.26, reaction: 9)": trial(start: 1, release: 3.26, reaction: 9),
            "trial(start: 1, release: 0.5, reaction: nil)": trial(start: 1, release: 0.5, reaction: nil),
        ]
        do {
            _ = try ReactionTimeModule().result(of: step, content: content, posted: document([trials[description]!], complete: false))
            Issue.record("\(description) was accepted")
        } catch {
            #expect(error.path == path, "\(error)")
        }
    }

    @Test func aCompleteStepNeedsEveryTrial() {
        #expect(throws: ActiveSamplesError.self) {
            try ReactionTimeModule().result(of: step, content: content, posted: document([trial(start: 1, release: 3.26, reaction: 3.41)]))
        }
    }
}
