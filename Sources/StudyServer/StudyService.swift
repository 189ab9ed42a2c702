import CareStore
import Consent
import ConsentPrinting
import Foundation
import StudyKitEnvironment
import Research
import Study
import StudyFHIR
import StudyWeb
import Synchronization
import WebPush
import Crypto

/// Everything the study server does, without HTTP: enrolment, sessions, the home page's cards, task runs driven by
/// posted forms, and what a finished run leaves behind (outcomes; for onboarding, the sealed consent record and its
/// PDF). ``StudyRouter`` maps requests onto it.
///
/// Every call that reads or changes a participant's data takes the participant, so one participant can never reach
/// another's runs, records or outcomes: a run id of someone else is simply not found.
public final class StudyService: Sendable {
    /// The loaded, checked study.
    public let study: StudyDefinition
    /// The study's one database: both stores, one transaction per participant action, the study team's accounts and the
    /// audit trail. The service is given it and knows no backend.
    public let data: any StudyDatabase
    /// The participant's study without HTTP: the gate, runs, outcomes and the day's cards.
    public let workflow: ParticipantWorkflow
    let configuration: StudyServerConfiguration
    let environment: StudyKitEnvironment
    let signer: RequestSigner
    let stepPages: StepPageRenderer
    let sitePages: SitePageRenderer
    /// The study team's console pages.
    let consolePages: ConsolePageRenderer
    /// The study team's accounts and sign-in.
    let researchers: ResearcherAccounts
    let consentKey: ConsentSigningKey
    let pdfPrinter: ConsentPDFPrinter
    /// Wakes the ``ConsentPDFPrintingService`` when a sealed record waits for its PDF.
    let pdfWakeUps: AsyncStream<Void>
    private let pdfWakeUp: AsyncStream<Void>.Continuation
    /// The web strings of each study language, with the study's overrides, made once.
    private let webStrings: [String: WebStrings]
    /// Sessions recently found valid, by token, so that a page or a post does not read the session and the
    /// participant from the store every time. An entry is trusted for ``sessionRecheckInterval``; a language change
    /// drops the participant's entries at once.
    private let recentSessions = Mutex<[String: RecentSession]>([:])
    /// Each session's home page as last made, served again while nothing on it can have changed.
    let homePages = HomePageCache()
    /// The study's cards that are not tasks, as today's page shows them: made once, since the study does not change.
    /// The daily page's cards that are not tasks, in each of the study's languages.
    let contentCardsByLanguage: [String: [ContentCard]]
    /// The URL of the study's logo, if it has one (the same on every page).
    let logoURL: String?
    /// Dates as participants' pages write them, formatted once.
    let dateTexts = DateTexts()
    /// Wrong sign-in codes, limited per client address and server-wide, with the buckets in the study's database.
    let signInAttempts: SignInAttemptLimiter
    /// Which participants' care data changed, for their cached and open pages (``HomePageCache``,
    /// ``LiveUpdatesController``); fed by the care store's commit observer.
    let changeFeed = InProcessParticipantChangeFeed()
    /// The live-update streams open, bounded per session and client address; a sign-out or a withdrawal ends theirs.
    let liveStreams: LiveStreamRegistry
    /// This run of the server, in live-update event ids: a browser that saw an id of another run refreshes.
    let bootID: String
    /// The words and links of confirmations and reminders.
    let reminderMessages: ReminderMessages
    /// The mail server reminders go through; nil when the server sends no mail.
    let mailer: ReminderMailer?
    /// How often confirmation links are mailed.
    let confirmationLimiter = ConfirmationMailLimiter()
    /// The server's VAPID key (`KEYS/vapid-private-key`), made on first use; nil when the server sends no push.
    let vapidKey: VAPIDKey?
    /// Sends push messages to the services the configuration allows; nil when the server sends no push.
    let pushSender: WebPushSender?

    /// The proxies whose `X-Forwarded-For` header names the client (``StudyServerConfiguration/trustedProxies``).
    var trustedProxies: Set<String> { configuration.trustedProxies }

