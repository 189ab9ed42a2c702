import Consent
import Foundation
import HTTPTypes
import Hummingbird
import QRCodes
import NIOCore
import Research
import Study
import StudyWeb

/// The study team's console: signing in, setting a password from a one-time link, enrolment, a participant's data,
/// their consent PDFs, exports, and the researcher's own account. Every route is in ``routes()`` with who may use it,
/// and is registered behind ``ConsoleAccessMiddleware``, which checks that before anything else runs.
///
/// | Route | Who | What it does |
/// |---|---|---|
/// | `GET`, `POST /console/sign-in` | anyone | the sign-in form; a right password sets the console cookie (see ``ResearcherAccounts`` for pauses) |
/// | `GET`, `POST /console/password/TOKEN` | anyone with a live link | sets the researcher's password |
/// | `GET /console` | read | enrolment: counts, each participant, exports |
/// | `GET /console/participants/ID` | read | a participant's consent records, adherence, runs with answers, outcomes |
/// | `GET /console/participants/ID/consents/RECORD/pdf` | read | a consent record's PDF, when the record verifies |
/// | `GET /console/exports/FORMAT` | export | the whole study in one export format, as a ZIP (`?for-spreadsheets=1`: CSV cells safe for spreadsheets) |
/// | `GET /console/exports?format=FORMAT&for-spreadsheets=1` | export | the same, from the enrolment page's download form |
/// | `GET /console/account`, `POST /console/sign-out`, `POST /console/sign-out-everywhere` | signed in | the researcher's account |
///
/// The console's cookie (`studykit_console`, path `/console`, `SameSite=Strict`) is apart from participants': neither
/// opens the other's pages.
struct ConsoleController {
    /// What the console's routes use of the server besides what its pages read.
    protocol Service: ConsolePageBuilder.Service {
        /// The console's page templates.
        var consolePages: ConsolePageRenderer { get }
        /// Researchers' accounts, sessions and sign-in.
        var researchers: ResearcherAccounts { get }
        /// Makes the CSRF tokens of console sessions.
        var signer: RequestSigner { get }
        /// The consent PDFs printed so far.
        var pdfPrinter: ConsentPDFPrinter { get }
        /// The proxies whose `X-Forwarded-For` the sign-in limit trusts.
        var trustedProxies: Set<String> { get }
        /// Records a participant's withdrawal (``Study/StudyWithdrawal``).
        func withdraw(_ participant: StudyParticipant, reason: String?, data: WithdrawnData?, recordedBy recorder: StudyWithdrawal.Recorder) async throws
        /// Wakes the printer of consent PDFs (a countersignature makes a record to print).
        func printConsentPDFs()
        /// The whole study in one export format, zipped.
        func exportArchive(format: StudyExportFormat, cells: CSVCellStyle) async throws -> StudyExportArchive
    }

    let service: any Service
    let secureCookies: Bool

    /// The console session cookie's name.
    static let cookie = "studykit_console"

    func addRoutes(to router: Router<StudyRequestContext>) {
        let console = router.group("/console").add(middleware: ConsolePageMiddleware(study: service.study, pages: service.consolePages))
        for route in routes() {
            let path = route.path == "/console" ? "" : String(route.path.dropFirst("/console".count))
            // Each route behind its own access check, whose context then carries the researcher it let in.
            console.group().add(middleware: ConsoleAccessMiddleware(route, researchers: service.researchers, signer: service.signer))
                .group(context: ConsoleRequestContext.self)
                .on(RouterPath(path), method: route.method, use: route.handler)
        }
    }

    /// The token every form of `session`'s pages carries: the server's HMAC of the session's id, which only this server
    /// can make.
    static func csrfToken(of session: ResearcherSession, signer: RequestSigner) -> String {
        signer.csrfToken(forSession: "console:" + session.id.uuidString)
    }

