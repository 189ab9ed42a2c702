import CareStore
import Consent
import Foundation
import Study
import StudyWeb

/// The participant's pages that are not task steps: home (today's tasks behind the onboarding gate), settings, and
/// the pages before signing in.
extension StudyService {
    /// The context of site pages for a participant (or, signed out, for a language).
    func siteContext(language: String, signedIn: SignedIn?) -> SiteContext {
        SiteContext(strings: strings(language: language), csrfToken: signedIn?.csrfToken, studyName: study.name,
                    themeTint: study.theme.tint, assets: .linked(basePath: "/assets"), navigation: signedIn != nil)
    }

    /// Today's page: only the onboarding card until onboarding is done; then one card per task event of the
    /// participant's day, with its state and what it offers (start or continue a survey, mark a checklist done).
    ///
    /// The page is kept per session and served again until a store commits a write or the time turns a card's state
    /// or the day (see ``HomePageCache``); a page with a notice is made each time.
    func homePage(signedIn: SignedIn, notice: String?) async throws -> String {
        let participant = signedIn.participant
        // The revisions are read before anything the page shows, so that a write committed while it is made is seen.
        let source = HomePageCache.Source(participantID: participant.id, language: participant.language,
                                          timeZone: participant.timeZone.identifier,
                                          studyRevision: store.revision, careRevision: careStore.revision)
        let now = environment.now()
        if notice == nil, let page = homePages.page(session: signedIn.sessionToken, source: source, now: now) { return page }
        let (page, validUntil) = try await makeHomePage(signedIn: signedIn, notice: notice, now: now)
        if notice == nil { homePages.keep(page, session: signedIn.sessionToken, source: source, validUntil: validUntil, now: now) }
        return page
    }

    /// Today's page as it is at `now` (the workflow's ``TodayFeed``), and the first moment it would read differently by
    /// time alone.
    private func makeHomePage(signedIn: SignedIn, notice: String?, now: Date) async throws -> (page: String, validUntil: Date) {
        let participant = signedIn.participant
        let strings = strings(language: participant.language)
        let calendar = workflow.calendar(for: participant)
        let feed = try await workflow.today(for: participant, at: now)
        let locale = Locale(identifier: participant.language)
        let dayTitle = now.formatted(Date.FormatStyle(date: .complete, time: .omitted, locale: locale, calendar: calendar, timeZone: participant.timeZone))
        let timeStyle = Date.FormatStyle(date: .omitted, time: .shortened, locale: locale, calendar: calendar, timeZone: participant.timeZone)
        let page: HomePage
        switch feed.onboarding {
        case .required(let resumes):
            let card = TaskCard(title: strings[.onboardingCardTitle], instructions: nil, timeText: strings[.allDay], state: .toDo,
                                action: .start(url: "/onboarding"), resumes: resumes, isOnboarding: true)
            page = HomePage(dayTitle: dayTitle, onboardingRequired: true, cards: [card], notice: notice)
        case .completed:
            let cards = feed.cards.map { card in
                let state: TaskCard.State = switch card.state(at: now) {
                case .done: .done
                case .toDo: .toDo
                case .upcoming: .upcoming
                case .missed: .missed
                }
                let path = "/tasks/\(card.taskID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? card.taskID)/\(card.occurrence)"
                let action: TaskCard.Action = switch (state, card.hasSurvey) {
                case (.done, _), (.upcoming, _): .none
                case (_, true): .start(url: path)
                case (_, false): .checkOff(formAction: path + "/done", fields: [:])
                }
                return TaskCard(title: card.title, instructions: card.instructions, timeText: card.isAllDay ? strings[.allDay] : card.start.formatted(timeStyle),
                                state: state, action: action, resumes: card.resumes)
            }
            page = HomePage(dayTitle: dayTitle, onboardingRequired: false, cards: cards, notice: notice)
        }
        return (sitePages.home(page, context: siteContext(language: participant.language, signedIn: signedIn)), feed.changesAt)
    }

