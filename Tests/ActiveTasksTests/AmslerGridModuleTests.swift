import Foundation
import Research
import Testing
@testable import ActiveTasks

/// The Amsler grid module: the marked area by hand, an answer with no marks, and marks that cannot be kept.
struct AmslerGridModuleTests {
    let content = ActiveStepContent(module: "amslerGrid", settings: ["eye": .text("left")])
    let step = Step(identifier: "amslerGrid.left", kind: .active(ActiveStepContent(module: "amslerGrid")), isOptional: false)

    func document(_ paths: [[(Double, Double, Double)]], complete: Bool = true) -> Data {
        let list = paths.map { path in "[" + path.map { #"{"x":\#($0.0),"y":\#($0.1),"t":\#($0.2)}"# }.joined(separator: ",") + "]" }.joined(separator: ",")
        return Data(#"{"gridSize":400,"paths":[\#(list)],"complete":\#(complete)}"#.utf8)
    }

    @Test func aLineAcrossTheGridMarksFourRowsOfCells() throws {
        // Along the line between rows 49 and 50 (y = 200 of 400): the rows whose centres lie within 2 % of the side are
        // 0.5 and 1.5 cells away, rows 48 to 51; those 2.5 cells away are not.
        let result = try AmslerGridModule().result(of: step, content: content, posted: document([[(0, 200, 1), (400, 200, 2)]]))
        #expect(abs((result.measure("markedArea")?.value ?? 0) - 4) < 1e-9)
        #expect(result.measure("markCount")?.value == 1)
    }

    @Test func aDotMarksTheTwelveCellsAroundIt() throws {
        // A touch at the grid's centre, a cell corner: the 12 cells whose centres are within two cells of it.
        let result = try AmslerGridModule().result(of: step, content: content, posted: document([[(200, 200, 1)]]))
        #expect(abs((result.measure("markedArea")?.value ?? 0) - 0.12) < 1e-9)
    }

    @Test func noMarksIsAnAnswerAndLeavingIsNot() throws {
        let seen = try AmslerGridModule().result(of: step, content: content, posted: document([]))
        #expect(seen.measure("markedArea")?.value == 0 && seen.measure("markCount")?.value == 0)
        let left = try AmslerGridModule().result(of: step, content: content, posted: document([], complete: false))
        #expect(left.measures.allSatisfy { $0.value == nil })
    }

    @Test func marksThatCannotBeKeptAreRefused() {
        let cases: [([[(Double, Double, Double)]], String)] = [
            ([[(0, 500, 1)]], "paths[0][0].y"),
            ([[(0, 0, 2), (1, 1, 1)]], "paths[0][1].t"),
            ([[]], "paths[0]"),
        ]
        for (paths, path) in cases {
            do {
                _ = try AmslerGridModule().result(of: step, content: content, posted: document(paths))
                Issue.record("accepted \(paths)")
            } catch {
                #expect(error.path == path, "\(error)")
            }
        }
    }
}
