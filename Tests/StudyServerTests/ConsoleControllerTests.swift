import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Research
import Study
@testable import StudyServer
import Testing
import Consent
import ZIPFoundation

/// The study team's console over HTTP: who may reach each route, signing in and its pause, password links, and
/// what the pages and exports hold.
@Suite("Console routes")
struct ConsoleControllerTests {
    typealias Fixture = ServerFixture
    let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    private func headers(cookie: String?, form: Bool = false) -> HTTPFields { Fixture.consoleForm(cookie, form: form) }

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
        #expect(routes.count == 22)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            for route in routes {
                let nobody = try await service.researchers.store.addResearcher(email: "link-\(UUID().uuidString.prefix(6))@example.org", role: .viewer)
                let link = try await service.researchers.store.createPasswordLink(researcherID: nobody.id, lifetime: 600)
                let path = route.path.replacingOccurrences(of: ":participant", with: alex.participant.id)
                    .replacingOccurrences(of: ":record", with: record.uuidString).replacingOccurrences(of: ":format", with: "csv-long")
                    .replacingOccurrences(of: ":token", with: link.token)
                    + (route.path == "/console/exports" ? "?format=csv-long&for-spreadsheets=1" : "")
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
                // Each role, with a fresh session (a sign-out route ends it), on a fresh invitation and another researcher.
                for role in ResearcherRole.allCases where route.access != .anyone {
                    let researcher = try await Fixture.researcher(of: service, role: role)
                    let invitation = try await service.store.createInvitation(label: nil, expiresAt: nil).invitation.id
                    let other = try await Fixture.researcher(of: service, role: .viewer).researcher.id
                    var rolePath = path.replacingOccurrences(of: ":invitation", with: invitation.uuidString)
                        .replacingOccurrences(of: ":researcher", with: other.uuidString)
                    if route.path.hasSuffix("/withdraw") {
                        // A participant of its own for each role: a consent is withdrawn once.
                        let leaving = try await Fixture.participant(of: service, zone: .gmt)
                        try await Fixture.consent(of: service, for: leaving, at: clock.now)
                        rolePath = rolePath.replacingOccurrences(of: alex.participant.id, with: leaving.participant.id)
                    }
                    if route.path.hasSuffix("/countersign") {
                        // A consent of its own for each role: a consent is countersigned once.
                        let fresh = try await Fixture.consent(of: service, for: alex, at: clock.now).record.id
                        rolePath = rolePath.replacingOccurrences(of: record.uuidString, with: fresh.uuidString)
                    }
                    let fields = "&count=1&role=investigator&email=new-\(UUID().uuidString.prefix(8))%40example.org&givenName=Jamie&familyName=Lee&confirm=yes&reason=moving+abroad"
                    let response = try await client.execute(uri: rolePath, method: route.method, headers: headers(cookie: researcher.cookie, form: route.method == .post),
                                                            body: ByteBuffer(string: researcher.csrf + fields))
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

    @Test func aPasswordLinkSetsAPasswordOnceAndTheFifthWrongPasswordPausesThatAddressFromThatClientForAQuarterOfAnHour() async throws {
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
                                    ("password=aaaaaaaaaaaa&confirmation=aaaaaaaaaaaa", "The password is one character repeated; choose one that is harder to guess."),
                                    ("password=Password1234&confirmation=Password1234", "The password is one of the most common passwords, which are tried first; choose another."),
                                    ("password=ana+is+my+name+here&confirmation=ana+is+my+name+here", "The password holds your email address's name (ana); choose one that does not."),
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
            #expect(String(buffer: fifth.body).contains("signing in from here is paused until 2026-03-04T01:15:00Z"))
            let right = try await post("/console/sign-in", "email=ana%40example.org&password=correct+horse+battery")
            #expect(right.status == .tooManyRequests && right.headers[.setCookie] == nil, "the right password from the same client waits out the pause too")
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

    /// A participant's page shows each task's adherence over the whole days before today in their zone (Tokyo), as the
    /// care store counts it: the evening icing done on two evenings of three is 67 %, today's still to come left out.
    @Test func aParticipantsPageShowsEachTasksAdherenceOverTheDaysBeforeToday() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")) // March 4, 10:00 in Tokyo
        let service = try Fixture.service(clock: clock)
        let alex = try await Fixture.participant(of: service, zone: tokyo)
        try await Fixture.consent(of: service, for: alex, at: clock.now)
        for (instant, occurrence) in [("2026-03-05T11:30:00Z", 0), ("2026-03-06T11:30:00Z", 1)] { // 20:30 in Tokyo
            clock.set(Fixture.date(instant))
            try await service.workflow.record(taskID: "icing", occurrence: occurrence, for: alex.participant)
        }
        clock.set(Fixture.date("2026-03-08T11:30:00Z")) // March 8, 20:30: today's icing is open and not done
        let viewer = try await Fixture.researcher(of: service, role: .viewer)
        let icing = try #require(service.study.tasks.first { $0.id == "icing" })
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let page = String(buffer: try await client.execute(uri: "/console/participants/\(alex.participant.id)", method: .get,
                                                                headers: headers(cookie: viewer.cookie)).body)
            #expect(page.contains("<caption>Adherence per task, whole days before today</caption>"))
            // March 5 and 6 done, March 7 not: 2 of 3 days; March 8 is today.
            let row = "<td>\(icing.title)</td><td>\(icing.impactsAdherence ? "yes" : "no")</td><td>67 % (3 days with events)</td><td>67 % (3 days with events)</td>"
            #expect(page.contains(row), "\(page.components(separatedBy: "Adherence per task").last?.prefix(1500) ?? "")")
        }
    }