    /// The settings page: language, a sign-in code for another device (when just made), the browsers signed in
    /// (each other one with a Sign out button), the signed consent's PDF.
    func settingsPage(signedIn: SignedIn, signInCode: IssuedSignInCode? = nil) async throws -> String {
        let participant = signedIn.participant
        let languages = study.languages.map { code in
            SettingsPage.Language(code: code, name: Locale(identifier: code).localizedString(forIdentifier: code) ?? code,
                                  selected: code == participant.language)
        }
        let latest = try await store.consentRecords(participantID: participant.id).last { $0.sealed.record.kind == .consent }
        let consentPDF: SettingsPage.ConsentPDF
        switch latest?.pdf {
        case nil: consentPDF = .none
        case .pending: consentPDF = .pending
        case .failed: consentPDF = .failed
        case .stored, .file: consentPDF = .ready(url: "/consent.pdf")
        }
        let code = signInCode.map { issued in
            (code: issued.code, expiresText: issued.expiresAt.formatted(Date.FormatStyle(date: .omitted, time: .shortened,
                                                                                          locale: Locale(identifier: participant.language),
                                                                                          calendar: workflow.calendar(for: participant),
                                                                                          timeZone: participant.timeZone)))
        }
        let now = environment.now()
        let dateStyle = Date.FormatStyle(date: .abbreviated, time: .shortened, locale: Locale(identifier: participant.language),
                                         calendar: workflow.calendar(for: participant), timeZone: participant.timeZone)
        let browsers = try await store.sessions(participantID: participant.id).filter { $0.isValid(at: now) }.map { session in
            SettingsPage.Browser(signedInText: session.createdAt.formatted(dateStyle), lastUsedText: session.lastSeenAt.formatted(dateStyle),
                                 signOutFormAction: session.id == signedIn.sessionID ? nil
                                     : "/settings/browsers/\(session.id.uuidString.lowercased())/sign-out")
        }
        let page = SettingsPage(participantLabel: participant.id, languages: languages, languageFormAction: "/settings/language",
                                signInCode: code, signInCodeFormAction: "/settings/signin-code", consentPDF: consentPDF,
                                browsers: browsers)
        return sitePages.settings(page, context: siteContext(language: participant.language, signedIn: signedIn))
    }

    /// The participant's latest signed consent as a PDF; nil while it is not printed.
    func consentPDF(signedIn: SignedIn) async throws -> Data? {
        guard let latest = try await store.consentRecords(participantID: signedIn.participant.id).last(where: { $0.sealed.record.kind == .consent })
        else { throw StudyServerError(.notFound, .refusalNoConsentYet) }
        let mismatches = ConsentRecordVerifier(expectedPublicKey: consentKey.publicKey).mismatches(in: latest.sealed)
        guard mismatches.isEmpty else {
            FileHandle.standardError.write(Data(("consent record \(latest.id) of participant \(signedIn.participant.id) does not verify, so "
                + "its PDF is not served: \(mismatches.map(\.description).joined(separator: "; "))\n").utf8))
            throw StudyServerError(.conflict, .refusalConsentChanged)
        }
        return await pdfPrinter.pdf(of: latest)
    }

    /// The landing page of an invitation link.
    func joinPage(code: String, language: String) -> String {
        let zones = TimeZone.knownTimeZoneIdentifiers.sorted()
        let page = JoinPage(formAction: "/join/\(code.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? code)",
                            welcome: nil, timeZones: zones, defaultTimeZone: "UTC")
        return sitePages.join(page, context: siteContext(language: language, signedIn: nil))
    }

    /// The sign-in page for a second device.
    func signInPage(language: String, error: String?) -> String {
        sitePages.signIn(SignInPage(formAction: "/signin", error: error), context: siteContext(language: language, signedIn: nil))
    }

    /// A page with a title, a sentence and an optional link: errors and notices.
    func messagePage(language: String, signedIn: SignedIn?, title: String, text: String, link: (label: String, url: String)?) -> String {
        sitePages.message(MessagePage(title: title, text: text, link: link), context: siteContext(language: language, signedIn: signedIn))
    }
}
