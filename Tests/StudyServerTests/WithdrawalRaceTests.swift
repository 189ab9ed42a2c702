import CareStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import Testing

/// Leaving the study while the participant's other tabs and devices keep writing, and an investigator records the same
/// withdrawal at the same moment: the withdrawal is decided and written in one transaction, and the file refuses
/// every run and outcome of the participant's once it is stored.
@Suite("Withdrawal race")
struct WithdrawalRaceTests {
    typealias Fixture = ServerFixture

    /// 20 rounds, each a participant with three outcome writes and three run starts from the API in flight while they
    /// leave from settings and an investigator records their withdrawal, both with deletion: afterwards exactly one
    /// withdrawal record, no answer of 5xx, and nothing of theirs (no run but the onboarding's, no outcome but the
    /// gate's, no row inserted in the audit trail after the withdrawal record's) stored after the withdrawal.
    @Test func nothingOfTheParticipantIsStoredAfterTheirWithdrawalAndItIsRecordedOnce() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock, withdrawal: .delete)
        var enrolled: [StudyService.SignedIn] = []
        for _ in 0..<20 {
            let signedIn = try await Fixture.participant(of: service, zone: TimeZone(identifier: "Pacific/Auckland")!)
            try await Fixture.consent(of: service, for: signedIn, at: clock.now)
            enrolled.append(signedIn)
        }
        let participants = enrolled
        clock.set(Fixture.date("2026-03-05T03:00:00Z")) // the day after enrolment, when Recover's symptom log starts
        // Signed in now: a console session of an hour made at enrolment would have expired, and every investigator's
        // post would be refused as not signed in instead of racing the participant.
        let investigator = try await Fixture.researcher(of: service, role: .investigator)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            for signedIn in participants {
                let id = signedIn.participant.id
                let statuses = try await withThrowingTaskGroup(of: (String, Int).self) { group in
                    for writer in 0..<6 {
                        group.addTask {
                            var headers = HTTPFields()
                            headers[.authorization] = "Bearer \(signedIn.sessionToken)"
                            headers[.contentType] = "application/json"
                            let (path, body) = writer % 2 == 0
                                ? ("/api/v1/participant/events/symptoms/0/outcome", #"{"action":"log"}"#)
                                : ("/api/v1/participant/runs", #"{"task":"pain","occurrence":\#(1 + writer / 2)}"#)
                            let response = try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
                            return (path, Int(response.status.code))
                        }
                    }
                    group.addTask {
                        let response = try await client.execute(uri: "/settings/leave", method: .post, headers: Fixture.headers(signedIn, form: true),
                                                                body: ByteBuffer(string: Fixture.token(signedIn) + "&reason="))
                        return ("leave", Int(response.status.code))
                    }
                    group.addTask {
                        let response = try await client.execute(uri: "/console/participants/\(id)/withdraw", method: .post,
                                                                headers: Fixture.consoleForm(investigator.cookie),
                                                                body: ByteBuffer(string: investigator.csrf + "&reason=Asked+by+phone"))
                        return ("investigator", Int(response.status.code))
                    }
                    var statuses: [(String, Int)] = []
                    for try await status in group { statuses.append(status) }
                    return statuses
                }
                #expect(statuses.allSatisfy { $0.1 < 500 }, "\(statuses)")
                let withdrawals = statuses.filter { ($0.0 == "leave" || $0.0 == "investigator") && $0.1 == 303 }
                #expect(withdrawals.count == 1, "one of the two withdrawals is recorded, the other refused: \(statuses)")
                // The other is told the participant left: the console's 409, or the participant's own refusal (left: 403;
                // their session deleted with their data: 401).
                let refused = statuses.filter { ($0.0 == "leave" || $0.0 == "investigator") && $0.1 != 303 }
                #expect(refused.allSatisfy { $0.0 == "investigator" ? $0.1 == 409 : [401, 403].contains($0.1) }, "\(statuses)")
                let records = try await service.store.consentRecords(participantID: id)
                #expect(records.map(\.sealed.record.kind) == [.consent, .withdrawal])
                #expect(try await service.store.runs(participantID: id, taskID: nil).isEmpty, "no run of theirs outlives the withdrawal")
                var query = OutcomeQuery()
                query.taskIDs = Set(service.study.tasks.map { StudyCareIdentifiers.taskID(participant: id, task: $0.id) })
                #expect(try await service.careStore.fetchOutcomes(query: query).isEmpty, "no outcome of theirs outlives the withdrawal")
                let trail = try await service.data.auditEntries(participantID: id, limit: 10_000)
                let withdrawal = try #require(trail.first { $0.entity == "consentRecord" && $0.after?.contains("\"kind\":\"withdrawal\"") == true })
                let later = trail.filter { $0.sequence > withdrawal.sequence && $0.action != "delete" && ["taskRun", "outcome", "outcomeValue"].contains($0.entity) }
                #expect(later.isEmpty, "rows written after the withdrawal: \(later.map { "\($0.action) \($0.entity)" })")
            }
        }
        #expect(try await service.sqliteData.verifyAuditTrail() == nil)
    }
}
