import Foundation
import Research
import Testing
@testable import ActiveTasks

/// The trail making module: wrong taps worked out from the order, the measures by hand, and taps that cannot be kept.
struct TrailMakingModuleTests {
    let content = ActiveStepContent(module: "trailMaking", settings: ["trailType": .text("B")])
    let step = Step(identifier: "trailMaking", kind: .active(ActiveStepContent(module: "trailMaking")), isOptional: false)

    /// Circle i at (i × 20, 10), 20 px square, in a 300 × 100 area; a tap at its centre.
    func document(_ taps: [(Double, Int)], complete: Bool = true, location: ((Int) -> (Double, Double))? = nil) -> Data {
        let rects = (0..<13).map { #"{"x":\#($0 * 20),"y":10,"width":20,"height":20}"# }.joined(separator: ",")
        let list = taps.map { time, index in
            let (x, y) = location?(index) ?? (Double(index * 20 + 10), 20)
            return #"{"timestamp":\#(time),"index":\#(index),"location":{"x":\#(x),"y":\#(y)}}"#
        }.joined(separator: ",")
        return Data(#"{"stepViewSize":{"width":300,"height":100},"circleRects":[\#(rects)],"taps":[\#(list)],"complete":\#(complete)}"#.utf8)
    }

    @Test func wrongTapsAreCountedAndTheTimeIsTheLastCircles() throws {
        // The trail in order, with two wrong taps: circle 5 tapped while 3 was next, and circle 0 again while 8 was next.
        var taps: [(Double, Int)] = []
        var time = 1.0
        for index in 0..<13 {
            if index == 3 { taps.append((time, 5)); time += 0.4 }
            if index == 8 { taps.append((time, 0)); time += 0.4 }
            taps.append((time, index))
            time += 0.75
        }
        let result = try TrailMakingModule().result(of: step, content: content, posted: document(taps))
        #expect(result.measure("numberOfErrors")?.value == 2)
        #expect(abs((result.measure("totalTime")?.value ?? 0) - (1 + 12 * 0.75 + 0.8)) < 1e-9)
        guard case .object(let members) = result.samples, case .array(let stored)? = members.first(where: { $0.key == "taps" })?.value else {
            Issue.record("no taps"); return
        }
        #expect(stored.filter { $0["incorrect"] == .bool(true) }.count == 2)
        #expect(members.first { $0.key == "trailType" }?.value == .string("B"))
    }

    @Test func anUnfinishedTrailHasNoMeasures() throws {
        let result = try TrailMakingModule().result(of: step, content: content, posted: document([(1, 0), (2, 1)], complete: false))
        #expect(result.measures.allSatisfy { $0.value == nil })
    }

    @Test func tapsThatCannotBeKeptAreRefused() {
        let full = (0..<13).map { (Double($0) + 1, $0) }
        for (posted, path) in [
            (document(full + [(20, 3)], complete: true), "taps[13]"),                                   // after the last circle
            (document([(2, 0), (1, 1)], complete: false), "taps[1].timestamp"),                          // back in time
            (document([(1, 13)], complete: false), "taps[0].index"),                                     // no such circle
            (document([(1, 0)], complete: false, location: { _ in (150, 80) }), "taps[0].location"),     // not on the circle
            (document([(1, 0), (2, 1)], complete: true), "taps"),                                        // "finished" at circle 2
        ] {
            do {
                _ = try TrailMakingModule().result(of: step, content: content, posted: posted)
                Issue.record("accepted \(path)")
            } catch {
                #expect(error.path == path, "\(error)")
            }
        }
    }
}
