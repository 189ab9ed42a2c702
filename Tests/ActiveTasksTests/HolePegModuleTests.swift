import Foundation
import Research
import Testing
@testable import ActiveTasks

/// The hole peg module: successes worked out from where each peg was let go, the measures by hand, the time limit.
struct HolePegModuleTests {
    func content(_ action: String) -> ActiveStepContent {
        ActiveStepContent(module: "holePeg", duration: 60, settings: ["action": .text(action), "direction": .text("right"), "numberOfPegs": .number(2),
                                                                       "threshold": .number(0.5), "hand": .text("right"), "dominant": .flag(true)])
    }
    let step = Step(identifier: "hole.peg.test.dominant.place", kind: .active(ActiveStepContent(module: "holePeg")), isOptional: false)

    /// A 400 × 300 area with a 60 px peg; the hole at (300, 120) 60 × 60 (centre 330, 150); the line at x = 250.
    func document(_ action: String, _ attempts: [(Double, Double, Double, Double)], timedOut: Bool = false, complete: Bool = true) -> Data {
        let target = action == "place" ? #""holeRect":{"x":300,"y":120,"width":60,"height":60}"# : #""lineX":250"#
        let list = attempts.map { #"{"start":\#($0.0),"end":\#($0.1),"from":{"x":45,"y":150},"to":{"x":\#($0.2),"y":\#($0.3)}}"# }.joined(separator: ",")
        return Data(#"{"stepViewSize":{"width":400,"height":300},"pegSize":60,\#(target),"attempts":[\#(list)],"timedOut":\#(timedOut),"complete":\#(complete)}"#.utf8)
    }

    @Test func placesCountWithinTheThresholdOfTheHole() throws {
        // Threshold 0.5 of 60 px: the centre within 15 px of the hole's centre each way. 20 px off fails; 10 px off succeeds.
        let posted = document("place", [(1, 2, 350, 150), (2.5, 3.5, 340, 160), (4, 5.25, 330, 150)])
        let result = try HolePegModule().result(of: step, content: content("place"), posted: posted)
        #expect(result.measure("totalSuccesses")?.value == 2 && result.measure("totalFailures")?.value == 1)
        #expect(result.measure("totalTime")?.value == 4.25 && result.measure("meanPegTime")?.value == 2.125)
        let moved = (295.0 * 295 + 10 * 10).squareRoot() + 285
        #expect(abs((result.measure("totalDistance")?.value ?? 0) - moved) < 0.001)
    }

    @Test func removesCountOnlyWholePegsPastTheLine() throws {
        // The peg's left edge must pass x = 250: its centre beyond 280.
        let result = try HolePegModule().result(of: step, content: content("remove"), posted: document("remove", [(1, 2, 270, 150), (3, 4, 290, 150), (5, 6, 300, 100)]))
        #expect(result.measure("totalSuccesses")?.value == 2 && result.measure("totalFailures")?.value == 1)
    }

    @Test func timeUpEndsTheStepWithWhatWasDone() throws {
        let result = try HolePegModule().result(of: step, content: content("place"), posted: document("place", [(1, 2, 330, 150)], timedOut: true))
        #expect(result.measure("totalSuccesses")?.value == 1 && result.measure("totalTime")?.value == 60)
        let stopped = try HolePegModule().result(of: step, content: content("place"), posted: document("place", [(1, 2, 330, 150)], complete: false))
        #expect(stopped.measures.allSatisfy { $0.value == nil })
    }

    @Test func attemptsThatCannotBeKeptAreRefused() {
        for (posted, path) in [
            (document("place", [(1, 2, 330, 150), (3, 4, 330, 150), (5, 6, 330, 150)]), "attempts[2]"),   // after the last peg
            (document("place", [(2, 1, 330, 150)], complete: false), "attempts[0].end"),                    // let go before picked up
            (document("place", [(1, 2, 330, 150), (70, 71, 330, 150)]), "attempts[1].start"),               // past the time limit
            (document("place", [(1, 2, 330, 150)]), "attempts"),                                            // "every peg done" with one
            (document("remove", [(1, 2, 330, 150)]).replacingLine(), "lineX"),
        ] {
            do {
                _ = try HolePegModule().result(of: step, content: content(path == "lineX" ? "remove" : "place"), posted: posted)
                Issue.record("accepted \(path)")
            } catch {
                #expect(error.path == path, "\(error)")
            }
        }
    }
}

private extension Data {
    /// The document with its line moved outside the area.
    func replacingLine() -> Data {
        Data(String(decoding: self, as: UTF8.self).replacingOccurrences(of: #""lineX":250"#, with: #""lineX":900"#).utf8)
    }
}
