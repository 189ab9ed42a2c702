import CareStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Study
@testable import StudyServer
import Testing

/// A run's steps over HTTP.
@Suite("Run routes")
struct RunControllerTests {
    typealias Fixture = ServerFixture
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    @Test func anotherParticipantsRunIsNotFoundAndUntouched() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        let alex = try await Fixture.participant(of: service, zone: tokyo)
        let sam = try await Fixture.participant(of: service, zone: tokyo)
        let run = try await service.startRun(taskID: "pain", occurrence: 0, for: alex.participant)
        let before = try await service.store.run(id: run, participantID: alex.participant.id)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let page = try await client.execute(uri: "/runs/\(run.uuidString.lowercased())", method: .get, headers: Fixture.headers(sam))
            #expect(page.status == .notFound)
            let post = try await client.execute(uri: "/runs/\(run.uuidString.lowercased())", method: .post, headers: Fixture.headers(sam, form: true),
                                                body: ByteBuffer(string: Fixture.token(sam) + "&_step=painLevel&action=next&q0=3"))
            #expect(post.status == .notFound)
            #expect(String(buffer: post.body).contains("There is no such task run."))
            // Its owner gets the step.
            let own = try await client.execute(uri: "/runs/\(run.uuidString.lowercased())", method: .get, headers: Fixture.headers(alex))
            #expect(own.status == .ok)
        }
        #expect(try await service.store.run(id: run, participantID: alex.participant.id) == before)
    }

    @Test func aLargeUploadIsRefusedWhereTheStepAsksForNoFile() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        let run = try await service.startRun(taskID: "pain", occurrence: 0, for: signedIn.participant)
        #expect(try await service.largestUpload(runID: run, participant: signedIn.participant) == 0)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            var headers: HTTPFields = [.cookie: "\(StudyRouter.sessionCookie)=\(signedIn.sessionToken)"]
            headers[.contentType] = "multipart/form-data; boundary=XyZ"
            let file = String(repeating: "a", count: 2 * StudyRouter.maximumBody)
            let body = "--XyZ\r\nContent-Disposition: form-data; name=\"q0\"; filename=\"big.txt\"\r\nContent-Type: text/plain\r\n\r\n"
                + file + "\r\n--XyZ--\r\n"
            let response = try await client.execute(uri: "/runs/\(run.uuidString.lowercased())", method: .post, headers: headers,
                                                    body: ByteBuffer(string: body))
            #expect(response.status == .contentTooLarge)
            #expect(String(buffer: response.body).contains("The form is too large"))
        }
        #expect(try await service.store.run(id: run, participantID: signedIn.participant.id)?.restorationData?.path.count == 1)
    }

    @Test func aPostWhileAnotherFinishesTheRunChangesNothing() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        let run = try await service.startRun(taskID: "pain", occurrence: 0, for: signedIn.participant)
        let before = try await service.store.run(id: run, participantID: signedIn.participant.id)
        let form = ["_csrf": [signedIn.csrfToken], "_step": ["painLevel"], "action": ["next"], "q0": ["3"]]
        // As a first post of the last step leaves it, in this process or another: a live claim on finishing it.
        let other = RunFinisher(id: UUID())
        _ = try await service.store.updateRun(id: run, participantID: signedIn.participant.id, finisher: other) { _, _ in (nil, (), true) }
        guard case .redirect("/") = try await service.post(form, to: run, signedIn: signedIn) else {
            Issue.record("a post of a run being finished should lead home")
            return
        }
        #expect(try await service.store.run(id: run, participantID: signedIn.participant.id) == before)
        try await service.store.releaseRunFinish(id: run, finisher: other)
        guard case .redirect = try await service.post(form, to: run, signedIn: signedIn) else {
            Issue.record("the post should be applied once the run is free")
            return
        }
        #expect(try await service.store.run(id: run, participantID: signedIn.participant.id) != before)
    }
}