    /// The enrolment page's download form offers the choice; the export it sends quotes a participant's formula for a
    /// spreadsheet, while the exact export (the links) keeps it as typed.
    @Test func theDownloadFormSendsAnExportWhoseFormulasASpreadsheetWillNotRun() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let formula = #"=HYPERLINK("https://evil.example","Click")"#
        _ = try await participantWithAnswer(service, clock: clock, notes: formula)
        let viewer = try await Fixture.researcher(of: service, role: .viewer)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let home = String(buffer: try await client.execute(uri: "/console", method: .get, headers: headers(cookie: viewer.cookie)).body)
            #expect(home.contains(#"<form method="get" action="/console/exports" class="export-form">"#))
            #expect(home.contains(#"<option value="csv-long" selected>"#) && home.contains(#"<option value="consents">"#))
            #expect(home.contains(#"name="for-spreadsheets" value="1""#) && home.contains(#"name="for-spreadsheets" value="0" checked"#))

            func answers(_ uri: String) async throws -> (TestResponse, String) {
                let export = try await client.execute(uri: uri, method: .get, headers: headers(cookie: viewer.cookie))
                guard export.status == .ok else { return (export, "") }
                let archive = try Archive(data: Data(buffer: export.body), accessMode: .read)
                var csv = Data()
                _ = try archive.extract(try #require(archive["answers.csv"])) { csv.append($0) }
                return (export, String(decoding: csv, as: UTF8.self))
            }
            let quoted = "\"'" + formula.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let exact = "\"" + formula.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let (forSheets, sheetText) = try await answers("/console/exports?format=csv-long&for-spreadsheets=1")
            #expect(forSheets.headers[.contentDisposition] == "attachment; filename=\"recover-csv-long-for-spreadsheets-2026-03-04.zip\"")
            #expect(sheetText.contains("," + quoted + ",") && !sheetText.contains("," + exact + ","), "\(sheetText)")
            for uri in ["/console/exports?format=csv-long&for-spreadsheets=0", "/console/exports/csv-long"] {
                let (_, text) = try await answers(uri)
                #expect(text.contains("," + exact + ","), "\(uri): \(text)")
            }
            let (unknown, _) = try await answers("/console/exports?format=xlsx&for-spreadsheets=1")
            #expect(unknown.status == .notFound)
            let (odd, _) = try await answers("/console/exports?format=csv-long&for-spreadsheets=yes")
            #expect(odd.status == .badRequest)
        }
    }
}

