import CareStore
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

    /// The reason's rules are the withdrawal's own (``StudyWithdrawal/reasonProblem(_:recordedBy:)``), applied by the
    /// workflow whoever calls it: the settings page and the console take and refuse the same reasons; only an
    /// investigator must give one.
    @Test func theReasonsRulesAreTheWithdrawalsWhoeverRecordsIt() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let longest = String(repeating: "a", count: StudyWithdrawal.maximumReasonLength)
        #expect(StudyWithdrawal.reasonProblem(" \(longest)\n", recordedBy: .investigator) == nil)
        #expect(StudyWithdrawal.reasonProblem(longest + "a", recordedBy: .participant) == .tooLong(maximum: 1000))
        #expect(StudyWithdrawal.reasonProblem("a\u{202E}b", recordedBy: .participant) == .forbiddenCharacter("\u{202E}"))
        #expect(StudyWithdrawal.reasonProblem(" ", recordedBy: .participant) == nil)
        #expect(StudyWithdrawal.reasonProblem(" ", recordedBy: .investigator) == .missing)
        // The workflow refuses what the rules refuse, before anything is stored.
        let ana = try await Fixture.participant(of: service, zone: .gmt)
        try await Fixture.consent(of: service, for: ana, at: clock.now)
        await #expect(throws: StudyWithdrawalError.reason(.missing)) {
            try await service.workflow.withdrawal.withdraw(ana.participant, reason: nil, recordedBy: .investigator)
        }
        #expect(try await service.store.consentRecords(participantID: ana.participant.id).count == 1)

        let investigator = try await Fixture.researcher(of: service, role: .investigator)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            for (reason, accepted) in [(longest + "a", false), ("a%E2%80%AEb", false), ("+" + longest + "+", true)] {
                let leaving = try await Fixture.participant(of: service, zone: .gmt)
                try await Fixture.consent(of: service, for: leaving, at: clock.now)
                let left = try await client.execute(uri: "/settings/leave", method: .post, headers: Fixture.headers(leaving, form: true),
                                                    body: ByteBuffer(string: Fixture.token(leaving) + "&reason=" + reason))
                #expect((left.status == .seeOther) == accepted, "settings, \(reason.prefix(10)): \(left.status)")
                let told = try await Fixture.participant(of: service, zone: .gmt)
                try await Fixture.consent(of: service, for: told, at: clock.now)
                let recorded = try await client.execute(uri: "/console/participants/\(told.participant.id)/withdraw", method: .post,
                                                        headers: Fixture.consoleForm(investigator.cookie),
                                                        body: ByteBuffer(string: investigator.csrf + "&reason=" + reason))
                #expect((recorded.status == .seeOther) == accepted, "console, \(reason.prefix(10)): \(recorded.status)")
                for signedIn in [leaving, told] {
                    #expect(try await service.workflow.withdrawal.isWithdrawn(signedIn.participant) == accepted)
                }
            }
        }
    }

    /// A participant's symptom log (an outcome), a pain run in progress with a file, and the onboarding gate's outcome.
    private func dataOf(_ signedIn: StudyService.SignedIn, in service: StudyService) async throws -> UUID {
        let participant = signedIn.participant
        try await service.workflow.log(taskID: "symptoms", occurrence: 0, for: participant)
        let run = try await service.workflow.startRun(taskID: "pain", occurrence: 1, for: participant)
        _ = try await service.store.updateRun(id: run, participantID: participant.id, finisher: RunFinisher(id: UUID())) { stored, files in
            _ = try files.write(Data("a recording".utf8), named: "voice.m4a", ofRun: run)
            return (stored, (), false)
        }
        #expect(try await service.store.runFiles(participantID: participant.id).map(\.name) == ["voice.m4a"])
        return run
    }

    /// The participant's live outcomes by study task id.
    private func outcomeTasks(of signedIn: StudyService.SignedIn, in service: StudyService) async throws -> [String] {
        var query = OutcomeQuery()
        query.taskIDs = Set((["onboarding"] + service.study.tasks.map(\.id)).map { StudyCareIdentifiers.taskID(participant: signedIn.participant.id, task: $0) })
        let tasks = try await service.careStore.fetch(CareTask.self, query: CareQuery())
        let names = Dictionary(tasks.map { ($0.uuid, $0.id.split(separator: "/").last.map(String.init) ?? $0.id) }, uniquingKeysWith: { first, _ in first })
        return try await service.careStore.fetchOutcomes(query: query).compactMap { names[$0.taskUUID] }.sorted()
    }

    /// Where the study lets each participant choose: leaving asks what happens to their data, refuses to go on without
    /// an answer, and then keeps or deletes it as they chose, in the transaction of the withdrawal; the consent, the
    /// withdrawal and the onboarding's gate stay, and the audit trail says why the data went.
    @Test func whereTheParticipantChoosesTheirDataIsKeptOrDeletedAsTheyChose() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock, withdrawal: .participantChooses)
        let ana = try await Fixture.participant(of: service, zone: .gmt)
        let ben = try await Fixture.participant(of: service, zone: .gmt)
        for signedIn in [ana, ben] { try await Fixture.consent(of: service, for: signedIn, at: clock.now) }
        clock.set(Fixture.date("2026-03-05T03:00:00Z")) // the day after enrolment, when Recover's symptom log starts
        _ = try await dataOf(ana, in: service)
        let benRun = try await dataOf(ben, in: service)
        #expect(try await outcomeTasks(of: ana, in: service) == ["onboarding", "symptoms"])

        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let confirm = String(buffer: try await client.execute(uri: "/settings/leave", method: .get, headers: Fixture.headers(ana)).body)
            #expect(confirm.contains("What should happen to what you have given so far?"))
            #expect(confirm.contains("name=\"data\" value=\"keep\" required") && confirm.contains("name=\"data\" value=\"delete\" required"))
            let unanswered = try await client.execute(uri: "/settings/leave", method: .post, headers: Fixture.headers(ana, form: true),
                                                      body: ByteBuffer(string: Fixture.token(ana) + "&reason="))
            #expect(unanswered.status == .unprocessableContent && String(buffer: unanswered.body).contains("Choose what should happen to what you have given."))
            #expect(try await service.store.consentRecords(participantID: ana.participant.id).count == 1)

            let deleted = try await client.execute(uri: "/settings/leave", method: .post, headers: Fixture.headers(ana, form: true),
                                                   body: ByteBuffer(string: Fixture.token(ana) + "&data=delete&reason="))
            #expect(deleted.status == .seeOther)
            let kept = try await client.execute(uri: "/settings/leave", method: .post, headers: Fixture.headers(ben, form: true),
                                                body: ByteBuffer(string: Fixture.token(ben) + "&data=keep&reason="))
            #expect(kept.status == .seeOther)
        }
        // Ana: the consent and the withdrawal stay, with the onboarding's gate; the run, its file and the log are gone.
        #expect(try await service.store.consentRecords(participantID: ana.participant.id).map(\.sealed.record.kind) == [.consent, .withdrawal])
        #expect(try await service.store.runs(participantID: ana.participant.id, taskID: nil).isEmpty)
        #expect(try await outcomeTasks(of: ana, in: service) == ["onboarding"])
        #expect(try await service.store.runFiles(participantID: ana.participant.id).isEmpty)
        #expect(try await service.workflow.isOnboarded(ana.participant))
        let trail = try await service.data.auditEntries(participantID: ana.participant.id, limit: 20)
        let deletions = trail.filter { $0.reason?.contains("the participant's data deleted (the participant's choice)") == true }
        #expect(Set(deletions.map(\.entity)).isSuperset(of: ["taskRun", "runFile", "consentRecord", "outcome"]), "\(trail.map { ($0.entity, $0.reason) })")
        // Ben kept his: all of it is there.
        #expect(try await service.store.runs(participantID: ben.participant.id, taskID: nil).map(\.id) == [benRun])
        #expect(try await service.store.runFiles(participantID: ben.participant.id).map(\.name) == ["voice.m4a"])
        #expect(try await outcomeTasks(of: ben, in: service) == ["onboarding", "symptoms"])
        #expect(try await service.workflow.withdrawal.isWithdrawn(ben.participant))
        // A caller that does not give the participant's choice is refused before anything is stored.
        let cy = try await Fixture.participant(of: service, zone: .gmt)
        try await Fixture.consent(of: service, for: cy, at: clock.now)
        await #expect(throws: StudyWithdrawalError.choiceRequired) { try await service.workflow.withdrawal.withdraw(cy.participant, reason: nil) }
        #expect(try await service.store.consentRecords(participantID: cy.participant.id).count == 1)
    }

    /// Where the study's rule deletes the data, an investigator recording a withdrawal is told so and the data goes;
    /// nobody may choose otherwise.
    @Test func whereTheStudyDeletesTheDataAnInvestigatorsRecordDeletesIt() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock, withdrawal: .delete)
        let dee = try await Fixture.participant(of: service, zone: .gmt)
        try await Fixture.consent(of: service, for: dee, at: clock.now)
        clock.set(Fixture.date("2026-03-05T03:00:00Z"))
        _ = try await dataOf(dee, in: service)
        await #expect(throws: StudyWithdrawalError.notOffered(.keep, policy: .delete)) {
            try await service.workflow.withdrawal.withdraw(dee.participant, reason: nil, data: .keep)
        }
        let investigator = try await Fixture.researcher(of: service, role: .investigator)
        let page = "/console/participants/\(dee.participant.id)"
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let shown = String(buffer: try await client.execute(uri: page, method: .get, headers: Fixture.consoleForm(investigator.cookie)).body)
            #expect(shown.contains("Their answers and outcomes are deleted, as the study&#39;s rule says") || shown.contains("Their answers and outcomes are deleted, as the study's rule says"))
            #expect(!shown.contains("name=\"data\""))
            let recorded = try await client.execute(uri: page + "/withdraw", method: .post, headers: Fixture.consoleForm(investigator.cookie),
                                                    body: ByteBuffer(string: investigator.csrf + "&reason=Asked+by+letter"))
            #expect(recorded.status == .seeOther)
        }
        #expect(try await service.store.runs(participantID: dee.participant.id, taskID: nil).isEmpty)
        #expect(try await outcomeTasks(of: dee, in: service) == ["onboarding"])
        let trail = try await service.data.auditEntries(participantID: dee.participant.id, limit: 20)
        #expect(trail.contains { $0.entity == "taskRun" && $0.reason?.hasSuffix("withdrawal: the participant's data deleted (the study's rule)") == true },
                "\(trail.map { ($0.entity, $0.reason) })")
    }
}
