import Foundation
import JSONDiagnostics
import Research
import Testing
@testable import ActiveTasks

/// The tapping module: its analyzer against hand-computed values, its edges (no taps, all off target, stopped early),
/// and its refusal of samples that cannot have come from the step it was posted to.
struct TappingModuleTests {
    let twoButtons = ActiveStepContent(module: "tapping", duration: 10, settings: ["targets": .number(2), "hand": .text("right")])
    let step = Step(identifier: "tapping.right", kind: .active(ActiveStepContent(module: "tapping")), isOptional: false)

    /// A document as tapping.js posts it: a 300 × 400 area, buttons at (30, 300) and (200, 300), 70 px square.
    func document(_ samples: [(t: Double, button: String, x: Double, y: Double)], complete: Bool = true, extra: String = "") -> Data {
        let list = samples.map { #"{"timestamp":\#($0.t),"duration":0.05,"buttonIdentifier":"\#($0.button)","location":{"x":\#($0.x),"y":\#($0.y)}}"# }
        return Data(("""
            {"stepViewSize":{"width":300,"height":400},"buttonRect1":{"x":30,"y":300,"width":70,"height":70},
             "buttonRect2":{"x":200,"y":300,"width":70,"height":70},"samples":[\(list.joined(separator: ","))],"complete":\(complete)\(extra)}
            """).utf8)
    }

    func measures(_ result: ActiveStepResult) -> [String: Double?] {
        Dictionary(uniqueKeysWithValues: result.measures.map { ($0.identifier, $0.value) })
    }

    @Test func measuresFollowFromTheSamplesByHand() throws {
        // On target at 1.0, 1.2, 1.5 and 1.6 s (intervals 200, 300 and 100 ms: mean 200, SD 100); one touch beside.
        let posted = document([(1.0, "left", 60, 330), (1.2, "right", 230, 330), (1.3, "none", 150, 100),
                               (1.5, "left", 40, 310), (1.6, "right", 260, 360)])
        let result = try TappingModule().result(of: step, content: twoButtons, posted: posted)
        let m = measures(result)
        #expect(result.isComplete)
        #expect(m["tapCount"] == 4 && m["offTargetCount"] == 1)
        #expect(abs((m["accuracy"]! ?? 0) - 80) < 1e-9)
        #expect(abs((m["meanInterval"]! ?? 0) - 200) < 1e-9)
        #expect(abs((m["intervalSD"]! ?? 0) - 100) < 1e-9)
        #expect(result.measure("meanInterval")?.units == "ms")
        // The stored samples are the checked ones, with ResearchKit's names.
        guard case .object(let members) = result.samples else { Issue.record("samples are not an object"); return }
        #expect(members.map(\.key) == ["stepViewSize", "buttonRect1", "buttonRect2", "samples", "complete"])
    }

    @Test func noTapsGiveNoIntervalsAndNoAccuracy() throws {
        let m = measures(try TappingModule().result(of: step, content: twoButtons, posted: document([])))
        #expect(m["tapCount"] == 0 && m["offTargetCount"] == 0)
        #expect(m["accuracy"]! == nil && m["meanInterval"]! == nil && m["intervalSD"]! == nil)
    }

    @Test func touchesAllBesideTheButtonsScoreZeroAccuracyAndNoInterval() throws {
        let m = measures(try TappingModule().result(of: step, content: twoButtons,
                                                    posted: document([(0.5, "none", 10, 10), (0.7, "none", 150, 200)])))
        #expect(m["tapCount"] == 0 && m["offTargetCount"] == 2 && m["accuracy"] == 0)
        #expect(m["meanInterval"]! == nil)
    }

    @Test func oneIntervalHasAMeanButNoSpread() throws {
        let m = measures(try TappingModule().result(of: step, content: twoButtons,
                                                    posted: document([(0.5, "left", 60, 330), (0.75, "right", 230, 330)])))
        #expect(abs((m["meanInterval"]! ?? 0) - 250) < 1e-9 && m["intervalSD"]! == nil)
    }

    @Test func aTestStoppedHalfWayKeepsItsSamplesAndHasNoScore() throws {
        let result = try TappingModule().result(of: step, content: twoButtons,
                                                posted: document([(0.5, "left", 60, 330), (0.75, "right", 230, 330)], complete: false))
        #expect(!result.isComplete)
        #expect(result.measures.allSatisfy { $0.value == nil })
        guard case .object(let members) = result.samples, case .array(let samples)? = members.first(where: { $0.key == "samples" })?.value else {
            Issue.record("no samples kept"); return
        }
        #expect(samples.count == 2)
    }

    @Test(arguments: [
        (#"{"timestamp":1,"duration":0.05,"buttonIdentifier":"left","location":{"x":150,"y":100}}"#, "samples[0].buttonIdentifier"),
        (#"{"timestamp":-1,"duration":0.05,"buttonIdentifier":"none","location":{"x":150,"y":100}}"#, "samples[0].timestamp"),
        (#"{"timestamp":1,"duration":0.05,"buttonIdentifier":"middle","location":{"x":150,"y":100}}"#, "samples[0].buttonIdentifier"),
        (#"{"timestamp":1,"duration":0.05,"buttonIdentifier":"none","location":{"x":150,"y":900}}"#, "samples[0].location.y"),
        (#"{"timestamp":1,"duration":0.05,"buttonIdentifier":"none","location":{"x":150,"y":100},"force":1}"#, "samples[0].force"),
        (#"{"timestamp":1,"duration":0.05,"buttonIdentifier":"none","location":{"x":150,"y":100},"timestamp":2}"#, "samples[0]"),
    ])
    func samplesThatCannotBeKeptAreRefusedWhereTheyAre(sample: String, path: String) {
        let posted = Data("""
            {"stepViewSize":{"width":300,"height":400},"buttonRect1":{"x":30,"y":300,"width":70,"height":70},
             "buttonRect2":{"x":200,"y":300,"width":70,"height":70},"samples":[\(sample)],"complete":true}
            """.utf8)
        do {
            _ = try TappingModule().result(of: step, content: twoButtons, posted: posted)
            Issue.record("\(sample) was accepted")
        } catch {
            #expect(error.path.hasPrefix(path), "\(error)")
        }
    }

    @Test func samplesOutOfOrderOrPastTheEndAreRefused() {
        let backwards = document([(1.0, "left", 60, 330), (0.9, "right", 230, 330)])
        #expect(throws: ActiveSamplesError.self) { try TappingModule().result(of: step, content: twoButtons, posted: backwards) }
        // Ten seconds of tapping from the first tap at 1.0 s, and a second's grace: 12.5 s is past it.
        let late = document([(1.0, "left", 60, 330), (12.5, "right", 230, 330)])
        do {
            _ = try TappingModule().result(of: step, content: twoButtons, posted: late)
            Issue.record("a tap after the end was accepted")
        } catch {
            #expect(error.path == "samples[1].timestamp")
        }
    }

    @Test func moreTouchesThanAPersonCanMakeAreRefused() {
        let many = (0..<500).map { (t: Double($0) * 0.001, button: "none", x: 150.0, y: 100.0) }
        #expect(throws: ActiveSamplesError.self) { try TappingModule().result(of: step, content: twoButtons, posted: document(many)) }
    }

    @Test func aSecondButtonOnASingleTargetStepIsRefused() {
        let one = ActiveStepContent(module: "tapping", duration: 10, settings: ["targets": .number(1)])
        #expect(throws: ActiveSamplesError.self) { try TappingModule().result(of: step, content: one, posted: document([])) }
    }

    @Test func truncatedOrHugeDocumentsAreRefused() {
        let full = document([(1.0, "left", 60, 330)])
        #expect(throws: ActiveSamplesError.self) { try TappingModule().result(of: step, content: twoButtons, posted: full.prefix(full.count / 2)) }
        let huge = Data(repeating: UInt8(ascii: " "), count: PostedSamples.maximumBytes + 1)
        #expect(throws: ActiveSamplesError.self) { try TappingModule().result(of: step, content: twoButtons, posted: huge) }
    }
}

/// The catalogue builds tasks as ResearchKit's factories do, and refuses settings it cannot use, naming them.
struct ActiveTaskCatalogTests {
    @Test func twoFingerTappingForBothHandsHasEveryStepInOrder() throws {
        let task = try ActiveTaskCatalog.task(named: "twoFingerTapping", identifier: "tapping", settings: ["duration": .number("20")])
        #expect(task.steps.map(\.identifier) == ["instruction", "instruction1", "instruction.right", "countdown.tapping.right", "tapping.right",
                                                 "instruction.left", "countdown.tapping.left", "tapping.left", "conclusion"])
        guard case .active(let content) = task.step(withIdentifier: "tapping.left")?.kind else { Issue.record("not active"); return }
        #expect(content.duration == 20 && content.number("targets") == 2 && content.text("hand") == "left")
    }

    @Test func optionsLeaveOutTheInstructionsAndTheConclusion() throws {
        let task = try ActiveTaskCatalog.task(named: "tappingSpeed", identifier: "speed",
                                              settings: ["excludeInstructions": .bool(true), "excludeConclusion": .bool(true), "hands": .string("left")])
        #expect(task.steps.map(\.identifier) == ["countdown.tapping.left", "tapping.left"])
    }

    @Test(arguments: [
        ("twoFingerTapping", ["duration": JSONTree.number("0")], "duration"),
        ("twoFingerTapping", ["duration": JSONTree.string("20")], "duration"),
        ("twoFingerTapping", ["hands": JSONTree.string("middle")], "hands"),
        ("twoFingerTapping", ["speed": JSONTree.number("3")], "speed"),
        ("twoFingerTaping", [:], "task"),
    ])
    func unusableSettingsAreNamed(name: String, settings: [String: JSONTree], setting: String) {
        do {
            _ = try ActiveTaskCatalog.task(named: name, identifier: "t", settings: settings)
            Issue.record("\(settings) accepted")
        } catch {
            #expect(error.path == setting, "\(error)")
        }
    }

    @Test func everyModuleAStudyCanUseIsKnown() throws {
        for name in ActiveTaskCatalog.names {
            let task = try ActiveTaskCatalog.task(named: name, identifier: "t", settings: [:])
            for step in task.steps {
                if case .active(let content) = step.kind { #expect(ActiveModules.standard[content.module] != nil, "\(content.module)") }
            }
        }
    }
}