    /// Every console route, with who may use it.
    func routes() -> [ConsoleRoute] {
        [
            ConsoleRoute(.get, "/console/sign-in", .anyone) { request, context in
                if context.researcher != nil { return .redirect(to: ConsolePageRenderer.homePath, type: .normal) }
                let notice = request.uri.queryParameters["notice"] == "password-set" ? "Your password is set. Sign in with it." : nil
                return StudyRouter.html(service.consolePages.signIn(ConsoleSignInView(action: "/console/sign-in", notice: notice), context: pageContext(context)))
            },
            ConsoleRoute(.post, "/console/sign-in", .anyone) { request, context in try await signIn(request, context) },
            ConsoleRoute(.get, "/console/password/:token", .anyone) { _, context in
                let token = try context.parameter("token")
                guard let researcher = try await service.researchers.store.researcher(passwordLinkToken: token) else { throw Self.deadLink }
                return StudyRouter.html(service.consolePages.password(passwordView(token: token, researcher: researcher), context: pageContext(context)))
            },
            ConsoleRoute(.post, "/console/password/:token", .anyone) { _, context in try await setPassword(context) },
            ConsoleRoute(.get, "/console", .permission(.readStudyData)) { _, context in
                var view = try await ConsolePageBuilder(service: service).enrolment()
                view.signInNotice = context.session?.failedSignInsBefore.map(Self.signInNotice)
                return StudyRouter.html(service.consolePages.enrolment(view, context: pageContext(context)))
            },
            ConsoleRoute(.get, "/console/participants/:participant", .permission(.readStudyData)) { _, context in
                let participant = try await participant(context)
                let role = try context.signedIn.role
                let view = try await ConsolePageBuilder(service: service)
                    .participant(participant, canCountersign: role.allows(.countersignConsent), canRecordWithdrawal: role.allows(.recordWithdrawal))
                return StudyRouter.html(service.consolePages.participant(view, context: pageContext(context)))
            },
            ConsoleRoute(.post, "/console/participants/:participant/consents/:record/countersign", .permission(.countersignConsent)) { _, context in
                try await countersign(context)
            },
            ConsoleRoute(.post, "/console/participants/:participant/withdraw", .permission(.recordWithdrawal)) { _, context in
                try await recordWithdrawal(context)
            },
            ConsoleRoute(.get, "/console/participants/:participant/consents/:record/pdf", .permission(.readStudyData)) { _, context in
                try await consentPDF(context)
            },
            ConsoleRoute(.get, "/console/exports/:format", .permission(.exportData)) { request, context in
                try await export(request, format: try context.parameter("format"))
            },
            ConsoleRoute(.get, "/console/exports", .permission(.exportData)) { request, context in
                try await export(request, format: request.uri.queryParameters["format"].map(String.init) ?? "")
            },
            ConsoleRoute(.get, "/console/invitations", .permission(.manageInvitations)) { _, context in
                StudyRouter.html(service.consolePages.invitations(try await invitationsView(), context: pageContext(context)))
            },
            ConsoleRoute(.post, "/console/invitations", .permission(.manageInvitations)) { request, context in try await createInvitations(request, context) },
            ConsoleRoute(.post, "/console/invitations/:invitation/revoke", .permission(.manageInvitations)) { _, context in
                guard let id = UUID(uuidString: try context.parameter("invitation")) else { throw StudyServerError.noSuchInvitation }
                do {
                    try await service.store.revokeInvitation(id: id)
                } catch StudyStoreError.unknownInvitationID {
                    throw StudyServerError.noSuchInvitation
                } catch StudyStoreError.invitationUsed {
                    throw StudyServerError(.conflict, code: "invitation-used", "This invitation was used already: its participant is enrolled. Record their withdrawal instead.")
                }
                return .redirect(to: ConsolePageRenderer.invitationsPath, type: .normal)
            },
            ConsoleRoute(.get, "/console/researchers", .permission(.manageResearchers)) { request, context in
                StudyRouter.html(service.consolePages.researchers(try await researchersView(request, context), context: pageContext(context)))
            },
            ConsoleRoute(.post, "/console/researchers", .permission(.manageResearchers)) { request, context in try await addResearcher(request, context) },
            ConsoleRoute(.post, "/console/researchers/:researcher/role", .permission(.manageResearchers)) { _, context in
                let (researcher, _) = try await otherResearcher(context)
                guard let role = ResearcherRole(rawValue: context.field("role")) else {
                    throw StudyServerError(.unprocessableContent, code: "choose-role", "Choose a role: viewer, investigator or admin.")
                }
                try await service.researchers.store.setRole(role, researcherID: researcher.id)
                return .redirect(to: ConsolePageRenderer.researchersPath, type: .normal)
            },
            ConsoleRoute(.post, "/console/researchers/:researcher/link", .permission(.manageResearchers)) { request, context in
                let (researcher, _) = try await otherResearcher(context)
                let link = try await service.researchers.store.createPasswordLink(researcherID: researcher.id)
                return StudyRouter.html(service.consolePages.researchers(try await researchersView(request, context, newLink: (researcher.email, link)), context: pageContext(context)))
            },
            ConsoleRoute(.post, "/console/researchers/:researcher/remove", .permission(.manageResearchers)) { _, context in
                let (researcher, _) = try await otherResearcher(context)
                try await service.researchers.store.removeResearcher(id: researcher.id)
                return .redirect(to: ConsolePageRenderer.researchersPath, type: .normal)
            },
            ConsoleRoute(.get, "/console/account", .signedIn) { _, context in
                let researcher = try context.signedIn
                let view = ConsoleAccountView(email: researcher.email, role: researcher.role.rawValue, signOutAction: "/console/sign-out",
                                              signOutEverywhereAction: "/console/sign-out-everywhere")
                return StudyRouter.html(service.consolePages.account(view, context: pageContext(context)))
            },
            ConsoleRoute(.post, "/console/sign-out", .signedIn) { _, context in
                if let session = context.session { try await service.researchers.store.revokeResearcherSession(id: session.id, researcherID: session.researcherID) }
                return signedOut()
            },
            ConsoleRoute(.post, "/console/sign-out-everywhere", .signedIn) { _, context in
                try await service.researchers.store.revokeResearcherSessions(researcherID: try context.signedIn.id)
                return signedOut()
            },
        ]
    }

