import Foundation
import Research
import Testing
@testable import ActiveTasks

/// The Tower of Hanoi module replays the moves: solved or not, the measures, and moves the rules forbid.
struct TowerOfHanoiModuleTests {
    let content = ActiveStepContent(module: "towerOfHanoi", settings: ["numberOfDisks": .number(2)])
    let step = Step(identifier: "towerOfHanoi", kind: .active(ActiveStepContent(module: "towerOfHanoi")), isOptional: false)

    func document(_ moves: [(Double, Int, Int)], complete: Bool = true) -> Data {
        let list = moves.map { #"{"timestamp":\#($0.0),"donorTowerIndex":\#($0.1),"recipientTowerIndex":\#($0.2)}"# }.joined(separator: ",")
        return Data(#"{"firstMoveTime":2.5,"moves":[\#(list)],"complete":\#(complete)}"#.utf8)
    }

    @Test func theFewestMovesSolveItWithNoExtra() throws {
        let result = try TowerOfHanoiModule().result(of: step, content: content, posted: document([(0, 0, 1), (1.5, 0, 2), (2.25, 1, 2)]))
        #expect(result.measure("numberOfMoves")?.value == 3 && result.measure("extraMoves")?.value == 0 && result.measure("totalTime")?.value == 2.25)
        #expect(result.samples["puzzleWasSolved"] == .bool(true))
    }

    @Test func extraMovesAreCounted() throws {
        // Not the shortest way: the small disk to 1, to 2, back to 1; the large to 2; the small to 0 and then to 2. Six moves
        // where three would do.
        let moves = [(0.0, 0, 1), (1, 1, 2), (2, 2, 1), (3, 0, 2), (4, 1, 0), (5, 0, 2)]
        let result = try TowerOfHanoiModule().result(of: step, content: content, posted: document(moves))
        #expect(result.measure("numberOfMoves")?.value == 6 && result.measure("extraMoves")?.value == 3)
    }

    @Test func aPuzzleLeftUnsolvedHasNoMeasures() throws {
        let result = try TowerOfHanoiModule().result(of: step, content: content, posted: document([(0, 0, 1)], complete: false))
        #expect(result.measures.allSatisfy { $0.value == nil } && result.samples["puzzleWasSolved"] == .bool(false))
    }

    @Test func movesTheRulesForbidAreRefused() {
        for (moves, complete, path) in [
            ([(0.0, 0, 1), (1, 0, 1)], false, "moves[1]"),              // the larger disk onto the smaller
            ([(0.0, 2, 1)], false, "moves[0]"),                         // from an empty tower
            ([(0.5, 0, 1)], false, "moves[0].timestamp"),               // the first move is at 0
            ([(0.0, 0, 1), (1, 0, 2), (2, 1, 2), (3, 2, 0)], false, "moves[3]"), // after the solution
            ([(0.0, 0, 1)], true, "moves"),                             // "finished" unsolved
            ([(0.0, 0, 3)], false, "moves[0]"),                         // no fourth tower
        ] {
            do {
                _ = try TowerOfHanoiModule().result(of: step, content: content, posted: document(moves, complete: complete))
                Issue.record("accepted \(moves)")
            } catch {
                #expect(error.path == path, "\(error)")
            }
        }
    }
}
