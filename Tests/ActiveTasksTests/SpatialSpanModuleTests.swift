import Foundation
import Research
import Testing
@testable import ActiveTasks

/// The spatial span module replays the test's rules over the posted games: spans, the end of the test, statuses and
/// the measures by hand.
struct SpatialSpanModuleTests {
    let step = Step(identifier: "spatialSpan", kind: .active(ActiveStepContent(module: "spatialSpan")), isOptional: false)

    func content(tests: Int = 4, failures: Int = 2, reversed: Bool = false) -> ActiveStepContent {
        ActiveStepContent(module: "spatialSpan", settings: ["initialSpan": .number(3), "minimumSpan": .number(2), "maximumSpan": .number(5),
                                                             "playSpeed": .number(1), "maximumTests": .number(Double(tests)),
                                                             "maximumConsecutiveFailures": .number(Double(failures)), "requireReversal": .flag(reversed)])
    }

    /// Targets on a 300 × 300 board: square i at column i % 3, row i / 3, 100 px each; a touch at its centre.
    func touches(_ targets: [Int], from start: Double) -> String {
        targets.enumerated().map { index, target in
            #"{"timestamp":\#(start + Double(index) * 0.5),"targetIndex":\#(target),"location":{"x":\#(Double(target % 3) * 100 + 50),"y":\#(Double(target / 3) * 100 + 50)}}"#
        }.joined(separator: ",")
    }

    func document(_ games: [([Int], [Int])], complete: Bool = true) -> Data {
        let rects = (0..<9).map { #"{"x":\#(($0 % 3) * 100),"y":\#(($0 / 3) * 100),"width":100,"height":100}"# }.joined(separator: ",")
        let records = games.enumerated().map { index, game in
            #"{"sequence":[\#(game.0.map(String.init).joined(separator: ","))],"touchSamples":[\#(touches(game.1, from: Double(index) * 10 + 5))]}"#
        }.joined(separator: ",")
        return Data(#"{"stepViewSize":{"width":300,"height":300},"targetRects":[\#(rects)],"gameRecords":[\#(records)],"complete":\#(complete)}"#.utf8)
    }

    @Test func spansFollowTheRulesAndTheMeasuresFollowTheGames() throws {
        // Span 3 won, span 4 won, span 5 lost at the third touch, span 4 won.
        let games = [([0, 4, 8], [0, 4, 8]), ([1, 2, 3, 4], [1, 2, 3, 4]), ([5, 6, 7, 8, 0], [5, 6, 1]), ([2, 4, 6, 8], [2, 4, 6, 8])]
        let result = try SpatialSpanModule().result(of: step, content: content(), posted: document(games))
        let m = Dictionary(uniqueKeysWithValues: result.measures.map { ($0.identifier, $0.value) })
        #expect(m["score"] == 11 && m["maximumSpan"] == 4 && m["numberOfGames"] == 4 && m["numberOfFailures"] == 1)
        guard case .object(let members) = result.samples, case .array(let records)? = members.first(where: { $0.key == "gameRecords" })?.value else {
            Issue.record("no games"); return
        }
        #expect(records.map { $0["gameStatus"] } == [.string("success"), .string("success"), .string("failure"), .string("success")])
    }

    @Test func reversedSequencesAreTappedBackwards() throws {
        let result = try SpatialSpanModule().result(of: step, content: content(tests: 1, reversed: true), posted: document([([0, 4, 8], [8, 4, 0])]))
        #expect(result.measure("score")?.value == 3)
    }

    @Test func failuresInARowEndTheTestAndAllLostGivesNoSpan() throws {
        let games = [([0, 4, 8], [1]), ([2, 3], [3])]
        let result = try SpatialSpanModule().result(of: step, content: content(), posted: document(games))
        #expect(result.measure("score")?.value == 0 && result.measure("maximumSpan")?.value == nil && result.measure("numberOfFailures")?.value == 2)
    }

    @Test func aTestStoppedHalfWayKeepsItsGamesAndHasNoScore() throws {
        let result = try SpatialSpanModule().result(of: step, content: content(), posted: document([([0, 4, 8], [0, 4])], complete: false))
        #expect(!result.isComplete && result.measures.allSatisfy { $0.value == nil })
    }

    @Test func gamesThatBreakTheRulesAreRefused() {
        for (games, complete, path) in [
            ([([0, 4, 8, 1], [0, 4, 8, 1])], false, "gameRecords[0].sequence"),                     // the first span is 3
            ([([0, 4, 8], [0, 4, 8]), ([1, 2, 3], [1, 2, 3])], false, "gameRecords[1].sequence"),    // after a success it is 4
            ([([0, 4, 8], [1, 4])], false, "gameRecords[0].touchSamples[1]"),                        // a touch after a wrong one
            ([([0, 0, 8], [0, 0, 8])], false, "gameRecords[0].sequence[1]"),                         // a target twice
            ([([0, 4, 8], [1]), ([2, 3], [3]), ([2, 3], [2, 3])], false, "gameRecords[2]"),          // after 2 failures in a row
            ([([0, 4, 8], [0, 4, 8])], true, "gameRecords"),                                         // complete after 1 of 4 games
            ([([0, 4, 8], [0, 4]), ([1, 2], [1, 2])], false, "gameRecords[0].touchSamples"),         // an unfinished game, not the last
        ] {
            do {
                _ = try SpatialSpanModule().result(of: step, content: content(), posted: document(games, complete: complete))
                Issue.record("accepted: \(games)")
            } catch {
                #expect(error.path == path, "\(error)")
            }
        }
    }

    @Test func aTouchNamingAnotherSquareThanItsPlaceIsRefused() {
        var posted = String(decoding: document([([0, 4, 8], [0, 4, 8])], complete: false), as: UTF8.self)
        posted = posted.replacingOccurrences(of: #""targetIndex":4"#, with: #""targetIndex":5"#)
        #expect(throws: ActiveSamplesError.self) { try SpatialSpanModule().result(of: step, content: content(), posted: Data(posted.utf8)) }
    }
}