    // MARK: - Signing in

    private func signIn(_ request: Request, _ context: ConsoleRequestContext) async throws -> Response {
        let email = context.field("email"), password = context.field("password")
        let client = ClientAddress.resolve(peer: context.remoteAddress, forwardedFor: request.headers[HTTPField.Name("X-Forwarded-For")!],
                                           trustedProxies: service.trustedProxies)
        let page = { (error: String, status: HTTPResponse.Status) in
            StudyRouter.html(service.consolePages.signIn(ConsoleSignInView(action: "/console/sign-in", email: email, error: error),
                                                         context: pageContext(context)), status: status)
        }
        switch try await service.researchers.signIn(email: email, password: password, from: client, at: service.environment.now()) {
        case .signedIn(let issued):
            var response = Response.redirect(to: ConsolePageRenderer.homePath, type: .normal)
            response.setCookie(Cookie(name: Self.cookie, value: issued.token, maxAge: Int(ResearcherAccounts.sessionLifetime), path: "/console",
                                      secure: secureCookies, httpOnly: true, sameSite: .strict))
            return response
        case .refused:
            return page("The email address or the password is wrong.", .unprocessableContent)
        case .paused(let until):
            let when = until.map { " until " + ISO8601.string(from: $0, in: .gmt) } ?? " for a while"
            return page("Too many wrong passwords: signing in from here is paused\(when). A researcher who forgot their password can get a new link from an admin.",
                        .tooManyRequests)
        }
    }

    /// What the console's first page after signing in tells the researcher of the wrong passwords tried for their
    /// address since they last signed in.
    static func signInNotice(_ failures: FailedSignIns) -> String {
        let tries = failures.count == 1 ? "1 wrong password was" : "\(failures.count) wrong passwords were"
        let clients = failures.clients == 1 ? "1 network address" : "\(failures.clients) network addresses"
        let when = failures.count == 1 ? "at " + ISO8601.string(from: failures.last, in: .gmt)
            : "the first at \(ISO8601.string(from: failures.first, in: .gmt)), the last at \(ISO8601.string(from: failures.last, in: .gmt))"
        return "Since you last signed in, \(tries) tried for your email address from \(clients), \(when). If they were not yours, tell an admin of the study."
    }