    /// Participants, invitations, sessions, runs and consent records.
    public var store: any StudyStore { data.studyStore }
    /// Care plans, tasks, events and outcomes.
    public var careStore: any CareStore { data.careStore }

    /// How long a session found valid is trusted before the store is asked again (which also notes it as seen).
    static let sessionRecheckInterval: TimeInterval = 30
    /// The most sessions remembered at once; the memory starts afresh beyond it.
    static let recentSessionLimit = 10_000

    private struct RecentSession {
        let signedIn: SignedIn
        let checkedAt: Date
        let expiresAt: Date
    }

    /// The file of the server's VAPID private key (32 bytes) in the keys folder.
    static let vapidKeyFileName = "vapid-private-key"

    /// How long a session cookie lasts.
    static let sessionLifetime: TimeInterval = 365 * 86_400
    /// How long a sign-in code for a second device is good for.
    static let signInCodeLifetime: TimeInterval = 10 * 60
    /// The service of `study` over `data`, with the keys of the data folder (opened or created); throws
    /// ``StudyServerStartError`` naming the file at fault. The data folder is made owner-only (0700) and its keys and
    /// files are created owner-only (0600), whatever the process's umask; a data folder that is a source checkout is
    /// refused.
    public init(study: StudyDefinition, configuration: StudyServerConfiguration, data: any StudyDatabase,
                environment: StudyKitEnvironment = .live, pdfRenderer: any ConsentPDFRenderer = ChromiumPDFRenderer()) throws {
        self.study = study
        self.configuration = configuration
        liveStreams = LiveStreamRegistry(limits: LiveStreamRegistry.Limits(perSession: LiveStreamRegistry.Limits.standard.perSession,
                                                                           perClient: max(1, configuration.liveStreamsPerClient)))
        self.environment = environment
        bootID = environment.randomBytes(6).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        let folder: StudyDataFolder
        do {
            // Owner-only whatever the umask: everything below it is participants' data or the server's keys.
            folder = try StudyDataFolder(url: configuration.dataFolder)
            try folder.prepare()
        } catch {
            throw StudyServerStartError("data folder: \(error)")
        }
        self.data = data
        signInAttempts = SignInAttemptLimiter(store: data.studyStore, limit: .participantCodes)
        researchers = ResearcherAccounts(store: data.researchers, attempts: SignInAttemptLimiter(store: data.studyStore, limit: .consolePasswords),
                                         cost: configuration.passwordCost)
        signer = try RequestSigner.load(keysFolder: configuration.keysFolder, randomBytes: environment.randomBytes)
        do {
            consentKey = try ConsentKeyStore(keysDirectory: configuration.keysFolder).loadOrCreate()
        } catch {
            throw StudyServerStartError("consent signing key: \(error)")
        }
        do {
            stepPages = try StepPageRenderer()
            sitePages = try SitePageRenderer()
            consolePages = try ConsolePageRenderer()
        } catch {
            throw StudyServerStartError("page templates: \(error)")
        }
        (pdfWakeUps, pdfWakeUp) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        pdfPrinter = ConsentPDFPrinter(renderer: pdfRenderer, dataFolder: folder,
                                       verifier: ConsentRecordVerifier(expectedPublicKey: consentKey.publicKey))
        let calculator: (any TaskCalculator)?
        do {
            calculator = try study.makeCalculator()
        } catch {
            throw StudyServerStartError("the study's calculated items: \(error)")
        }
        workflow = ParticipantWorkflow(study: study, data: data, environment: environment, consentKey: consentKey, calculator: calculator)
        let builtInStrings = Dictionary(uniqueKeysWithValues: study.languages.map { ($0, WebStrings(language: $0, overrides: study.strings.web)) })
        let overrides = study.strings.web
        reminderMessages = ReminderMessages(study: study, configuration: configuration.reminders, signer: signer,
                                            strings: { language in builtInStrings[language] ?? WebStrings(language: language, overrides: overrides) },
                                            environment: environment)
        mailer = configuration.reminders.mail.map { ReminderMailer(configuration: $0.smtp) }
        if let push = configuration.reminders.push {
            do {
                let keys = ConsentKeyStore(keysDirectory: configuration.keysFolder)
                let raw = try keys.loadSecret(named: Self.vapidKeyFileName, byteCount: 32)
                    ?? keys.storeSecret(named: Self.vapidKeyFileName, try VAPIDKey.generate(randomBytes: environment.randomBytes).privateKey.rawRepresentation)
                vapidKey = VAPIDKey(privateKey: try P256.Signing.PrivateKey(rawRepresentation: raw))
            } catch {
                throw StudyServerStartError("web push key (\(configuration.keysFolder.appendingPathComponent(Self.vapidKeyFileName).path)): \(error)")
            }
            let now = environment.now
            pushSender = WebPushSender(policy: push.policy, timeout: .seconds(30), now: { now() })
        } else {
            vapidKey = nil
            pushSender = nil
        }
        contentCardsByLanguage = Dictionary(study.languages.map { ($0, study.localized($0).feed.map(DailyPageBuilder.contentCard)) },
                                            uniquingKeysWith: { first, _ in first })
        logoURL = study.theme.logo.map(AssetController.imageURL)
        webStrings = builtInStrings
        // Every committed care write is published at once, before the write returns: the participant's cached pages
        // key on it, and their open pages are told (LiveUpdatesController).
        let feed = changeFeed
        data.observeCareCommits { change in feed.publish(change) }
    }