/// The investigators' and admins' pages: invitations made, shown once and revoked; researchers added, given a new
/// link, changed and removed, never one's own account.
@Suite("Console invitations and researchers")
struct ConsoleTeamTests {
    typealias Fixture = ServerFixture

    private func form(_ cookie: String) -> HTTPFields { Fixture.consoleForm(cookie) }

    @Test func anInvestigatorMakesLinksSeenOnceThatEnrolAndRevokesOneThatThenEnrolsNoOne() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let investigator = try await Fixture.researcher(of: service, role: .investigator)
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            for (fields, problem) in [("count=0", "Give a number of links from 1 to 200."), ("count=201", "Give a number of links from 1 to 200."),
                                      ("count=2&days=0", "Give the days before the links expire"), ("count=1&label=a%E2%80%AEb", "The label holds")] {
                let refused = try await client.execute(uri: "/console/invitations", method: .post, headers: form(investigator.cookie),
                                                       body: ByteBuffer(string: investigator.csrf + "&" + fields))
                #expect(refused.status == .unprocessableContent && String(buffer: refused.body).contains(problem), "\(fields)")
            }
            #expect(try await service.store.invitations().isEmpty, "a refused form makes no invitation")
            let made = try await client.execute(uri: "/console/invitations", method: .post, headers: form(investigator.cookie),
                                                body: ByteBuffer(string: investigator.csrf + "&count=3&label=Clinic+A&days=14"))
            #expect(made.status == .ok)
            let page = String(buffer: made.body)
            let links = page.matches(of: #/<code>(http://[^<]+/join/([0-9A-Z]{26}))</code>/#).map { String($0.output.2) }
            #expect(links.count == 3)
            let invitations = try await service.store.invitations()
            #expect(invitations.count == 3 && invitations.allSatisfy { $0.label == "Clinic A" && $0.expiresAt == Fixture.date("2026-03-18T01:00:00Z") })
            let again = String(buffer: try await client.execute(uri: "/console/invitations", method: .get, headers: form(investigator.cookie)).body)
            #expect(!links.contains { again.contains($0) }, "a link is shown once")

            let revoke = try #require(try await service.store.invitation(code: links[0]))
            let revoked = try await client.execute(uri: "/console/invitations/\(revoke.id.uuidString)/revoke", method: .post, headers: form(investigator.cookie),
                                                   body: ByteBuffer(string: investigator.csrf))
            #expect(revoked.status == .seeOther)
            await #expect(throws: StudyRefusal.invitationUnusable) { _ = try await service.enrol(invitationCode: links[0], timeZone: .gmt, language: "en") }
            _ = try await service.enrol(invitationCode: links[1], timeZone: .gmt, language: "en")
            let used = try #require(try await service.store.invitation(code: links[1]))
            let refused = try await client.execute(uri: "/console/invitations/\(used.id.uuidString)/revoke", method: .post, headers: form(investigator.cookie),
                                                   body: ByteBuffer(string: investigator.csrf))
            #expect(refused.status == .conflict)
            let list = String(buffer: try await client.execute(uri: "/console/invitations", method: .get, headers: form(investigator.cookie)).body)
            #expect(list.contains("revoked 2026-03-04T01:00:00Z") && list.contains("used 2026-03-04T01:00:00Z by "))
        }
    }

    @Test func anAdminAddsResearchersWithALinkShownOnceChangesTheirRoleAndRemovesThemButNotThemselves() async throws {
        let service = try Fixture.service(clock: Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z")))
        let admin = try await Fixture.researcher(of: service, role: .admin, email: "admin@example.org")
        let app = Application(router: StudyRouter.router(service: service, secureCookies: true))
        try await app.test(.router) { client in
            let added = try await client.execute(uri: "/console/researchers", method: .post, headers: form(admin.cookie),
                                                 body: ByteBuffer(string: admin.csrf + "&email=Bo%40Example.org&role=investigator"))
            #expect(added.status == .ok)
            // The lifetime the page states is the one every link is made with (IssuedPasswordLink.lifetime).
            #expect(IssuedPasswordLink.lifetimeInDays == 7 && String(buffer: added.body).contains("it sets their password within 7 days,"))
            let token = try #require(String(buffer: added.body).firstMatch(of: #/<code>https://[^<]*/console/password/([A-Za-z0-9_-]{43})</code>/#)?.output.1)
            let bo = try #require(try await service.researchers.store.researcher(email: "bo@example.org"))
            let linked = try await service.researchers.store.researcher(passwordLinkToken: String(token))
            #expect(bo.role == .investigator && linked?.id == bo.id)
            let twice = try await client.execute(uri: "/console/researchers", method: .post, headers: form(admin.cookie),
                                                 body: ByteBuffer(string: admin.csrf + "&email=bo%40example.org&role=viewer"))
            #expect(twice.status == .unprocessableContent && String(buffer: twice.body).contains("A researcher with the address bo@example.org already exists."))

            let changed = try await client.execute(uri: "/console/researchers/\(bo.id.uuidString)/role", method: .post, headers: form(admin.cookie),
                                                   body: ByteBuffer(string: admin.csrf + "&role=admin"))
            let boNow = try await service.researchers.store.researcher(id: bo.id)
            #expect(changed.status == .seeOther && boNow?.role == .admin)
            let mine = try await client.execute(uri: "/console/researchers/\(admin.researcher.id.uuidString)/role", method: .post, headers: form(admin.cookie),
                                                body: ByteBuffer(string: admin.csrf + "&role=viewer"))
            let adminNow = try await service.researchers.store.researcher(id: admin.researcher.id)
            #expect(mine.status == .conflict && adminNow?.role == .admin)
            let removeMe = try await client.execute(uri: "/console/researchers/\(admin.researcher.id.uuidString)/remove", method: .post,
                                                    headers: form(admin.cookie), body: ByteBuffer(string: admin.csrf))
            #expect(removeMe.status == .conflict)

            let session = try await service.researchers.store.createResearcherSession(researcherID: bo.id, lifetime: 600)
            let removed = try await client.execute(uri: "/console/researchers/\(bo.id.uuidString)/remove", method: .post, headers: form(admin.cookie),
                                                   body: ByteBuffer(string: admin.csrf))
            #expect(removed.status == .seeOther)
            #expect(try await service.researchers.store.researcherSession(token: session.token) == nil, "a removed researcher is signed out at once")
            let page = String(buffer: try await client.execute(uri: "/console/researchers", method: .get, headers: form(admin.cookie)).body)
            #expect(page.contains("<td>bo@example.org</td><td>admin</td><td>removed 2026-03-04T01:00:00Z</td>"))
            #expect(page.contains("<td>admin@example.org</td><td>admin</td><td>no password yet (you)</td>"), "no form to change oneself")
        }
    }
}