    private func setPassword(_ context: ConsoleRequestContext) async throws -> Response {
        let token = try context.parameter("token")
        guard let researcher = try await service.researchers.store.researcher(passwordLinkToken: token) else { throw Self.deadLink }
        let password = context.field("password")
        if let problem = ResearcherAccounts.problem(withPassword: password, confirmation: context.field("confirmation"), for: researcher) {
            return StudyRouter.html(service.consolePages.password(passwordView(token: token, researcher: researcher, error: problem), context: pageContext(context)),
                                    status: .unprocessableContent)
        }
        guard try await service.researchers.setPassword(password, linkToken: token) != nil else { throw Self.deadLink }
        return .redirect(to: "/console/sign-in?notice=password-set", type: .normal)
    }

    private func passwordView(token: String, researcher: Researcher, error: String? = nil) -> ConsolePasswordView {
        ConsolePasswordView(action: "/console/password/" + URLPath.encoded(token), email: researcher.email,
                            minimumLength: ResearcherAccounts.minimumPasswordLength, error: error)
    }

    private static let deadLink = StudyServerError(.notFound, code: "password-link-dead", "This link does not work any more: it was used, it expired, or a newer one replaced it. Ask an admin of the study for a new one.")

    /// The sign-in page, with the console cookie cleared.
    private func signedOut() -> Response {
        var response = Response.redirect(to: "/console/sign-in", type: .normal)
        response.setCookie(Cookie(name: Self.cookie, value: "", maxAge: 0, path: "/console", secure: secureCookies, httpOnly: true, sameSite: .strict))
        return response
    }

    // MARK: - Study data

    private func participant(_ context: ConsoleRequestContext) async throws -> StudyParticipant {
        guard let participant = try await service.store.participant(id: try context.parameter("participant")) else {
            throw StudyServerError(.notFound, code: "no-such-participant", "No participant has this id.")
        }
        return participant
    }

