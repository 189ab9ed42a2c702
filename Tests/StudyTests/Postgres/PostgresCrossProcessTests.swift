import CareStore
import Consent
import Foundation
import Research
import Study
import StudyFHIR
import StudyKitEnvironment
import StudyPostgres
import PostgresTestSupport
import Testing

/// Two server processes over one PostgreSQL schema, each with its own connection pool, stores and workflow: what one
/// decides, the other is held to at once, whatever it remembers.
@Suite("Several processes, one PostgreSQL database", .enabled(if: PostgresTestDatabase.isConfigured, Comment(rawValue: PostgresTestDatabase.notConfigured)))
struct PostgresCrossProcessTests {
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    /// Recover, and the workflows of two processes over one fresh schema (two pools); a participant enrolled through
    /// the first at 10:00 on 4 March 2026 in Tokyo, with a consent record and the gate's outcome.
    private func twoProcesses() async throws
        -> (one: ParticipantWorkflow, two: ParticipantWorkflow, first: PostgresStudyDatabase, participant: StudyParticipant,
            consent: SealedConsentRecord, clock: TestClock) {
        let clock = TestClock(wallTime(2026, 3, 4, 10, 0, in: tokyo))
        let environment = StudyKitEnvironment(now: { clock.now }, makeUUID: { UUID() })
        let schema = try PostgresTestDatabase.freshSchema()
        let first = try await PostgresStudyDatabase.open(client: PostgresTestDatabase.client.get(), schema: schema, environment: environment)
        let second = try await PostgresStudyDatabase.open(client: PostgresTestDatabase.otherClient.get(), schema: schema, environment: environment)
        let study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let key = ConsentSigningKey.generate()
        let one = ParticipantWorkflow(study: study, data: first, environment: environment, consentKey: key)
        let two = ParticipantWorkflow(study: study, data: second, environment: environment, consentKey: key)
        let invitation = try await first.studyStore.createInvitation(label: nil, expiresAt: nil)
        let participant = try await one.enrol(invitationCode: invitation.code, timeZone: tokyo, language: "en")
        let consent = try sealedConsent(participant: participant.id)
        try await first.studyStore.appendConsentRecord(consent)
        _ = try await OnboardingGate(careStore: first.careStore, environment: environment).recordCompletion(participantID: participant.id, timeZone: tokyo)
        return (one, two, first, participant, consent, clock)
    }

    /// A withdrawal recorded through the first process is refused data by the second at once: a run saved, a step
    /// posted and an outcome recorded through it, although the second's workflow said "not withdrawn" a moment before
    /// and its own counters (``StudyStore/revision(of:)``) saw no change. The database refuses them
    /// (`PostgresWithdrawalGuard`'s triggers), and the refusal is ``StudyRefusal/withdrawn`` on every path.
    @Test func aWithdrawalThroughOneProcessIsRefusedByTheOtherAtOnce() async throws {
        let (one, two, first, participant, consent, clock) = try await twoProcesses()
        clock.set(wallTime(2026, 3, 5, 20, 0, in: tokyo))
        let feed = try await two.today(for: participant)
        let pain = try #require(feed.cards.first { $0.taskID == "pain" }?.events.first?.occurrence)
        let run = try await two.startRun(taskID: "pain", occurrence: pain, for: participant)
        // The second process has checked, and remembers: not withdrawn.
        #expect(try await two.withdrawal.isWithdrawn(participant) == false)
        let revision = two.data.studyStore.revision(of: participant.id)

        var leaving = ParticipantChange(participantID: participant.id)
        leaving.consentRecords = [try ConsentRecorder(signingKey: .generate()).sealWithdrawal(of: consent, reason: nil)]
        leaving.withdrawal = ParticipantChange.Withdrawal(deletesData: false)
        _ = try await first.commit(leaving)
        #expect(try await one.withdrawal.isWithdrawn(participant))
        #expect(two.data.studyStore.revision(of: participant.id) == revision, "nothing told the second process")

        await #expect(throws: StudyRefusal.withdrawn) {
            _ = try await two.applyStep(to: run, for: participant) { session -> String? in
                _ = try session.setAnswer(text: "4")
                try session.goForward()
                return nil
            }
        }
        await #expect(throws: StudyRefusal.withdrawn) { try await two.record(taskID: "exercises", occurrence: 0, for: participant) }
        let (restoration, _) = try pausedRun()
        await #expect(throws: StudyRefusal.withdrawn) {
            try await two.data.studyStore.saveRun(TaskRun(id: restoration.taskRunUUID, participantID: participant.id, taskID: "pain", occurrence: pain,
                                                          state: .inProgress, restorationData: restoration))
        }
        // Nothing of it was stored. (The second process's own check still says "not withdrawn": it is kept while its
        // `revision(of:)` stays the same, and refused writes move nothing. What holds the line is the database.)
        #expect(try await first.studyStore.run(id: restoration.taskRunUUID, participantID: participant.id) == nil)
    }

    /// Two processes posting the steps of one run at once, each until the run has ended: exactly one post finishes it,
    /// and the event gets one outcome; the other process's posts meanwhile are told the run is being finished, or has
    /// ended.
    @Test func twoProcessesPostingOneRunFinishItOnce() async throws {
        let (one, two, first, participant, _, clock) = try await twoProcesses()
        clock.set(wallTime(2026, 3, 5, 20, 0, in: tokyo))
        let pain = try #require(try await two.today(for: participant).cards.first { $0.taskID == "pain" }?.events.first?.occurrence)
        let run = try await two.startRun(taskID: "pain", occurrence: pain, for: participant)
        let finishes = try await withThrowingTaskGroup(of: Int.self) { group in
            for workflow in [one, two] {
                group.addTask {
                    var finished = 0
                    for _ in 0..<40 {
                        do {
                            if case .finished = try await workflow.applyStep(to: run, for: participant, Self.answer) { finished += 1 }
                        } catch StudyRefusal.runEnded {
                            break
                        }
                    }
                    return finished
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(finishes == 1)
        #expect(try await first.studyStore.run(id: run, participantID: participant.id)?.state == .completed)
        let card = try #require(try await one.today(for: participant).cards.first { $0.taskID == "pain" })
        #expect(card.events.first { $0.occurrence == pain }?.values.map(\.value) == [.integer(4)])
    }

    /// Pain 4 on the pain step; every other step skipped, or left forward.
    @Sendable private static func answer(_ session: inout TaskSession) throws -> String? {
        if session.currentStep?.identifier == "painLevel" {
            _ = try session.setAnswer(text: "4")
            try session.goForward()
        } else {
            do { try session.skip() } catch { try session.goForward() }
        }
        return nil
    }
}
