import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Research
import Study
@testable import StudyServer
import Testing
import ZIPFoundation

/// The study team's console over HTTP: who may reach each route, signing in and its lock-out, password links, and
/// what the pages and exports hold.
@Suite("Console routes")
struct ConsoleControllerTests {
    typealias Fixture = ServerFixture
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    private func headers(cookie: String?, form: Bool = false) -> HTTPFields {
        var headers = HTTPFields()
        if let cookie { headers[.cookie] = cookie }
        if form { headers[.contentType] = "application/x-www-form-urlencoded" }
        return headers
    }

    /// A participant with a completed pain check whose answer is `notes`.
    private func participantWithAnswer(_ service: StudyService, clock: Fixture.Clock, notes: String) async throws -> (StudyService.SignedIn, UUID) {
        let signedIn = try await Fixture.participant(of: service, zone: tokyo)
        let id = UUID()
        let result = TaskResult(identifier: "pain", taskRunUUID: id, startDate: clock.now, endDate: clock.now, stepResults: [
            StepResult(identifier: "notes", startDate: clock.now, endDate: clock.now,
                       results: [.question(QuestionResult(identifier: "notes", type: .text, answer: .text(notes)))]),
        ])
        try await service.store.saveRun(TaskRun(id: id, participantID: signedIn.participant.id, taskID: "pain", occurrence: 0, state: .completed,
                                                result: result))
        return (signedIn, id)
    }

