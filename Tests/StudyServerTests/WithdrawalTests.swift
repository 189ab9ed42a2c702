import Consent
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import Testing

/// Leaving the study: from the participant's settings, or recorded by an investigator with a reason. A sealed
/// withdrawal record, and no new data from then on; what was collected stays, and the participant keeps their copy.
@Suite("Withdrawal")
struct WithdrawalTests {
    typealias Fixture = ServerFixture

    @Test func aParticipantLeavesFromSettingsAndTheServerTakesNoNewDataFromThem() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let kim = try await Fixture.participant(of: service, zone: TimeZone(identifier: "Asia/Seoul")!)
        let consent = try await Fixture.consent(of: service, for: kim, at: clock.now)
        _ = try await service.setLanguage("ko", for: kim.participant)
        let signedIn = try #require(try await service.signedIn(sessionToken: kim.sessionToken))
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let settings = String(buffer: try await client.execute(uri: "/settings", method: .get, headers: Fixture.headers(signedIn)).body)
            #expect(settings.contains("연구 참여 중단") && settings.contains("href=\"/settings/leave\""))
            let confirm = String(buffer: try await client.execute(uri: "/settings/leave", method: .get, headers: Fixture.headers(signedIn)).body)
            #expect(confirm.contains("연구 참여를 중단할까요?") && confirm.contains("name=\"reason\""))
            let refused = try await client.execute(uri: "/settings/leave", method: .post, headers: Fixture.headers(signedIn, form: true),
                                                   body: ByteBuffer(string: Fixture.token(signedIn) + "&reason=a%E2%80%AEb"))
            #expect(refused.status == .badRequest)
            #expect(try await service.store.consentRecords(participantID: kim.participant.id).count == 1)

            clock.set(Fixture.date("2026-03-04T02:00:00Z"))
            let left = try await client.execute(uri: "/settings/leave", method: .post, headers: Fixture.headers(signedIn, form: true),
                                                body: ByteBuffer(string: Fixture.token(signedIn) + "&reason=%EC%9D%B4%EC%82%AC"))
            #expect(left.status == .seeOther && left.headers[.location] == "/")
            let home = try await client.execute(uri: "/", method: .get, headers: Fixture.headers(signedIn))
            #expect(home.status == .ok && String(buffer: home.body).contains("연구 참여를 중단했습니다"))
            let page = String(buffer: try await client.execute(uri: "/settings", method: .get, headers: Fixture.headers(signedIn)).body)
            #expect(!page.contains("href=\"/settings/leave\"") && page.contains("/settings/my-data.zip"), "they keep their copy, and cannot leave twice")
            for uri in ["/tasks/pain/0", "/onboarding"] {
                let started = try await client.execute(uri: uri, method: .get, headers: Fixture.headers(signedIn))
                #expect(started.status == .forbidden && String(buffer: started.body).contains("새로운 응답을 받지 않습니다"), "\(uri)")
            }
            let ticked = try await client.execute(uri: "/tasks/exercises/0/done", method: .post, headers: Fixture.headers(signedIn, form: true),
                                                  body: ByteBuffer(string: Fixture.token(signedIn)))
            #expect(ticked.status == .forbidden)
            let again = try await client.execute(uri: "/settings/leave", method: .post, headers: Fixture.headers(signedIn, form: true),
                                                 body: ByteBuffer(string: Fixture.token(signedIn)))
            #expect(again.status == .forbidden)
        }
        let records = try await service.store.consentRecords(participantID: kim.participant.id)
        #expect(records.count == 2)
        let withdrawal = try #require(records.last?.sealed)
        #expect(withdrawal.record.kind == .withdrawal && withdrawal.record.withdrawal?.reason == "이사")
        #expect(withdrawal.record.withdrawal?.withdrawnAt == Fixture.date("2026-03-04T02:00:00Z"))
        #expect(ConsentRecordVerifier(expectedPublicKey: service.consentKey.publicKey).mismatches(in: withdrawal, original: consent).isEmpty)
        let audit = try await service.data.auditEntries(participantID: kim.participant.id, limit: 5)
        #expect(audit.first?.actor == "participant \(kim.participant.id)" && audit.first?.reason == "POST /settings/leave")
    }

    @Test func anInvestigatorRecordsAWithdrawalWithTheReasonGivenOnce() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let sam = try await Fixture.participant(of: service, zone: .gmt)
        try await Fixture.consent(of: service, for: sam, at: clock.now)
        let investigator = try await Fixture.researcher(of: service, role: .investigator)
        let viewer = try await Fixture.researcher(of: service, role: .viewer)
        @Sendable func form(_ cookie: String) -> HTTPFields { Fixture.consoleForm(cookie) }
        let action = "/console/participants/\(sam.participant.id)/withdraw"
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            var headers = form(viewer.cookie)
            let viewed = String(buffer: try await client.execute(uri: "/console/participants/\(sam.participant.id)", method: .get, headers: headers).body)
            #expect(!viewed.contains("action=\"\(action)\""))
            let forbidden = try await client.execute(uri: action, method: .post, headers: headers, body: ByteBuffer(string: viewer.csrf + "&reason=x"))
            #expect(forbidden.status == .forbidden)

            headers = form(investigator.cookie)
            let shown = String(buffer: try await client.execute(uri: "/console/participants/\(sam.participant.id)", method: .get, headers: headers).body)
            #expect(shown.contains("action=\"\(action)\""))
            let empty = try await client.execute(uri: action, method: .post, headers: headers, body: ByteBuffer(string: investigator.csrf + "&reason=+"))
            #expect(empty.status == .unprocessableContent && String(buffer: empty.body).contains("Write the reason the participant gave"))
            let recorded = try await client.execute(uri: action, method: .post, headers: headers,
                                                    body: ByteBuffer(string: investigator.csrf + "&reason=Told+the+nurse+by+phone"))
            #expect(recorded.status == .seeOther)
            let twice = try await client.execute(uri: action, method: .post, headers: headers, body: ByteBuffer(string: investigator.csrf + "&reason=again"))
            #expect(twice.status == .conflict)
            let home = String(buffer: try await client.execute(uri: "/console", method: .get, headers: headers).body)
            #expect(home.contains("<dt>Withdrawn</dt><dd>1</dd>") && home.contains("withdrawn 2026-03-04T01:00:00Z"))
        }
        #expect(try await service.workflow.withdrawal.isWithdrawn(sam.participant))
        let record = try #require(try await service.store.consentRecords(participantID: sam.participant.id).last?.sealed.record)
        #expect(record.withdrawal?.reason == "Told the nurse by phone")
    }
}
