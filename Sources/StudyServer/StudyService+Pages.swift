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
        SiteContext(strings: strings(language: language), csrfToken: signedIn?.csrfToken, studyName: study.localized(language).name,
                    themeTint: study.theme.tint, assets: .linked(basePath: "/assets"), navigation: signedIn != nil,
                    hasInsights: !study.charts.isEmpty, logoURL: logoURL, languageNotice: languageNotice(language))
    }

    /// What a page in `language` says when the study's own texts may show in its first language there (a language the
    /// study lets fall back, with texts untranslated); nil when they do not.
    func languageNotice(_ language: String) -> String? {
        let chosen = study.supportedLanguage(for: language) ?? study.defaultLanguage
        guard study.untranslatedLanguages.contains(chosen) else { return nil }
        let locale = Locale(identifier: chosen)
        return strings(language: chosen).format(.languageFallbackNotice, [
            "language": locale.localizedString(forLanguageCode: chosen) ?? chosen,
            "source": locale.localizedString(forLanguageCode: study.defaultLanguage) ?? study.defaultLanguage,
        ])
    }

    /// The daily page of the day containing `date` (today when nil): only the onboarding card until onboarding is
    /// done; then the week's completion rings and one card per task of the chosen day, with its state and what its
    /// kind offers (begin or continue a survey, record or undo an event, log a time, enter a number).
    ///
    /// The page is kept per session and day and served again until a store commits a write or the time turns an
    /// event's state or the participant's day (see ``HomePageCache``); a page with a notice is made each time.
    func homePage(signedIn: SignedIn, date: Date?, notice: String?) async throws -> [UInt8] {
        let participant = signedIn.participant
        let now = environment.now()
        let calendar = workflow.calendar(for: participant)
        let dayAsked = date.map { DailyPageBuilder.parameter(of: $0, in: calendar) }
        // The revisions are read before anything the page shows, so that a write committed while it is made is seen.
        let source = HomePageCache.Source(participantID: participant.id, language: participant.language,
                                          timeZone: participant.timeZone.identifier, day: dayAsked ?? "",
                                          studyRevision: store.revision(of: participant.id),
                                          careRevision: changeFeed.latest(of: participant.id))
        if notice == nil, let page = homePages.page(session: signedIn.sessionToken, source: source, now: now) { return page }
        // A participant who left sees that instead of their tasks (a withdrawal is a write of theirs: no kept page outlives it).
        if try await workflow.withdrawal.isWithdrawn(participant) {
            let strings = strings(language: participant.language)
            return Array(messagePage(language: participant.language, signedIn: signedIn, title: strings[.leftTitle], text: strings[.leftNotice],
                                     link: (strings[.settings], "/settings")).utf8)
        }
        let (feed, week) = try await workflow.dailyPage(containing: date ?? now, for: participant, at: now)
        let dayParameter = dayAsked ?? dateTexts.text(feed.day.start, .dayParameter, calendar: calendar)
        let builder = DailyPageBuilder(participant: participant, calendar: calendar, strings: strings(language: participant.language),
                                       dayParameter: dayParameter, contentCards: contentCards(language: participant.language), dates: dateTexts)
        let page = sitePages.homeUTF8(builder.page(feed, week: week, notice: notice),
                                      context: siteContext(language: participant.language, signedIn: signedIn))
        if notice == nil { homePages.keep(page, session: signedIn.sessionToken, source: source, validUntil: feed.changesAt, now: now) }
        return page
    }

    /// The settings page: language, a sign-in code for another device (when just made), the browsers signed in
    /// (each other one with a Sign out button), the signed consent's PDF.
    func settingsPage(signedIn: SignedIn, signInCode: IssuedSignInCode? = nil) async throws -> String {
        let participant = signedIn.participant
        let languages = study.languages.map { code in
            SettingsPage.Language(code: code, name: Locale(identifier: code).localizedString(forIdentifier: code) ?? code,
                                  selected: code == participant.language)
        }
        // Read once: the PDF's state and whether the participant may still leave both come from these records.
        let records = try await store.consentRecords(participantID: participant.id)
        let latest = records.latestSignedConsent
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
                                browsers: browsers, myDataURL: "/settings/my-data.zip",
                                withdrawURL: Self.canLeave(records) ? "/settings/leave" : nil,
                                remindersURL: study.reminders.isEmpty || !Self.canLeave(records) ? nil : "/settings/reminders")
        return sitePages.settings(page, context: siteContext(language: participant.language, signedIn: signedIn))
    }

    /// Whether the participant has a consent to withdraw: consented, and not left yet.
    func canLeave(_ participant: StudyParticipant) async throws -> Bool {
        Self.canLeave(try await store.consentRecords(participantID: participant.id))
    }

    /// Whether the participant whose consent records these are has a consent to withdraw.
    static func canLeave(_ records: [StoredConsentRecord]) -> Bool {
        records.contains { $0.sealed.record.kind == .consent } && StudyWithdrawal.withdrawal(of: records) == nil
    }

    /// The participant's latest signed consent as a PDF (countersigned, once the study team has); nil while it is not printed.
    func consentPDF(signedIn: SignedIn) async throws -> Data? {
        let records = try await store.consentRecords(participantID: signedIn.participant.id)
        guard let latest = records.latestSignedConsent else { throw StudyServerError(.notFound, .refusalNoConsentYet) }
        let mismatches = ConsentRecordVerifier(expectedPublicKey: consentKey.publicKey).mismatches(in: latest.sealed, original: latest.linkedOriginal(among: records))
        guard mismatches.isEmpty else {
            FileHandle.standardError.write(Data(("consent record \(latest.id) of participant \(signedIn.participant.id) does not verify, so "
                + "its PDF is not served: \(mismatches.map(\.description).joined(separator: "; "))\n").utf8))
            throw StudyServerError(.conflict, .refusalConsentChanged)
        }
        return await pdfPrinter.pdf(of: latest)
    }

    /// Everything the study holds about the signed-in participant, as one ZIP of JSON and PDF (``ParticipantDataCopy``):
    /// their runs with their results, outcomes, verified consent records with their PDFs, and attached files. Read from
    /// the stores for this participant alone.
    func participantDataCopy(signedIn: SignedIn) async throws -> Data {
        let reader = StudyExportReader(study: study, store: store, careStore: careStore, dataFolder: configuration.dataFolder,
                                       consentPublicKey: consentKey.publicKey, now: environment.now)
        let copy = try ParticipantDataCopy.zip(of: try await reader.data(of: signedIn.participant), at: environment.now())
        try await data.appendAudit(action: "export", entity: "participant's own copy", entityID: signedIn.participant.id,
                                   participantID: signedIn.participant.id, after: #"{"bytes":\#(copy.count)}"#)
        return copy
    }

    /// The landing page of an invitation link.
    func joinPage(code: String, language: String) -> String {
        let zones = TimeZone.knownTimeZoneIdentifiers.sorted()
        let page = JoinPage(formAction: "/join/" + URLPath.encoded(code),
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
