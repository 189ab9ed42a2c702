import Foundation
import Research
import Testing
@testable import ActiveTasks

/// The PSAT module: right sums and dyads by hand, and samples that break the pace or the digits' rules.
struct PSATModuleTests {
    let content = ActiveStepContent(module: "psat", settings: ["presentationMode": .text("visual"), "interStimulusInterval": .number(2),
                                                                "stimulusDuration": .number(1), "seriesLength": .number(4)])
    let step = Step(identifier: "psat", kind: .active(ActiveStepContent(module: "psat")), isOptional: false)

    func document(initial: Int = 3, _ samples: [(digit: Int, answer: Int, time: Double)], complete: Bool = true) -> Data {
        let list = samples.enumerated().map { index, sample in
            #"{"digit":\#(sample.digit),"onset":\#(Double(index + 1) * 2 + 0.004),"answer":\#(sample.answer),"time":\#(sample.time)}"#
        }.joined(separator: ",")
        return Data(#"{"initialDigit":\#(initial),"samples":[\#(list)],"complete":\#(complete)}"#.utf8)
    }

    @Test func rightSumsDyadsAndTimesByHand() throws {
        // 3, then 5 (8 right, 1.2 s), 2 (7 right, 0.8 s), 9 (10 wrong), 4 (13 right, 1.0 s): three right, one dyad.
        let posted = document([(5, 8, 1.2), (2, 7, 0.8), (9, 10, 1.5), (4, 13, 1.0)])
        let result = try PSATModule().result(of: step, content: content, posted: posted)
        #expect(result.measure("totalCorrect")?.value == 3 && result.measure("totalDyad")?.value == 1 && result.measure("accuracy")?.value == 75)
        #expect(abs((result.measure("meanTime")?.value ?? 0) - 1_000) < 1e-6)
    }

    @Test func noAnswersScoreNothingAndHaveNoTime() throws {
        let result = try PSATModule().result(of: step, content: content, posted: document([(5, -1, 2), (2, -1, 2), (9, -1, 2), (4, -1, 2)]))
        #expect(result.measure("totalCorrect")?.value == 0 && result.measure("totalDyad")?.value == 0 && result.measure("meanTime")?.value == nil)
    }

    @Test func aStepStoppedEarlyHasNoMeasures() throws {
        let result = try PSATModule().result(of: step, content: content, posted: document([(5, 8, 1.2)], complete: false))
        #expect(result.measures.allSatisfy { $0.value == nil })
    }

    @Test func samplesThatBreakTheRulesAreRefused() {
        for (posted, path) in [
            (document([(3, 6, 1)], complete: false), "samples[0].digit"),        // the digit before again
            (document([(5, 18, 1)], complete: false), "samples[0].answer"),      // no such key
            (document([(5, -1, 1)], complete: false), "samples[0].time"),        // no answer, but a time
            (document([(5, 8, 2.5)], complete: false), "samples[0].time"),       // past the next digit
            (document([(5, 8, 1)]), "samples"),                                  // complete after one of four
            (Data(#"{"initialDigit":3,"samples":[{"digit":5,"onset":3.5,"answer":8,"time":1}],"complete":false}"#.utf8), "samples[0].onset"),
        ] {
            do {
                _ = try PSATModule().result(of: step, content: content, posted: posted)
                Issue.record("accepted \(path)")
            } catch {
                #expect(error.path == path, "\(error)")
            }
        }
    }
}
