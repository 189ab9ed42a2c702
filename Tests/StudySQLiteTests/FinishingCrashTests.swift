import CareStore
import Foundation
import GRDB
import Study
import StudySQLite
import Testing

/// Finishing the onboarding (run, sealed consent record, gate outcome) and finishing a survey (run, outcome) are each
/// one transaction: a process killed anywhere, including inside the commit between the rows of one store and the
/// other's, leaves all of the action or none of it.
@Suite("A participant action survives a killed process whole or not at all")
struct FinishingCrashTests {
    static let recover = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples/studies/recover")

    /// Runs the writer in `--finishing` mode until it has printed `lines` lines (then kills it), or until it kills
    /// itself inside commit `crashInCommit`; returns the participants it reported onboarded and surveyed.
    static func finishAndKill(path: String, lines wanted: Int, crashInCommit: Int?) throws -> (onboarded: Set<String>, surveyed: Set<String>) {
        let arguments = [path, "--finishing", recover.path, "--process-crash"] + (crashInCommit.map { ["--crash-in-commit", "\($0)"] } ?? [])
        let lines = try DurabilityTests.runAndKill(arguments, afterLines: wanted)
        var onboarded = Set<String>(), surveyed = Set<String>()
        for line in lines {
            let parts = line.split(separator: " ").map(String.init)
            switch parts.first {
            case "onboarded": onboarded.insert(parts[1])
            case "surveyed": surveyed.insert(parts[1])
            default: Issue.record("unexpected line \(line)")
            }
        }
        return (onboarded, surveyed)
    }

    /// What one participant's two actions left in the file.
    struct Left: Equatable {
        var onboardingRunCompleted: Bool
        var consentRecords: Int
        var gateOutcome: Bool
        var surveyRunCompleted: Bool
        var surveyOutcome: Bool

        /// The onboarding's three parts, all there or none.
        var onboardingIsWholeOrAbsent: Bool {
            (onboardingRunCompleted && consentRecords == 1 && gateOutcome) || (!onboardingRunCompleted && consentRecords == 0 && !gateOutcome)
        }
        var onboardingIsWhole: Bool { onboardingRunCompleted && consentRecords == 1 && gateOutcome }
        var surveyIsWholeOrAbsent: Bool { surveyRunCompleted == surveyOutcome }
    }

    static func left(by participant: StudyParticipant, in database: SQLiteStudyDatabase) async throws -> Left {
        let runs = try await database.studyStore.runs(participantID: participant.id, taskID: nil)
        let records = try await database.studyStore.consentRecords(participantID: participant.id)
        var query = OutcomeQuery()
        query.taskIDs = [StudyCareIdentifiers.taskID(participant: participant.id, task: StudyTaskDefinition.onboardingID)]
        let gate = try await database.careStore.fetchOutcomes(query: query)
        query.taskIDs = [StudyCareIdentifiers.taskID(participant: participant.id, task: "pain")]
        let pain = try await database.careStore.fetchOutcomes(query: query)
        return Left(onboardingRunCompleted: runs.contains { $0.taskID == StudyTaskDefinition.onboardingID && $0.state == .completed },
                    consentRecords: records.count, gateOutcome: !gate.isEmpty,
                    surveyRunCompleted: runs.contains { $0.taskID == "pain" && $0.state == .completed }, surveyOutcome: !pain.isEmpty)
    }

    /// 24 kills: 12 at chosen commits, from inside the transaction after the run and the consent record are written and
    /// before the outcome is; 12 at whatever point the writer has reached after a number of acknowledged actions.
    @Test func everyKillLeavesEachActionWholeOrAbsent() async throws {
        try #require(FileManager.default.fileExists(atPath: Self.recover.path))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("finishing-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SystemRandomNumberGenerator()
        var killedInside = 0
        for round in 0..<24 {
            let path = folder.appendingPathComponent("study-\(round).sqlite").path
            let inside = round % 2 == 0
            let crashAt = inside ? Int.random(in: 1...8, using: &generator) : nil
            let reported = try Self.finishAndKill(path: path, lines: inside ? 1_000 : Int.random(in: 1...12, using: &generator), crashInCommit: crashAt)
            let database = try SQLiteStudyDatabase(path: path)
            let participants = try await database.studyStore.participants()
            var halfDone = 0
            for participant in participants {
                // Enrolled with their care plan, or not at all.
                var plan = CareQuery()
                plan.ids = [StudyCareIdentifiers.carePlanID(participant: participant.id)]
                #expect(try await database.careStore.fetch(CarePlan.self, query: plan).count == 1, "round \(round): \(participant.id) has no care plan")
                let left = try await Self.left(by: participant, in: database)
                #expect(left.onboardingIsWholeOrAbsent, "round \(round): \(participant.id): \(left)")
                #expect(left.surveyIsWholeOrAbsent, "round \(round): \(participant.id): \(left)")
                if reported.onboarded.contains(participant.id) { #expect(left.onboardingIsWhole, "round \(round): acknowledged, then lost") }
                if reported.surveyed.contains(participant.id) { #expect(left.surveyRunCompleted && left.surveyOutcome) }
                if !left.onboardingRunCompleted || !left.surveyRunCompleted { halfDone += 1 }
            }
            if let crashAt {
                // The writer died inside commit `crashAt`: that action left nothing, and every earlier one is whole.
                #expect(reported.onboarded.count + reported.surveyed.count == crashAt - 1, "round \(round)")
                #expect(halfDone == 1, "round \(round): the participant of the killed commit")
                killedInside += 1
            }
            let integrity = try await database.database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            #expect(integrity == ["ok"])
        }
        #expect(killedInside == 12)
    }
}