    // MARK: - Participants and sessions

    /// A signed-in participant: who, the session (its id, and the token from their cookie), and its CSRF token.
    struct SignedIn: Sendable {
        let participant: StudyParticipant
        let sessionID: UUID
        let sessionToken: String
        let csrfToken: String

        /// Refuses a posted form whose one `_csrf` field is not this session's token (compared in constant time).
        func requireCSRFToken(in form: [String: [String]]) throws(StudyServerError) {
            guard CSRFToken.isPosted(in: form, expected: csrfToken) else { throw .formToken }
        }
    }

    /// The participant whose session token this is; nil for an unknown, expired or revoked token.
    func signedIn(sessionToken: String?) async throws -> SignedIn? {
        guard let sessionToken, !sessionToken.isEmpty else { return nil }
        let now = environment.now()
        if let recent = recentSessions.withLock({ $0[sessionToken] }),
           now.timeIntervalSince(recent.checkedAt) < Self.sessionRecheckInterval, now < recent.expiresAt {
            return recent.signedIn
        }
        guard let session = try await store.session(token: sessionToken),
              let participant = try await store.participant(id: session.participantID) else {
            recentSessions.withLock { _ = $0.removeValue(forKey: sessionToken) }
            return nil
        }
        let signedIn = SignedIn(participant: participant, sessionID: session.id, sessionToken: sessionToken,
                                csrfToken: signer.csrfToken(forSession: sessionToken))
        recentSessions.withLock { sessions in
            if sessions.count >= Self.recentSessionLimit { sessions.removeAll(keepingCapacity: true) }
            sessions[sessionToken] = RecentSession(signedIn: signedIn, checkedAt: now, expiresAt: session.expiresAt)
        }
        return signedIn
    }

    /// Signs one of the participant's other browsers out (a lost phone): its session is revoked at once, here and
    /// in the sessions remembered. The browser showing the page cannot sign itself out: with no other device, the
    /// participant could not get back in.
    func signOut(sessionID: UUID, signedIn: SignedIn) async throws {
        guard sessionID != signedIn.sessionID else { throw StudyServerError(.conflict, .refusalThisBrowser) }
        guard try await store.revokeSession(id: sessionID, participantID: signedIn.participant.id) else {
            throw StudyServerError(.notFound, .refusalNoSuchBrowser)
        }
        forgetSessions(of: signedIn.participant.id)
        liveStreams.end(session: sessionID, because: .signedOut)
    }

