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

    @Test func aWalksFormMayBeLargerThanOtherFormsAsItsReadingsNeed() async throws {
        // Recover with its knee bend made a minute's walk at 60 readings a second.
        let recover = try Fixture.recoverCopy()
        let file = recover.appendingPathComponent("study.yaml")
        try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(of: "active: {task: kneeRangeOfMotion, side: right}",
                                  with: "active: {task: walkBackAndForth, walkDuration: 60, restDuration: 0, frequency: 60, excludeInstructions: true}")
            .replacingOccurrences(of: "measure: rangeOfMotion.right.range", with: "measure: walking.outbound.stepCount")
            .write(to: file, atomically: true, encoding: .utf8)
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock, studyFolder: recover)
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        clock.set(Fixture.date("2026-03-06T01:30:00Z"))  // Friday 10:30 in Tokyo: the first knee bend is open
        let walk = try await service.startRun(taskID: "kneeBend", occurrence: 0, for: signedIn.participant)
        let pain = try await service.startRun(taskID: "pain", occurrence: 2, for: signedIn.participant)
        // A phone's readings, every number with its six decimals: 3,600 of each in a minute (about 2 MB as a form).
        let times = (0..<3_600).map { 0.5 + Double($0) / 60 }
        let digits = { (value: Double) in String(format: "%.6f", value) }
        let vector = { (t: Double, k: Double) in #"{"x":\#(digits(0.01 * sin(t * k))),"y":\#(digits(-0.3 * sin(4 * .pi * t))),"z":\#(digits(0.01 * cos(t * k)))}"# }
        let motion = times.map { t in
            #"{"timestamp":\#(digits(t)),"attitude":{"x":0.707107,"y":0.000001,"z":0.000001,"w":0.707107},"rotationRate":\#(vector(t, 3)),"userAcceleration":\#(vector(t, 5)),"gravity":{"x":0.000001,"y":-0.999999,"z":0.000001}}"#
        }
        let accelerometer = times.map { t in #"{"timestamp":\#(digits(t)),"x":\#(digits(0.01 * sin(t))),"y":\#(digits(-1 - 0.3 * sin(4 * .pi * t))),"z":\#(digits(0.01 * cos(t)))}"# }
        let samples = #"{"recorders":{"accelerometer":{"items":[\#(accelerometer.joined(separator: ","))]},"deviceMotion":{"items":[\#(motion.joined(separator: ","))]}},"start":0.5,"end":60.5,"complete":true}"#
        let encoded = samples.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(encoded.utf8.count > StudyRouter.maximumBody)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let post = try await client.execute(uri: "/runs/\(walk.uuidString.lowercased())", method: .post, headers: Fixture.headers(signedIn, form: true),
                                                body: ByteBuffer(string: Fixture.token(signedIn) + "&_step=walking.outbound&action=next&samples=" + encoded))
            #expect(post.status == .seeOther, "\(String(buffer: post.body).prefix(2_000))")
            // The same form to a survey's step is too large.
            let refused = try await client.execute(uri: "/runs/\(pain.uuidString.lowercased())", method: .post, headers: Fixture.headers(signedIn, form: true),
                                                   body: ByteBuffer(string: Fixture.token(signedIn) + "&_step=painLevel&action=next&q0=3&samples=" + encoded))
            #expect(refused.status == .contentTooLarge)
        }
        let stored = try await service.store.run(id: walk, participantID: signedIn.participant.id)
        #expect(stored?.restorationData?.path.count == 2)
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
