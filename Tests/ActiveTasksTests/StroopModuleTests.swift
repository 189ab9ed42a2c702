import Foundation
import Research
import Testing
@testable import ActiveTasks

/// The Stroop module: accuracy and times by congruence, by hand, and attempts that cannot be kept.
struct StroopModuleTests {
    let content = ActiveStepContent(module: "stroop", settings: ["attempts": .number(4)])
    let step = Step(identifier: "stroop", kind: .active(ActiveStepContent(module: "stroop")), isOptional: false)

    func document(_ attempts: [(Double, Double, String, String, String)], complete: Bool = true) -> Data {
        let list = attempts.map { #"{"startTime":\#($0.0),"endTime":\#($0.1),"text":"\#($0.2)","color":"\#($0.3)","colorSelected":"\#($0.4)"}"# }
        return Data(#"{"attempts":[\#(list.joined(separator: ","))],"complete":\#(complete)}"#.utf8)
    }

    @Test func congruentAndIncongruentTimesByHand() throws {
        // Congruent and right in 500 ms; incongruent and right in 700 and 900 ms; incongruent and wrong (left out of times).
        let posted = document([(1, 1.5, "red", "red", "red"), (2, 2.7, "red", "blue", "blue"), (3, 3.9, "green", "yellow", "yellow"),
                               (4, 4.3, "blue", "green", "blue")])
        let result = try StroopModule().result(of: step, content: content, posted: posted)
        let m = Dictionary(uniqueKeysWithValues: result.measures.map { ($0.identifier, $0.value) })
        #expect(m["correct"] == 3 && m["accuracy"] == 75)
        #expect(abs((m["meanCongruentTime"]! ?? 0) - 500) < 1e-6)
        #expect(abs((m["meanIncongruentTime"]! ?? 0) - 800) < 1e-6)
        #expect(abs((m["interference"]! ?? 0) - 300) < 1e-6)
    }

    @Test func allWrongGivesNoTimesAndZeroAccuracy() throws {
        let posted = document([(1, 1.5, "red", "red", "blue"), (2, 2.7, "red", "blue", "red"), (3, 3.9, "green", "yellow", "green"),
                               (4, 4.3, "blue", "green", "red")])
        let m = Dictionary(uniqueKeysWithValues: try StroopModule().result(of: step, content: content, posted: posted).measures.map { ($0.identifier, $0.value) })
        #expect(m["correct"] == 0 && m["accuracy"] == 0)
        #expect(m["meanCongruentTime"]! == nil && m["meanIncongruentTime"]! == nil && m["interference"]! == nil)
    }

    @Test func aStepStoppedEarlyHasNoMeasures() throws {
        let result = try StroopModule().result(of: step, content: content, posted: document([(1, 1.5, "red", "red", "red")], complete: false))
        #expect(result.measures.allSatisfy { $0.value == nil })
    }

    @Test func attemptsThatCannotBeKeptAreRefused() {
        for (posted, path) in [
            (document([(1, 0.5, "red", "red", "red")], complete: false), "attempts[0].endTime"),
            (document([(1, 1.5, "purple", "red", "red")], complete: false), "attempts[0].text"),
            (document([(1, 1.5, "red", "red", "red"), (1.2, 1.6, "red", "red", "red")], complete: false), "attempts[1].startTime"),
            (document([(1, 1.5, "red", "red", "red")]), "attempts"),
        ] {
            do {
                _ = try StroopModule().result(of: step, content: content, posted: posted)
                Issue.record("accepted: \(String(decoding: posted, as: UTF8.self))")
            } catch {
                #expect(error.path == path, "\(error)")
            }
        }
    }
}