    /// Records that the participant leaves the study (``StudyWithdrawal/withdraw(_:reason:data:recordedBy:)``), and
    /// ends their open live-update streams: from then on the server sends them nothing new.
    func withdraw(_ participant: StudyParticipant, reason: String?, data: WithdrawnData?, recordedBy recorder: StudyWithdrawal.Recorder) async throws {
        try await workflow.withdrawal.withdraw(participant, reason: reason, data: data, recordedBy: recorder)
        liveStreams.end(participant: participant.id, because: .withdrawn)
    }

    /// Whether a live-update stream of `signedIn` may go on: its session is still valid (as ``signedIn(sessionToken:)``
    /// finds it, asking the store again at least every ``sessionRecheckInterval``) and the participant's consent
    /// records, read from the store (another process may have recorded a withdrawal), hold no withdrawal.
    func isStillLive(_ signedIn: SignedIn) async throws -> Bool {
        guard try await self.signedIn(sessionToken: signedIn.sessionToken)?.sessionID == signedIn.sessionID else { return false }
        return StudyWithdrawal.withdrawal(of: try await store.consentRecords(participantID: signedIn.participant.id)) == nil
    }

    /// Forgets the remembered sessions of a participant whose details changed.
    private func forgetSessions(of participantID: String) {
        recentSessions.withLock { sessions in sessions = sessions.filter { $0.value.signedIn.participant.id != participantID } }
    }

    /// Enrols a participant with an invitation code (or none, for an open study) and signs them in: returns the
    /// session token for the cookie.
    func enrol(invitationCode: String?, timeZone: TimeZone, language: String) async throws -> String {
        let participant = try await workflow.enrol(invitationCode: invitationCode, timeZone: timeZone, language: language)
        return try await store.createSession(participantID: participant.id, lifetime: Self.sessionLifetime).token
    }

    /// Exchanges a one-time code from the participant's other device for a new session token.
    ///
    /// Wrong codes are limited per client address and server-wide (``SignInAttemptLimiter``, its buckets in the study's
    /// database, shared by every server process over it); past either limit this
    /// throws ``StudyServerError/tooManyRequests(_:)`` without looking the code up.
    func signIn(code: String, from client: String) async throws -> String? {
        let cleaned = code.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
        guard !cleaned.isEmpty else { return nil }
        guard try await signInAttempts.allowsAttempt(from: client, at: environment.now()) else {
            throw StudyServerError(.tooManyRequests, .refusalTooManySignIns)
        }
        guard let participantID = try await store.redeemSignInCode(cleaned) else {
            try await signInAttempts.recordFailure(from: client, at: environment.now())
            return nil
        }
        return try await store.createSession(participantID: participantID, lifetime: Self.sessionLifetime).token
    }

    /// A new one-time code for signing in on another device.
    func makeSignInCode(for participant: StudyParticipant) async throws -> IssuedSignInCode {
        try await store.createSignInCode(participantID: participant.id, lifetime: Self.signInCodeLifetime)
    }

    /// Changes the participant's language to one the study offers.
    func setLanguage(_ language: String, for participant: StudyParticipant) async throws -> StudyParticipant {
        let changed = try await workflow.setLanguage(language, for: participant)
        forgetSessions(of: participant.id)
        return changed
    }

    // MARK: - Strings and dates

    /// The participant's web strings: built in, with the study's overrides.
    func strings(language: String) -> WebStrings {
        webStrings[language] ?? WebStrings(language: language, overrides: study.strings.web)
    }


    /// Asks the ``ConsentPDFPrintingService`` to print the records waiting for their PDFs.
    func printConsentPDFs() {
        pdfWakeUp.yield()
    }

    /// The daily page's cards that are not tasks, as a participant reading `language` sees them.
    func contentCards(language: String) -> [ContentCard] {
        contentCardsByLanguage[study.supportedLanguage(for: language) ?? study.defaultLanguage] ?? []
    }
}
