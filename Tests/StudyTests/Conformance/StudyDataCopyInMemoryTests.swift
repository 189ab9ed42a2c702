import CareStore
import Foundation
import Study
import StudyFHIR
import StudyKitEnvironment
import StudySQLite
import Testing

/// ``StudyDataCopy`` between backends without PostgreSQL: the server's SQLite file read, the in-memory storage written,
/// so that the new reader primitive (`sessionsWithTokenHashes`) is exercised on both and a copied session still signs
/// its participant in.
@Suite("StudyDataCopy (SQLite to memory)")
struct StudyDataCopyInMemoryTests {
    @Test func aStudyCopiedIntoMemoryHasEveryRowAndItsSessionsStillSignIn() async throws {
        let zone = TimeZone(identifier: "Asia/Tokyo")!
        let sqlite = try SQLiteStudyDatabase.inMemory()
        let study = try StudyLoader.load(folder: StudyFixtures.recover, surveyFormats: [FHIRSurveyFormat()])
        let workflow = ParticipantWorkflow(study: study, data: sqlite, environment: .live, consentKey: .generate())
        let invitation = try await sqlite.studyStore.createInvitation(label: nil, expiresAt: nil)
        _ = try await sqlite.studyStore.createInvitation(label: "unused", expiresAt: nil)
        let participant = try await workflow.enrol(invitationCode: invitation.code, timeZone: zone, language: "en")
        let signedIn = try await sqlite.studyStore.createSession(participantID: participant.id, lifetime: 3600)
        let revoked = try await sqlite.studyStore.createSession(participantID: participant.id, lifetime: 3600)
        _ = try await sqlite.studyStore.revokeSession(id: revoked.session.id, participantID: participant.id)
        let outcome = try await OnboardingGate(careStore: sqlite.careStore, environment: .live).recordCompletion(participantID: participant.id,
                                                                                                                  timeZone: zone)
        _ = try await sqlite.careStore.deleteOutcomes([outcome])
        _ = try await sqlite.researchers.addResearcher(email: "pi@example.org", role: .admin)

        let storage = sqlite.sqliteStudyStore.storage
        let copy = try await StudyDataCopy.read(study: storage, researchers: storage.researcherAccounts.storage, care: sqlite.sqliteCareStore.storage)
        #expect(copy.sessions.count == 2 && copy.outcomes.count == 1 && copy.outcomes[0].deletedDate != nil)

        let researchers = InMemoryResearcherStorage()
        let target = InMemoryStudyStorage(researchers: InMemoryResearcherAccounts(storage: researchers, environment: .live))
        let care = InMemoryCareStorage()
        // Three storages, three nested transactions (PostgreSQL's one transaction lends all three writers at once).
        try await target.write { study in
            let study = Lent(study)
            try await researchers.write { team in
                let team = Lent(team)
                try await care.write { careRows in try await copy.write(study: study.value, researchers: team.value, care: careRows) }
            }
        }
        let written = try await StudyDataCopy.read(study: target, researchers: researchers, care: care)
        #expect(written.counts == copy.counts)
        #expect(written.counts["session"] == 2 && written.counts["outcome (deleted)"] == 1 && written.counts["researcher"] == 1)
        let store = StorageBackedStudyStore(storage: target, environment: .live)
        #expect(try await store.session(token: signedIn.token)?.id == signedIn.session.id)
        #expect(try await store.sessions(participantID: participant.id).first { $0.id == revoked.session.id }?.revokedAt != nil)
        #expect(try await store.invitations().map(\.usedBy) == sqlite.studyStore.invitations().map(\.usedBy))
    }
}

/// A writer handed to a nested transaction of another storage, used only while the outer one runs.
private struct Lent<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