/// An investigator's countersignature of a consent: sealed as a record of its own, bound to the consent, with the
/// whole document signed; given once; refused with a name that would not print as typed.
@Suite("Console countersignature")
struct ConsoleCountersignatureTests {
    typealias Fixture = ServerFixture

    private func form(_ cookie: String) -> HTTPFields { Fixture.consoleForm(cookie) }

    @Test func anInvestigatorCountersignsOnceAndTheRecordVerifiesAgainstTheConsentItIsBoundTo() async throws {
        let clock = Fixture.Clock(Fixture.date("2026-03-04T01:00:00Z"))
        let service = try Fixture.service(clock: clock)
        let alex = try await Fixture.participant(of: service, zone: TimeZone(identifier: "Australia/Sydney")!)
        let consent = try await Fixture.consent(of: service, for: alex, at: clock.now)
        let investigator = try await Fixture.researcher(of: service, role: .investigator)
        let viewer = try await Fixture.researcher(of: service, role: .viewer)
        let page = "/console/participants/\(alex.participant.id)"
        let action = "\(page)/consents/\(consent.record.id.uuidString.lowercased())/countersign"
        let app = Application(router: StudyRouter.router(service: service, secureCookies: false))
        try await app.test(.router) { client in
            let viewed = String(buffer: try await client.execute(uri: page, method: .get, headers: form(viewer.cookie)).body)
            #expect(viewed.contains("Waits for an investigator&#39;s countersignature.") && !viewed.contains("action=\"\(action)\""))
            let shown = String(buffer: try await client.execute(uri: page, method: .get, headers: form(investigator.cookie)).body)
            #expect(shown.contains("action=\"\(action)\"") && shown.contains("Countersign (investigator countersignature)"))

            clock.set(Fixture.date("2026-03-04T01:30:00Z"))
            for (body, problem) in [("givenName=Jamie&familyName=Lee", "Confirm that you obtained the participant&#39;s consent."),
                                    ("givenName=Ja%E2%80%AEmie&familyName=Lee&confirm=yes", "Your given name holds"),
                                    ("givenName=&familyName=Lee&confirm=yes", "Type your given name.")] {
                let refused = try await client.execute(uri: action, method: .post, headers: form(investigator.cookie),
                                                       body: ByteBuffer(string: investigator.csrf + "&" + body))
                #expect(refused.status == .unprocessableContent && String(buffer: refused.body).contains(problem), "\(body)")
            }
            #expect(try await service.store.consentRecords(participantID: alex.participant.id).count == 1, "a refused form seals nothing")
            let signed = try await client.execute(uri: action, method: .post, headers: form(investigator.cookie),
                                                  body: ByteBuffer(string: investigator.csrf + "&givenName=Jamie&familyName=Lee&confirm=yes&reason=moving+abroad"))
            #expect(signed.status == .seeOther && signed.headers[.location] == page)
            let again = try await client.execute(uri: action, method: .post, headers: form(investigator.cookie),
                                                 body: ByteBuffer(string: investigator.csrf + "&givenName=Jamie&familyName=Lee&confirm=yes&reason=moving+abroad"))
            #expect(again.status == .conflict && String(buffer: again.body).contains("countersigned already, at 2026-03-04T01:30:00Z"))
            let after = String(buffer: try await client.execute(uri: page, method: .get, headers: form(investigator.cookie)).body)
            #expect(after.contains("consented 2026-03-04T12:00:00+11:00, countersigned 2026-03-04T12:30:00+11:00"))
            #expect(!after.contains("action=\"\(action)\""))
        }
        let records = try await service.store.consentRecords(participantID: alex.participant.id)
        #expect(records.count == 2)
        let countersignature = try #require(records.last)
        let record = countersignature.sealed.record
        #expect(record.kind == .countersignature && record.countersignature?.originalRecordID == consent.record.id)
        #expect(record.signatures.map(\.identifier) == ["participant", "investigator"])
        #expect(record.signatures.last?.givenName == "Jamie" && record.signatures.last?.signedAt == Fixture.date("2026-03-04T01:30:00Z"))
        #expect(record.html.contains("Jamie Lee") && record.html.contains("Alex Kim"), "the whole document, both signed")
        let verifier = ConsentRecordVerifier(expectedPublicKey: service.consentKey.publicKey)
        #expect(verifier.mismatches(in: countersignature.sealed, original: consent).isEmpty)
        #expect(records.latestSignedConsent?.id == record.id, "the participant's PDF is the countersigned one")
        // Bound to its consent: checked against another consent, it does not verify.
        let other = try await Fixture.consent(of: service, for: alex, at: clock.now)
        #expect(verifier.mismatches(in: countersignature.sealed, original: other).map(\.name).contains("countersignature-record-id"))
        let audit = try await service.data.auditEntries(participantID: alex.participant.id, limit: 10)
        #expect(audit.contains { $0.entity == "consentRecord" && $0.actor.hasPrefix("researcher ") && $0.after?.contains("countersignature") == true })
    }
}
