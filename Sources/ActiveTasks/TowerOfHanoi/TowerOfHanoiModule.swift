import Foundation
import JSONDiagnostics
import Research

/// Runs Tower of Hanoi steps: replays every posted move (each must be legal; none may follow the solution), checks
/// their times, and computes ``TowerOfHanoiSummary``.
public struct TowerOfHanoiModule: ActiveModule {
    /// The module's name in active steps.
    public static let name = "towerOfHanoi"
    public var name: String { Self.name }
    public var measureNames: [String] { TowerOfHanoiSummary.measureNames }

    /// Creates the module.
    public init() {}

    /// The most moves a step may record.
    static let moveLimit = 2_000

    public func result(of step: Step, content: ActiveStepContent, posted: Data) throws(ActiveSamplesError) -> ActiveStepResult {
        let samples = try Self.samples(posted, content: content)
        return result(of: step, isComplete: samples.isComplete, samples: samples.tree, measures: TowerOfHanoiSummary(samples).measures)
    }

    static func samples(_ posted: Data, content: ActiveStepContent) throws(ActiveSamplesError) -> TowerOfHanoiSamples {
        let disks = Int(content.number("numberOfDisks") ?? 3)
        let members = try PostedSamples.members(try PostedSamples.document(posted), "", known: ["firstMoveTime", "moves", "complete"],
                                                required: ["firstMoveTime", "moves", "complete"])
        let complete = try PostedSamples.bool(members["complete"], "complete")
        var towers = TowerOfHanoiSamples.start(disks)
        var moves: [TowerOfHanoiSamples.Move] = []
        for (index, element) in try PostedSamples.array(members["moves"], "moves", limit: moveLimit).enumerated() {
            let path = "moves[\(index)]"
            if towers[2].count == disks { throw ActiveSamplesError(path: path, message: "comes after the puzzle was solved") }
            let fields = try PostedSamples.members(element, path, known: ["timestamp", "donorTowerIndex", "recipientTowerIndex"],
                                                   required: ["timestamp", "donorTowerIndex", "recipientTowerIndex"])
            let earliest = moves.last?.timestamp ?? 0
            let timestamp = try PostedSamples.number(fields["timestamp"], "\(path).timestamp", in: index == 0 ? 0...0 : earliest...earliest + 3_600)
            guard let donor = fields["donorTowerIndex"]?.integerValue, let recipient = fields["recipientTowerIndex"]?.integerValue else {
                throw ActiveSamplesError(path: path, message: "needs donorTowerIndex and recipientTowerIndex as whole numbers, 0 to 2")
            }
            let move = TowerOfHanoiSamples.Move(timestamp: timestamp, donorTowerIndex: donor, recipientTowerIndex: recipient)
            guard TowerOfHanoiSamples.apply(move, to: &towers) else {
                throw ActiveSamplesError(path: path, message: "moves from tower \(donor) to tower \(recipient), which the rules do not allow")
            }
            moves.append(move)
        }
        let firstMoveTime = moves.isEmpty ? nil : try PostedSamples.number(members["firstMoveTime"], "firstMoveTime", in: 0...86_400)
        if complete, towers[2].count != disks {
            throw ActiveSamplesError(path: "moves", message: "leave the puzzle unsolved, but the step says it was finished")
        }
        return TowerOfHanoiSamples(numberOfDisks: disks, firstMoveTime: firstMoveTime, moves: moves, isComplete: complete)
    }
}