    @Test func everyRouteLetsInExactlyWhomItsAccessSaysAndNoOneWithoutASession() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let (alex, _) = try await participantWithAnswer(service, clock: clock, notes: "knee")
        let record = try await Fixture.consent(of: service, for: alex, at: clock.now).record.id
        try await service.store.setConsentPDF(.stored(Data("%PDF-1.7 test".utf8)), recordID: record, participantID: alex.participant.id)
        let routes = ConsoleController(service: service, secureCookies: false).routes()
        #expect(routes.count == 11)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            for route in routes {
                let nobody = try await service.researchers.store.addResearcher(email: "link-\(UUID().uuidString.prefix(6))@example.org", role: .viewer)
                let link = try await service.researchers.store.createPasswordLink(researcherID: nobody.id, lifetime: 600)
                let path = route.path.replacingOccurrences(of: ":participant", with: alex.participant.id)
                    .replacingOccurrences(of: ":record", with: record.uuidString).replacingOccurrences(of: ":format", with: "csv-long")
                    .replacingOccurrences(of: ":token", with: link.token)
                // Without a session.
                let anonymous = try await client.execute(uri: path, method: route.method, headers: headers(cookie: nil, form: route.method == .post),
                                                         body: ByteBuffer(string: "email=a%40example.org&password=x&confirmation=x"))
                if route.access == .anyone {
                    #expect(anonymous.status != .unauthorized && anonymous.status != .forbidden, "\(route.method) \(route.path)")
                } else if route.method == .get {
                    #expect(anonymous.status == .seeOther && anonymous.headers[.location] == "/console/sign-in", "\(route.path)")
                } else {
                    #expect(anonymous.status == .unauthorized, "\(route.method) \(route.path)")
                }
                // A participant's session is no console session.
                let participant = try await client.execute(uri: path, method: route.method, headers: Fixture.headers(alex, form: route.method == .post),
                                                           body: ByteBuffer(string: Fixture.token(alex)))
                if route.access != .anyone { #expect([.seeOther, .unauthorized].contains(participant.status), "\(route.path)") }
                // Each role, with a fresh session (a sign-out route ends it).
                for role in ResearcherRole.allCases where route.access != .anyone {
                    let researcher = try await Fixture.researcher(of: service, role: role)
                    let response = try await client.execute(uri: path, method: route.method, headers: headers(cookie: researcher.cookie, form: route.method == .post),
                                                            body: ByteBuffer(string: researcher.csrf))
                    let allowed: Bool = switch route.access {
                    case .anyone, .signedIn: true
                    case .permission(let permission): role.allows(permission)
                    }
                    if allowed {
                        #expect(response.status == .ok || response.status == .seeOther, "\(role) \(route.method) \(route.path): \(response.status)")
                    } else {
                        #expect(response.status == .forbidden, "\(role) \(route.method) \(route.path)")
                    }
                }
            }
        }
    }

    @Test func aPostWithoutTheSessionsFormTokenChangesNothing() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        let ana = try await Fixture.researcher(of: service, role: .admin)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            for body in ["", "_csrf=forged", "_csrf=\(ana.csrf.dropFirst(6))x"] {
                let refused = try await client.execute(uri: "/console/sign-out-everywhere", method: .post, headers: headers(cookie: ana.cookie, form: true),
                                                       body: ByteBuffer(string: body))
                #expect(refused.status == .forbidden)
            }
            let stillIn = try await client.execute(uri: "/console", method: .get, headers: headers(cookie: ana.cookie))
            #expect(stillIn.status == .ok)
            let signedOut = try await client.execute(uri: "/console/sign-out-everywhere", method: .post, headers: headers(cookie: ana.cookie, form: true),
                                                     body: ByteBuffer(string: ana.csrf))
            #expect(signedOut.status == .seeOther && signedOut.headers[.setCookie]?.contains("Max-Age=0") == true)
            let after = try await client.execute(uri: "/console", method: .get, headers: headers(cookie: ana.cookie))
            #expect(after.status == .seeOther)
        }
    }

    @Test func aPasswordLinkSetsAPasswordOnceAndTheFifthWrongPasswordLocksTheAccountForAQuarterOfAnHour() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let ana = try await service.researchers.store.addResearcher(email: "ana@example.org", role: .investigator)
        let link = try await service.researchers.store.createPasswordLink(researcherID: ana.id, lifetime: 600)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: true))
        try await app.test(.router) { client in
            func post(_ uri: String, _ body: String) async throws -> TestResponse {
                try await client.execute(uri: uri, method: .post, headers: headers(cookie: nil, form: true), body: ByteBuffer(string: body))
            }
            let page = try await client.execute(uri: "/console/password/\(link.token)", method: .get)
            #expect(page.status == .ok && String(buffer: page.body).contains("For ana@example.org."))
            for (body, problem) in [("password=short&confirmation=short", "The password has 5 characters; it needs at least 12."),
                                    ("password=correct+horse+battery&confirmation=correct+horse+batterx", "The two passwords are not the same."),
                                    ("password=ANA%40example.org&confirmation=ANA%40example.org", "The password may not be your email address."),
                                    ("password=\(String(repeating: "%C3%A9", count: 37))&confirmation=\(String(repeating: "%C3%A9", count: 37))",
                                     "The password is 74 bytes long; bcrypt reads only 72, so it may be at most that.")] {
                let refused = try await post("/console/password/\(link.token)", body)
                #expect(refused.status == .unprocessableContent)
                #expect(String(buffer: refused.body).contains(problem.replacingOccurrences(of: "'", with: "&#39;")), "\(problem)")
            }
            #expect(try await service.researchers.store.researcher(id: ana.id)?.passwordHash == nil)
            let set = try await post("/console/password/\(link.token)", "password=correct+horse+battery&confirmation=correct+horse+battery")
            #expect(set.status == .seeOther && set.headers[.location] == "/console/sign-in?notice=password-set")
            let hash = try #require(try await service.researchers.store.researcher(id: ana.id)?.passwordHash)
            #expect(hash.hasPrefix("$2b$04$") && !hash.contains("horse"))
            let again = try await post("/console/password/\(link.token)", "password=another+good+one&confirmation=another+good+one")
            #expect(again.status == .notFound)

            let signedIn = try await post("/console/sign-in", "email=+ANA%40Example.org&password=correct+horse+battery")
            #expect(signedIn.status == .seeOther && signedIn.headers[.location] == "/console")
            let cookie = try #require(signedIn.headers[.setCookie])
            #expect(cookie.hasPrefix("studykit_console=") && cookie.contains("Path=/console") && cookie.contains("HttpOnly")
                && cookie.contains("SameSite=Strict") && cookie.contains("Secure"))

            let unknown = try await post("/console/sign-in", "email=bo%40example.org&password=correct+horse+battery")
            let wrong = try await post("/console/sign-in", "email=ana%40example.org&password=wrong+horse+battery")
            #expect(unknown.status == .unprocessableContent && wrong.status == .unprocessableContent)
            #expect(String(buffer: unknown.body).contains("The email address or the password is wrong."))
            #expect(String(buffer: wrong.body).contains("The email address or the password is wrong."), "an unknown address and a wrong password read the same")
            for _ in 2...4 { _ = try await post("/console/sign-in", "email=ana%40example.org&password=wrong+horse+battery") }
            let fifth = try await post("/console/sign-in", "email=ana%40example.org&password=wrong+horse+battery")
            #expect(fifth.status == .tooManyRequests)
            #expect(String(buffer: fifth.body).contains("signing in is paused until 2026-03-04T01:15:00Z"))
            let right = try await post("/console/sign-in", "email=ana%40example.org&password=correct+horse+battery")
            #expect(right.status == .tooManyRequests && right.headers[.setCookie] == nil, "the right password waits out the lock-out too")
            clock.set(Fixture.date("2026-03-04T01:15:00Z"))
            let later = try await post("/console/sign-in", "email=ana%40example.org&password=correct+horse+battery")
            #expect(later.status == .seeOther && later.headers[.setCookie] != nil)
        }
    }

    @Test func theConsoleShowsWhoConsentedWhatTheyAnsweredAndExportsItWhileAnotherParticipantsRecordIsNotFound() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let (alex, alexRun) = try await participantWithAnswer(service, clock: clock, notes: "Alex's <knee> & hip")
        let (sam, _) = try await participantWithAnswer(service, clock: clock, notes: "Sam's ankle")
        let alexRecord = try await Fixture.consent(of: service, for: alex, at: clock.now).record.id
        let viewer = try await Fixture.researcher(of: service, role: .viewer)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let home = String(buffer: try await client.execute(uri: "/console", method: .get, headers: headers(cookie: viewer.cookie)).body)
            #expect(home.contains("<dt>Enrolled</dt><dd>2</dd>") && home.contains("<dt>Consented</dt><dd>1</dd>"))
            #expect(home.contains("href=\"/console/participants/\(alex.participant.id)\"") && home.contains("href=\"/console/participants/\(sam.participant.id)\""))
            #expect(home.contains("consented 2026-03-04T10:00:00+09:00"))

            let page = String(buffer: try await client.execute(uri: "/console/participants/\(alex.participant.id)", method: .get,
                                                                headers: headers(cookie: viewer.cookie)).body)
            #expect(page.contains("<td>Alex&#39;s &lt;knee&gt; &amp; hip</td>"))
            #expect(page.contains(alexRun.uuidString.lowercased()) && !page.contains("Sam&#39;s ankle"))
            #expect(page.contains("✓ Verified: sealed with the study&#39;s key and unchanged since."))

            // Alex's record through Sam's page: not found, as a record of no one.
            let crossed = try await client.execute(uri: "/console/participants/\(sam.participant.id)/consents/\(alexRecord.uuidString)/pdf", method: .get,
                                                   headers: headers(cookie: viewer.cookie))
            #expect(crossed.status == .notFound)

            let export = try await client.execute(uri: "/console/exports/csv-long", method: .get, headers: headers(cookie: viewer.cookie))
            #expect(export.status == .ok && export.headers[.contentType] == "application/zip")
            #expect(export.headers[.contentDisposition] == "attachment; filename=\"recover-csv-long-2026-03-04.zip\"")
            let archive = try Archive(data: Data(buffer: export.body), accessMode: .read)
            var csv = Data()
            _ = try archive.extract(try #require(archive["answers.csv"])) { csv.append($0) }
            let text = String(decoding: csv, as: UTF8.self)
            #expect(text.contains("Alex's <knee> & hip") && text.contains("Sam's ankle"))
            #expect(archive["export.json"] != nil)
            let left = try FileManager.default.contentsOfDirectory(atPath: service.configuration.dataFolder.appendingPathComponent("console-exports").path)
            #expect(left.isEmpty, "the export's working folder is deleted once sent")
        }
    }
}
