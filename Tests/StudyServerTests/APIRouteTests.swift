import CareStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Research
import Study
@testable import StudyServer
import Testing

/// Every API operation against no token, a participant's token and each researcher role's token: who may call it,
/// and that a refusal is the JSON `Error` body.
@Suite("API routes")
struct APIRouteTests {
    typealias Fixture = ServerFixture

    private func headers(_ token: String?, json: Bool = false) -> HTTPFields {
        var headers = HTTPFields()
        if let token { headers[.authorization] = "Bearer \(token)" }
        if json { headers[.contentType] = "application/json" }
        return headers
    }

    @Test func eachOperationAnswersItsCallersAndRefusesOthersWithJSON() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let alex = try await Fixture.participant(of: service, zone: .gmt)
        try await Fixture.consent(of: service, for: alex, at: clock.now)
        clock.set(Fixture.date("2026-03-05T03:00:00Z")) // the day after enrolment, when Recover's symptom log starts
        let viewer = try await service.researchers.store.addResearcher(email: "v@example.org", role: .viewer)
        let researcherToken = try await service.researchers.store.createResearcherSession(researcherID: viewer.id, lifetime: 600).token
        // (method, path, body, statuses with no token, with the participant's, with a researcher's)
        let operations: [(HTTPRequest.Method, String, String?, Int, Int, Int)] = [
            (.get, "/api/v1/participant", nil, 401, 200, 401),
            (.get, "/api/v1/participant/events?from=2026-03-04&to=2026-03-05", nil, 401, 200, 401),
            (.post, "/api/v1/participant/events/symptoms/0/outcome", #"{"action":"log"}"#, 401, 204, 401),
            (.get, "/api/v1/participant/consent.pdf", nil, 401, 409, 401),
            (.post, "/api/v1/participant/runs", #"{"task":"pain","occurrence":1}"#, 401, 201, 401),
            (.get, "/api/v1/participant/runs/9b2f0c5e-8d1a-4c3b-9e7f-2a6d4b8c1e05", nil, 401, 404, 401),
            (.post, "/api/v1/participant/runs/9b2f0c5e-8d1a-4c3b-9e7f-2a6d4b8c1e05/steps", #"{"step":"painLevel","action":"next"}"#, 401, 404, 401),
            (.get, "/api/v1/exports/outcomes", nil, 401, 401, 200),
            (.get, "/api/v1/researcher/participants/\(alex.participant.id)/adherence?days=2", nil, 401, 401, 200),
            (.post, "/api/v1/participant/sessions", #"{"signInCode":"AAAA-AAAA"}"#, 404, 404, 404),
            (.post, "/api/v1/researcher/sessions", #"{"email":"v@example.org","password":"wrong password here"}"#, 401, 401, 401),
        ]
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            for (method, path, body, none, participant, researcher) in operations {
                for (token, expected) in [(nil, none), (alex.sessionToken, participant), (researcherToken, researcher)] {
                    let response = try await client.execute(uri: path, method: method, headers: headers(token, json: body != nil),
                                                            body: body.map { ByteBuffer(string: $0) })
                    #expect(Int(response.status.code) == expected, "\(method) \(path) with \(token == nil ? "no token" : token == researcherToken ? "a researcher's" : "the participant's") token: \(String(buffer: response.body).prefix(200))")
                    if response.status.code >= 400 {
                        let error = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: String]
                        #expect(error?.keys.sorted() == ["code", "message"], "\(path)")
                    }
                }
            }
        }
    }

    /// A researcher reads a participant's adherence per task, day by day in the participant's zone (Kiritimati, UTC+14,
    /// whose days start fourteen hours before UTC's): the window's days, each task in the study's order with whether it
    /// is in the rings, as the care store counts them, the event done on its day counted; an unknown participant and a
    /// window out of range refused.
    @Test func aResearcherReadsAParticipantsAdherencePerTaskDayByDayInTheirZone() async throws {
        let kiritimati = try #require(TimeZone(identifier: "Pacific/Kiritimati"))
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")) // March 4, 15:00 in Kiritimati
        let service = try Fixture.service(clock: clock)
        let alex = try await Fixture.participant(of: service, zone: kiritimati)
        try await Fixture.consent(of: service, for: alex, at: clock.now)
        clock.set(Fixture.date("2026-03-05T06:30:00Z")) // March 5, 20:30 there: the evening's icing is open
        try await service.workflow.record(taskID: "icing", occurrence: 0, for: alex.participant)
        clock.set(Fixture.date("2026-03-06T03:00:00Z")) // March 6, 17:00 there: today's icing is still to come
        let viewer = try await service.researchers.store.addResearcher(email: "v@example.org", role: .viewer)
        let token = try await service.researchers.store.createResearcherSession(researcherID: viewer.id, lifetime: 600).token
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let path = "/api/v1/researcher/participants/\(alex.participant.id)/adherence"
            let response = try await client.execute(uri: path + "?days=3", method: .get, headers: headers(token))
            #expect(response.status == .ok, "\(String(buffer: response.body))")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(body["from"] as? String == "2026-03-04" && body["to"] as? String == "2026-03-06")
            #expect(body["timeZone"] as? String == "Pacific/Kiritimati" && body["participant"] as? String == alex.participant.id)
            let tasks = try #require(body["tasks"] as? [[String: Any]])
            let ids = tasks.compactMap { $0["task"] as? String }
            #expect(ids == service.study.tasks.map(\.id).filter(ids.contains) && ids.contains("icing") && ids.contains("symptoms"), "\(ids)")
            // Each task as the care store counts it alone, over the participant's days (one outside the rings, which
            // adherence leaves out, as the store counts it when asked for every task).
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = kiritimati
            let window = DateInterval(start: Fixture.date("2026-03-03T10:00:00Z"), end: Fixture.date("2026-03-06T10:00:00Z"))
            for task in tasks {
                let id = try #require(task["task"] as? String)
                let definition = try #require(service.study.tasks.first { $0.id == id })
                #expect(task["countsTowardAdherence"] as? Bool == definition.impactsAdherence, "\(id)")
                let careID = StudyCareIdentifiers.taskID(participant: alex.participant.id, task: id)
                var query = CareQuery()
                query.ids = [careID]
                let counted = definition.impactsAdherence
                    ? try await service.careStore.adherence(taskQuery: query, window: window, calendar: calendar)
                    : try await service.careStore.adherenceByTask(taskQuery: query, window: window, calendar: calendar, includingAll: true)[careID] ?? []
                let expected = counted.map { day -> [String] in
                    switch day.state {
                    case .noTasks: ["noTasks"]
                    case .noEvents: ["noEvents"]
                    case .progress(let share): ["progress", "\(share)"]
                    }
                }
                let days = try #require(task["days"] as? [[String: Any]])
                #expect(days.compactMap { $0["date"] as? String } == ["2026-03-04", "2026-03-05", "2026-03-06"], "\(id)")
                #expect(days.map { day in [day["state"] as? String ?? ""] + ((day["share"] as? Double).map { ["\($0)"] } ?? []) } == expected, "\(id)")
            }
            let icing = try #require(tasks.first { $0["task"] as? String == "icing" }?["days"] as? [[String: Any]])
            #expect(icing[1]["state"] as? String == "progress" && icing[1]["share"] as? Double == 1)
            #expect(icing[2]["state"] as? String == "progress" && icing[2]["share"] as? Double == 0)

            for (uri, status) in [("/api/v1/researcher/participants/nobody/adherence", 404), (path + "?days=0", 400), (path + "?days=367", 400)] {
                let refused = try await client.execute(uri: uri, method: .get, headers: headers(token))
                #expect(Int(refused.status.code) == status, "\(uri): \(String(buffer: refused.body))")
            }
        }
    }

    /// An invitation that cannot enrol anyone (unknown, used, revoked) is refused alike by the join page, the join
    /// form and the API: one mapping (``StudyRefusal/init(_:)``), 404 with the same sentence.
    @Test func anUnusableInvitationIsRefusedAlikeEverywhere() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        let used = try await service.store.createInvitation(label: nil, expiresAt: nil)
        _ = try await service.enrol(invitationCode: used.code, timeZone: .gmt, language: "en")
        let revoked = try await service.store.createInvitation(label: nil, expiresAt: nil)
        _ = try await service.store.revokeInvitation(id: revoked.invitation.id)
        let sentence = StudyServerError(StudyRefusal.invitationUnusable).description
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            for code in [used.code, revoked.code, "ABCDEFGHJKMNPQRSTVWXYZ0123"] {
                let page = try await client.execute(uri: "/join/\(code)", method: .get)
                #expect(page.status == .notFound && String(buffer: page.body).contains(sentence), "\(code)")
                var form = HTTPFields()
                form[.contentType] = "application/x-www-form-urlencoded"
                let joined = try await client.execute(uri: "/join/\(code)", method: .post, headers: form, body: ByteBuffer(string: "timeZone=UTC"))
                #expect(joined.status == .notFound && String(buffer: joined.body).contains(sentence), "\(code)")
                let api = try await client.execute(uri: "/api/v1/participant/sessions", method: .post, headers: headers(nil, json: true),
                                                   body: ByteBuffer(string: #"{"invitationCode":"\#(code)","timeZone":"UTC"}"#))
                let error = try JSONSerialization.jsonObject(with: Data(buffer: api.body)) as? [String: String]
                #expect(api.status == .notFound && error?["code"] == "invitation-unusable" && error?["message"] == sentence, "\(code)")
            }
        }
    }

    /// The API's list of events goes through the one gate (``ParticipantWorkflow/check(_:for:)``): refused before
    /// onboarding and after a withdrawal, with the refusal's code, as every participant action is.
    @Test func theEventListGoesThroughTheOneGate() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let newcomer = try await Fixture.participant(of: service, zone: .gmt, onboarded: false)
        let leaving = try await Fixture.participant(of: service, zone: .gmt)
        try await Fixture.consent(of: service, for: leaving, at: clock.now)
        try await service.withdraw(leaving.participant, reason: nil, data: nil, recordedBy: .participant)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            for (signedIn, refusal) in [(newcomer, StudyRefusal.onboardingRequired), (leaving, .withdrawn)] {
                let response = try await client.execute(uri: "/api/v1/participant/events?from=2026-03-04&to=2026-03-05", method: .get,
                                                        headers: headers(signedIn.sessionToken))
                let error = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: String]
                #expect(Int(response.status.code) == Int(StudyServerError(refusal).status.code) && error?["code"] == refusal.code,
                        "\(refusal): \(String(buffer: response.body))")
            }
        }
    }

    /// A successful answer with a participant's data (their JSON, their events, a run, an export, a researcher's
    /// token) is no more cacheable than a refusal: `Cache-Control: no-store` on each.
    @Test func everySuccessfulAnswerWithParticipantDataIsNotStoredByCaches() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let alex = try await Fixture.participant(of: service, zone: .gmt)
        let record = try await Fixture.consent(of: service, for: alex, at: clock.now).record.id
        try await service.store.setConsentPDF(.stored(Data("%PDF-1.7 test".utf8)), recordID: record, participantID: alex.participant.id)
        clock.set(Fixture.date("2026-03-05T03:00:00Z"))
        let viewer = try await service.researchers.store.addResearcher(email: "v@example.org", role: .viewer)
        let researcherToken = try await service.researchers.store.createResearcherSession(researcherID: viewer.id, lifetime: 600).token
        let operations: [(HTTPRequest.Method, String, String?, String, Int)] = [
            (.get, "/api/v1/participant", nil, alex.sessionToken, 200),
            (.get, "/api/v1/participant/events?from=2026-03-04&to=2026-03-05", nil, alex.sessionToken, 200),
            (.post, "/api/v1/participant/events/symptoms/0/outcome", #"{"action":"log"}"#, alex.sessionToken, 204),
            (.post, "/api/v1/participant/runs", #"{"task":"pain","occurrence":1}"#, alex.sessionToken, 201),
            (.get, "/api/v1/participant/consent.pdf", nil, alex.sessionToken, 200),
            (.get, "/api/v1/exports/outcomes", nil, researcherToken, 200),
            (.get, "/api/v1/researcher/participants/\(alex.participant.id)/adherence", nil, researcherToken, 200),
        ]
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            for (method, path, body, token, status) in operations {
                let response = try await client.execute(uri: path, method: method, headers: headers(token, json: body != nil),
                                                        body: body.map { ByteBuffer(string: $0) })
                #expect(Int(response.status.code) == status, "\(method) \(path): \(String(buffer: response.body).prefix(200))")
                #expect(response.headers[.cacheControl] == "no-store", "\(method) \(path)")
            }
        }
    }

    /// The pain check answered through the API: the step's fields as the web form names them, an answer out of range
    /// refused with the question's problem and nothing stored, then the run completed and its event done; another
    /// participant's token finds no such run.
    @Test func aSurveyIsAnsweredStepByStepThroughTheSameChecksAsTheWebForm() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let alex = try await Fixture.participant(of: service, zone: .gmt)
        let sam = try await Fixture.participant(of: service, zone: .gmt)
        try await Fixture.consent(of: service, for: alex, at: clock.now)
        clock.set(Fixture.date("2026-03-04T20:00:00Z"))
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            func call(_ method: HTTPRequest.Method, _ path: String, _ body: String? = nil, as token: String) async throws -> (Int, [String: Any]) {
                let response = try await client.execute(uri: "/api/v1" + path, method: method, headers: headers(token, json: body != nil),
                                                        body: body.map { ByteBuffer(string: $0) })
                let json = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:]
                return (Int(response.status.code), json)
            }
            let (started, run) = try await call(.post, "/participant/runs", #"{"task":"pain","occurrence":0}"#, as: alex.sessionToken)
            #expect(started == 201, "\(run)")
            let id = try #require(run["id"] as? String)
            let step = try #require(run["step"] as? [String: Any])
            #expect(step["identifier"] as? String == "painLevel" && step["type"] as? String == "question")
            let fields = try #require(step["fields"] as? [[String: Any]])
            #expect(fields.count == 1 && fields[0]["name"] as? String == "q0" && fields[0]["input"] as? String == "number")
            #expect(fields[0]["minimum"] as? Double == 0 && fields[0]["maximum"] as? Double == 10)

            // Out of the scale's range: the question's problem, and the run stays on the step.
            let (refused, problems) = try await call(.post, "/participant/runs/\(id)/steps",
                                                     #"{"step":"painLevel","action":"next","fields":{"q0":["11"]}}"#, as: alex.sessionToken)
            #expect(refused == 422 && problems["code"] as? String == "answers-not-accepted")
            #expect((problems["problems"] as? [String: String])?.keys.sorted() == ["painLevel"], "\(problems)")
            #expect((problems["problems"] as? [String: String])?["painLevel"] == "Enter a number from 0 to 10.", "\(problems)")
            // A participant reading Korean is told in Korean, as Research words the refusal in that language.
            _ = try await service.setLanguage("ko", for: alex.participant)
            let (_, inKorean) = try await call(.post, "/participant/runs/\(id)/steps",
                                               #"{"step":"painLevel","action":"next","fields":{"q0":["11"]}}"#, as: alex.sessionToken)
            let korean = AnswerValidationError(.numberRange, ["minimum": .integer(0), "maximum": .integer(10)]).message(in: "ko")
            #expect((inKorean["problems"] as? [String: String])?["painLevel"] == korean, "\(inKorean)")
            #expect(korean != "Enter a number from 0 to 10.")
            _ = try await service.setLanguage("en", for: alex.participant)
            let (_, unchanged) = try await call(.get, "/participant/runs/\(id)", as: alex.sessionToken)
            #expect((unchanged["step"] as? [String: Any])?["identifier"] as? String == "painLevel")
            // A field the step does not have is the client's mistake.
            let (unknown, _) = try await call(.post, "/participant/runs/\(id)/steps",
                                              #"{"step":"painLevel","action":"next","fields":{"q7":["1"]}}"#, as: alex.sessionToken)
            #expect(unknown == 400)
            // Another participant's token: no such run, and nothing moves.
            let (other, _) = try await call(.post, "/participant/runs/\(id)/steps",
                                            #"{"step":"painLevel","action":"next","fields":{"q0":["3"]}}"#, as: sam.sessionToken)
            #expect(other == 404)

            let (moved, next) = try await call(.post, "/participant/runs/\(id)/steps",
                                               #"{"step":"painLevel","action":"next","fields":{"q0":["3"]}}"#, as: alex.sessionToken)
            #expect(moved == 200)
            let location = try #require(next["step"] as? [String: Any])
            #expect(location["identifier"] as? String == "painLocation" && location["canGoBack"] as? Bool == true)
            let choiceFields = try #require(location["fields"] as? [[String: Any]])
            #expect(choiceFields.map { $0["name"] as? String } == ["q0", "q0-other5"])
            #expect(choiceFields[0]["input"] as? String == "choices")
            #expect((choiceFields[0]["choices"] as? [[String: Any]])?.map { $0["text"] as? String }.first == "Front of the knee")
            // A stale step (the one answered already) is refused as a conflict.
            let (stale, _) = try await call(.post, "/participant/runs/\(id)/steps",
                                            #"{"step":"painLevel","action":"next","fields":{"q0":["4"]}}"#, as: alex.sessionToken)
            #expect(stale == 409)
            _ = try await call(.post, "/participant/runs/\(id)/steps", #"{"step":"painLocation","action":"next","fields":{"q0":["1","3"]}}"#, as: alex.sessionToken)
            _ = try await call(.post, "/participant/runs/\(id)/steps", #"{"step":"notes","action":"skip"}"#, as: alex.sessionToken)
            let (finished, done) = try await call(.post, "/participant/runs/\(id)/steps", #"{"step":"done","action":"next"}"#, as: alex.sessionToken)
            #expect(finished == 200 && done["state"] as? String == "completed" && done["step"] == nil, "\(done)")

            let (_, events) = try await call(.get, "/participant/events?from=2026-03-04&to=2026-03-04", as: alex.sessionToken)
            let pain = (events["events"] as? [[String: Any]])?.first { $0["task"] as? String == "pain" }
            #expect(pain?["done"] as? Bool == true)
            #expect((pain?["values"] as? [[String: Any]])?.first?["number"] as? Double == 3)
        }
    }
}