    private func consentPDF(_ context: ConsoleRequestContext) async throws -> Response {
        let participant = try await participant(context)
        guard let id = UUID(uuidString: try context.parameter("record")),
              let stored = try await service.store.consentRecord(id: id, participantID: participant.id) else {
            throw StudyServerError(.notFound, code: "no-such-consent-record", "This participant has no consent record with this id.")
        }
        let records = try await service.store.consentRecords(participantID: participant.id)
        let original = stored.linkedOriginal(among: records)
        let mismatches = ConsentRecordVerifier(expectedPublicKey: service.consentKey.publicKey).mismatches(in: stored.sealed, original: original)
        guard mismatches.isEmpty else {
            throw StudyServerError(.conflict, code: "consent-record-does-not-verify", "This record does not verify, so its PDF is not served: " + mismatches.map(\.description).joined(separator: "; "))
        }
        guard let pdf = await service.pdfPrinter.pdf(of: stored) else {
            throw StudyServerError(.conflict, code: "consent-printing", "This record's PDF is not ready: it is being printed, or printing failed (see the server's log).")
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/pdf"
        headers[.cacheControl] = "no-store"
        headers[.contentDisposition] = "inline; filename=\"\(service.study.identifier)-\(participant.id)-\(id.uuidString.lowercased()).pdf\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: pdf)))
    }

    /// Countersigns a consent with the typed name, or shows the participant's page again saying why not.
    private func countersign(_ context: ConsoleRequestContext) async throws -> Response {
        let participant = try await participant(context)
        guard let id = UUID(uuidString: try context.parameter("record")) else { throw StudyServerError.countersignature(ConsentCountersigner.Problem.noSuchConsent) }
        do {
            guard context.field("confirm") == "yes" else { throw ConsentCountersigner.Problem.name("Confirm that you obtained the participant's consent.") }
            _ = try await service.workflow.countersigner.countersign(recordID: id, of: participant, givenName: context.field("givenName"),
                                                                     familyName: context.field("familyName"))
        } catch let problem as ConsentCountersigner.Problem {
            switch problem {
            case .noSuchConsent, .alreadyCountersigned, .withdrawn, .notAsked, .doesNotVerify: throw StudyServerError.countersignature(problem)
            case .name:
                let view = try await ConsolePageBuilder(service: service).participant(participant, canCountersign: true,
                                                                                      countersignError: (id, problem.description))
                return StudyRouter.html(service.consolePages.participant(view, context: pageContext(context)), status: .unprocessableContent)
            }
        }
        service.printConsentPDFs()
        return .redirect(to: "/console/participants/" + URLPath.encoded(participant.id), type: .normal)
    }

    /// Records the participant's withdrawal with the reason given, or shows their page again saying why not.
    private func recordWithdrawal(_ context: ConsoleRequestContext) async throws -> Response {
        let participant = try await participant(context)
        // The reason's rules and the data choice are the withdrawal's (StudyWithdrawal); where the participant chooses
        // what happens to their data, the investigator records their choice.
        let data = service.study.withdrawal == .participantChooses ? WithdrawnData(rawValue: context.field("data")) : nil
        let problem: String
        do {
            try await service.withdraw(participant, reason: context.field("reason"), data: data, recordedBy: .investigator)
            return .redirect(to: "/console/participants/" + URLPath.encoded(participant.id), type: .normal)
        } catch StudyWithdrawalError.reason(let reasonProblem) {
            problem = switch reasonProblem {
            case .missing: "Write the reason the participant gave, or how they told the team."
            case .tooLong(let maximum): "The reason is longer than \(maximum) characters."
            case .forbiddenCharacter(let scalar): "The reason holds \(FreeTextRules.describe(scalar)), which would not show as typed."
            }
        } catch StudyWithdrawalError.choiceRequired {
            problem = "Choose what the participant asked for their data: keep it or delete it."
        } catch StudyRefusal.withdrawn {
            throw StudyServerError(.conflict, code: "withdrawn", "This participant has left the study already.")
        } catch StudyRefusal.onboardingRequired {
            throw StudyServerError(.conflict, code: "not-consented", "This participant has not consented: there is nothing to withdraw.")
        }
        let view = try await ConsolePageBuilder(service: service).participant(participant, canCountersign: try context.signedIn.role.allows(.countersignConsent),
                                                                              canRecordWithdrawal: true, withdrawalError: problem)
        return StudyRouter.html(service.consolePages.participant(view, context: pageContext(context)), status: .unprocessableContent)
    }

    /// The study in the format named `name`, exported into a folder under the data folder, zipped, streamed, and
    /// deleted. The query's `for-spreadsheets=1` writes the CSV cells for spreadsheets (``CSVCellStyle``); a format
    /// without CSV files is exact either way.
    private func export(_ request: Request, format name: String) async throws -> Response {
        guard let format = StudyExportFormat(rawValue: name) else {
            throw StudyServerError(.notFound, code: "no-such-export-format", "There is no export format '\(name.prefix(40))'; the formats are "
                + StudyExportFormat.allCases.map(\.rawValue).joined(separator: ", ") + ".")
        }
        let cells: CSVCellStyle
        switch request.uri.queryParameters["for-spreadsheets"].map(String.init) ?? "" {
        case "", "0": cells = .exact
        case "1": cells = .forSpreadsheets
        case let other:
            throw StudyServerError(.badRequest, code: "bad-request", "for-spreadsheets is 1 (cells safe for spreadsheets) or 0 (exact), not '\(other.prefix(40))'.")
        }
        let archive = try await service.exportArchive(format: format, cells: cells)
        var headers = HTTPFields()
        headers[.contentType] = "application/zip"
        headers[.cacheControl] = "no-store"
        headers[.contentLength] = String(archive.size)
        headers[.contentDisposition] = "attachment; filename=\"\(archive.fileName)\""
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            for try await chunk in try archive.chunks() { try await writer.write(ByteBuffer(bytes: chunk)) }
            try await writer.finish(nil)
        })
    }

    // MARK: - Invitations

    private func invitationsView(newLinks: [String] = [], error: String? = nil) async throws -> ConsoleInvitationsView {
        // A link is a few dozen bytes: far within what a QR code holds (a failure here is the server's fault).
        let shown = try newLinks.enumerated().map { index, link in
            ConsoleNewLinkView(link: link, qrSVG: try QRCode(encoding: link).svg(title: "QR code of invitation link \(index + 1)"))
        }
        let now = service.environment.now()
        let rows = try await service.store.invitations().reversed().map { invitation in
            let state: String
            if let used = invitation.usedAt {
                state = "used " + ISO8601.string(from: used, in: .gmt) + (invitation.usedBy.map { " by \($0)" } ?? "")
            } else if let revoked = invitation.revokedAt {
                state = "revoked " + ISO8601.string(from: revoked, in: .gmt)
            } else if let expires = invitation.expiresAt, expires <= now {
                state = "expired " + ISO8601.string(from: expires, in: .gmt)
            } else {
                state = "unused" + (invitation.expiresAt.map { ", expires " + ISO8601.string(from: $0, in: .gmt) } ?? "")
            }
            let label = invitation.label ?? ""
            return ConsoleInvitationRowView(
                label: label, created: ISO8601.string(from: invitation.createdAt, in: .gmt), state: state,
                revoke: invitation.isUsable(at: now)
                    ? ConsoleButtonView(action: "/console/invitations/\(invitation.id.uuidString.lowercased())/revoke", label: "Revoke",
                                        context: label.isEmpty ? "the invitation made \(ISO8601.string(from: invitation.createdAt, in: .gmt))" : "the invitation '\(label)'")
                    : nil)
        }
        return ConsoleInvitationsView(createAction: ConsolePageRenderer.invitationsPath, error: error, newLinks: shown, invitations: Array(rows))
    }

    /// Makes the links a post asks for and shows them once, or says what is wrong with the form.
    private func createInvitations(_ request: Request, _ context: ConsoleRequestContext) async throws -> Response {
        let page = { (links: [String], error: String?) async throws -> Response in
            StudyRouter.html(service.consolePages.invitations(try await invitationsView(newLinks: links, error: error), context: pageContext(context)),
                             status: error == nil ? .ok : .unprocessableContent)
        }
        guard let count = Int(context.field("count")), (1...200).contains(count) else { return try await page([], "Give a number of links from 1 to 200.") }
        let label = context.field("label").trimmingCharacters(in: .whitespacesAndNewlines)
        if label.count > 200 { return try await page([], "The label is longer than 200 characters.") }
        if let scalar = FreeTextRules.forbiddenScalar(in: label, allowingLineBreaks: false) {
            return try await page([], "The label holds \(FreeTextRules.describe(scalar)), which cannot be shown as typed.")
        }
        var expiresAt: Date?
        let days = context.field("days").trimmingCharacters(in: .whitespaces)
        if !days.isEmpty {
            guard let number = Int(days), (1...3650).contains(number) else { return try await page([], "Give the days before the links expire as a number from 1 to 3650, or leave it empty.") }
            expiresAt = service.environment.now().addingTimeInterval(TimeInterval(number) * 86_400)
        }
        let base = publicBase(of: request)
        var links: [String] = []
        for _ in 0..<count {
            let issued = try await service.store.createInvitation(label: label.isEmpty ? nil : label, expiresAt: expiresAt)
            links.append(base + "/join/" + issued.code)
        }
        return try await page(links, nil)
    }

    /// The address participants and researchers open, as this request reached the server.
    private func publicBase(of request: Request) -> String {
        (secureCookies ? "https://" : "http://") + (request.head.authority ?? "\(service.configuration.host):\(service.configuration.port)")
    }

    // MARK: - Researchers

    private func researchersView(_ request: Request, _ context: ConsoleRequestContext, newLink: (email: String, link: IssuedPasswordLink)? = nil, error: String? = nil)
        async throws -> ConsoleResearchersView {
        let me = try context.signedIn
        let rows = try await service.researchers.store.researchers().map { researcher in
            let path = "/console/researchers/\(researcher.id.uuidString.lowercased())"
            let state = researcher.removedAt.map { "removed " + ISO8601.string(from: $0, in: .gmt) }
                ?? (researcher.passwordHash == nil ? "no password yet" : "active")
            let editable = researcher.id != me.id && researcher.removedAt == nil
            return ConsoleResearcherRowView(
                email: researcher.email, role: researcher.role.rawValue, state: researcher.id == me.id ? state + " (you)" : state,
                roleForm: editable ? ConsoleRoleFormView(action: path + "/role", id: "role-\(researcher.id.uuidString.lowercased())", context: researcher.email,
                                                         options: ResearcherRole.allCases.map { ConsoleOptionView(value: $0.rawValue, label: $0.rawValue, selected: $0 == researcher.role) })
                    : nil,
                remove: editable ? ConsoleButtonView(action: path + "/remove", label: "Remove", context: researcher.email) : nil,
                newLink: editable ? ConsoleButtonView(action: path + "/link", label: "New password link", context: "for " + researcher.email) : nil)
        }
        return ConsoleResearchersView(
            addAction: ConsolePageRenderer.researchersPath, error: error,
            newLink: newLink.map { ConsolePasswordLinkView(href: publicBase(of: request) + "/console/password/" + $0.link.token, label: $0.email,
                                                           lifetimeDays: IssuedPasswordLink.lifetimeInDays) },
            roles: ResearcherRole.allCases.map { ConsoleOptionView(value: $0.rawValue, label: $0.rawValue, selected: $0 == .viewer) }, researchers: rows)
    }

    private func addResearcher(_ request: Request, _ context: ConsoleRequestContext) async throws -> Response {
        guard let role = ResearcherRole(rawValue: context.field("role")) else {
            return StudyRouter.html(service.consolePages.researchers(try await researchersView(request, context, error: "Choose a role: viewer, investigator or admin."),
                                                                     context: pageContext(context)), status: .unprocessableContent)
        }
        do {
            let researcher = try await service.researchers.store.addResearcher(email: context.field("email"), role: role)
            let link = try await service.researchers.store.createPasswordLink(researcherID: researcher.id)
            return StudyRouter.html(service.consolePages.researchers(try await researchersView(request, context, newLink: (researcher.email, link)), context: pageContext(context)))
        } catch let error as ResearcherStoreError {
            let text = String(describing: error)
            return StudyRouter.html(service.consolePages.researchers(try await researchersView(request, context, error: text.prefix(1).uppercased() + text.dropFirst() + "."),
                                                                     context: pageContext(context)), status: .unprocessableContent)
        }
    }

    /// The researcher a route names, when it is not the one signed in (an admin does not change or remove
    /// themselves: the study could be left without one) and not removed.
    private func otherResearcher(_ context: ConsoleRequestContext) async throws -> (Researcher, Researcher) {
        let me = try context.signedIn
        guard let id = UUID(uuidString: try context.parameter("researcher")), let researcher = try await service.researchers.store.researcher(id: id),
              researcher.removedAt == nil else {
            throw StudyServerError(.notFound, code: "no-such-researcher", "No researcher has this id.")
        }
        guard researcher.id != me.id else { throw StudyServerError(.conflict, code: "own-account", "You cannot change or remove your own account here; ask another admin.") }
        return (researcher, me)
    }

    // MARK: - Pages

    private func pageContext(_ context: ConsoleRequestContext) -> ConsoleContext {
        ConsoleContext(studyName: service.study.name, researcher: context.researcher.map { "\($0.email) · \($0.role.rawValue)" }, csrfToken: context.csrfToken,
                       managesResearchers: context.researcher?.role.allows(.manageResearchers) ?? false,
                       managesInvitations: context.researcher?.role.allows(.manageInvitations) ?? false, assets: .linked(basePath: "/assets"))
    }
}

extension StudyService: ConsoleController.Service {}
