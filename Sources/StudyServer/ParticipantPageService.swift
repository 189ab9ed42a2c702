import Study
import StudyWeb

/// What every controller of the participant's pages uses of the server: the study, the participant workflow, and the
/// frame of a page in the participant's language. ``StudyService`` is one; each controller's own `Service` protocol
/// adds what that controller needs besides, so that a controller is given exactly what it uses.
protocol ParticipantPageService: Sendable {
    /// The study the server runs.
    var study: StudyDefinition { get }
    /// The participant's rules: the onboarding gate, withdrawal, the daily feed, contacts and charts.
    var workflow: ParticipantWorkflow { get }
    /// The site's page templates.
    var sitePages: SitePageRenderer { get }
    /// The web strings of `language` (the study's overrides over the built-in ones).
    func strings(language: String) -> WebStrings
    /// The context of a site page in `language`, for the participant signed in (nil: signed out).
    func siteContext(language: String, signedIn: StudyService.SignedIn?) -> SiteContext
}

extension StudyService: ParticipantPageService {}
