import CareStore
import Consent
import Foundation
import PostgresTestSupport
import StudyKitEnvironment
import HTTPTypes
import Study
@testable import StudyServer
import Synchronization
import StudySQLite
import Testing

/// Recover served on a fresh data folder at a clock the test moves, and its participants: what every server test
/// starts from.
enum ServerFixture {
    /// A clock the tests move by hand.
    final class Clock: Sendable {
        private let current: Mutex<Date>
        init(_ start: Date) { current = Mutex(start) }
        var now: Date { current.withLock { $0 } }
        func set(_ date: Date) { current.withLock { $0 = date } }
    }

    /// A renderer that prints nothing: these tests never look at a PDF.
    struct NoPDF: ConsentPDFRenderer {
        struct NotPrinted: Error {}
        func renderPDF(html: String, footer: ConsentPDFFooter) async throws -> Data { throw NotPrinted() }
    }

    /// The package's folder.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A copy of the example studies in a new temporary folder (Recover's consent documents are a folder up from it),
    /// and Recover's folder in it.
    static func recoverCopy() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("recover-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repository.appendingPathComponent("examples"), to: root.appendingPathComponent("examples"))
        // Without Recover's translations and with every language falling back: a test writes the texts it needs.
        let recover = root.appendingPathComponent("examples/studies/recover")
        try FileManager.default.removeItem(at: recover.appendingPathComponent("translations"))
        let file = recover.appendingPathComponent("study.yaml")
        try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "languages: [en, ja, zh-Hans, ko, es]\n",
                                                                                      with: "languages: [en, ja, zh-Hans, ko, es]\ntranslation:\n  fallback: [ja, zh-Hans, ko, es]\n")
            .write(to: file, atomically: true, encoding: .utf8)
        return recover
    }

    /// Recover (or the study in `studyFolder`) on a fresh data folder, with every clock set to `clock`.
    /// `trustedProxies` are the peers whose `X-Forwarded-For` names the client; `heartbeat` is the live-update streams';
    /// `reminders` how reminders are sent (none by default).
    static func service(clock: Clock, dataFolder: URL? = nil, withdrawal: StudyWithdrawalPolicy? = nil,
                        studyFolder: URL? = nil, trustedProxies: Set<String> = [], heartbeat: Duration? = nil,
                        reminders: ReminderSendingConfiguration? = nil) throws -> StudyService {
        let data = dataFolder ?? TestScratchFolder.make("home-cache")
        // bcrypt at its lowest cost: the console's tests sign in many times.
        var configuration = StudyServerConfiguration(studyFolder: studyFolder ?? repository.appendingPathComponent("examples/studies/recover"),
                                                     dataFolder: data, trustedProxies: trustedProxies, passwordCost: 4)
        if let heartbeat { configuration.liveUpdateHeartbeat = heartbeat }
        if let reminders { configuration.reminders = reminders }
        var study = try StudyServerApplication.loadStudy(configuration)
        if let withdrawal { study.withdrawal = withdrawal }
        let environment = StudyKitEnvironment(now: { clock.now }, makeUUID: { UUID() })
        let database = try SQLiteStudyDatabase.openForServer(dataFolder: data, environment: environment, durability: .processCrash,
                                                             auditAnchorInterval: .milliseconds(100))
        return try StudyService(study: study, configuration: configuration, data: database, environment: environment, pdfRenderer: NoPDF())
    }

    /// A participant enrolled now in `zone`, signed in, and (unless told otherwise) through onboarding.
    static func participant(of service: StudyService, zone: TimeZone, onboarded: Bool = true) async throws -> StudyService.SignedIn {
        let invitation = try await service.store.createInvitation(label: nil, expiresAt: nil)
        let token = try await service.enrol(invitationCode: invitation.code, timeZone: zone, language: "en")
        let signedIn = try #require(try await service.signedIn(sessionToken: token))
        if onboarded {
            _ = try await OnboardingGate(careStore: service.careStore, environment: service.environment)
                .recordCompletion(participantID: signedIn.participant.id, timeZone: zone)
        }
        return signedIn
    }

    /// A consent record for `signedIn`, sealed by the server's key at `date` and stored (its PDF pending).
    @discardableResult
    static func consent(of service: StudyService, for signedIn: StudyService.SignedIn, at date: Date) async throws -> SealedConsentRecord {
        let signature = ConsentRecordSignature(identifier: "participant", meaning: "consent to participate", givenName: "Alex",
                                               familyName: "Kim", drawing: nil, signedAt: date, timeZone: .gmt)
        let sealed = try ConsentRecorder(signingKey: service.consentKey, environment: service.environment).sealConsent(
            participantIdentifier: signedIn.participant.id, studyIdentifier: "recover", studyName: "Recover",
            documentIdentifier: "recover-consent", documentVersion: "1.0", language: "en", html: "<p>I agree.</p>",
            signatures: [signature], answers: ["sharing": "shareWidely"])
        try await service.store.appendConsentRecord(sealed)
        return sealed
    }

    /// Each card's title with the state class of its badge.
    static func cardStates(_ page: String) -> [String: String] {
        var states: [String: String] = [:]
        for match in page.matches(of: #/<h2>([^<]+)</h2><span class="badge (\w+)">/#) {
            states[String(match.output.1)] = String(match.output.2)
        }
        return states
    }

    static func date(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    /// The participant's cookie, and a form's content type.
    static func headers(_ signedIn: StudyService.SignedIn?, form: Bool = false) -> HTTPFields {
        var headers = HTTPFields()
        if let signedIn { headers[.cookie] = "\(StudyRouter.sessionCookie)=\(signedIn.sessionToken)" }
        if form { headers[.contentType] = "application/x-www-form-urlencoded" }
        return headers
    }

    /// A researcher with `role` and a console session: their cookie header, and the CSRF field of their forms.
    static func researcher(of service: StudyService, role: ResearcherRole, email: String? = nil) async throws
        -> (researcher: Researcher, cookie: String, csrf: String) {
        let researcher = try await service.researchers.store.addResearcher(email: email ?? "\(role.rawValue)-\(UUID().uuidString.prefix(8))@example.org", role: role)
        let session = try await service.researchers.store.createResearcherSession(researcherID: researcher.id, lifetime: 3600)
        let csrf = ConsoleController.csrfToken(of: session.session, signer: service.signer)
        return (researcher, "\(ConsoleController.cookie)=\(session.token)", "_csrf=\(csrf.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
    }

    /// A console request's headers: the researcher's cookie, and a form's content type.
    static func consoleForm(_ cookie: String?, form: Bool = true) -> HTTPFields {
        var headers = HTTPFields()
        if let cookie { headers[.cookie] = cookie }
        if form { headers[.contentType] = "application/x-www-form-urlencoded" }
        return headers
    }

    /// The CSRF field of `signedIn`'s forms.
    static func token(_ signedIn: StudyService.SignedIn) -> String {
        "_csrf=\(signedIn.csrfToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
    }
}

extension StudyService {
    /// The service's database as the SQLite file the fixture opened, for tests of what only that backend offers (the
    /// audit trail's anchor file, its verification against the data folder's key).
    var sqliteData: SQLiteStudyDatabase {
        get throws { try #require(data as? SQLiteStudyDatabase) }
    }
}
