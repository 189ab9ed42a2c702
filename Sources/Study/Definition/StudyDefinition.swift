import CareStore
import Consent
import Foundation
import Research

/// A study folder, loaded and checked: everything the server needs to enrol participants and show them their
/// onboarding, consent, tasks, surveys and contacts. Made by ``StudyLoader/load(folder:)``.
///
/// ```swift
/// let study = try StudyLoader.load(folder: URL(fileURLWithPath: "examples/studies/recover"))
/// let onboarding = study.onboardingTask(language: "ja")       // a ConsentTask against the Japanese document
/// let pain = study.survey(taskID: "pain")                      // the ResearchTask its card starts
/// ```
public struct StudyDefinition: Hashable, Sendable {
    /// The study's identifier, such as `recover`: in consent records and care-store tags.
    public var identifier: String
    /// The study's name as participants see it.
    public var name: String
    /// The languages the study is offered in (normalized BCP 47 tags); the first is the default.
    public var languages: [String]
    /// The study's colours.
    public var theme: StudyTheme
    /// How participants join.
    public var enrolment: EnrolmentMode
    /// What happens to a participant's data when they leave.
    public var withdrawal: StudyWithdrawalPolicy
    /// The consent document for each of ``languages``: its translation when the study has one, else the main document.
    public var consentDocuments: [String: ConsentDocument]
    /// The onboarding task for each of ``languages``, its consent steps expanded against that language's document,
    /// with dates shown in UTC. Use ``onboardingTask(language:context:)`` for a participant's own time zone.
    public var onboardingTasks: [String: ConsentTask]
    /// The onboarding task file's bytes, for loading it again with a participant's context.
    public var onboardingTaskData: Data
    /// The care-plan tasks, in file order.
    public var tasks: [StudyTaskDefinition]
    /// The survey of each task that has one, by task id.
    public var surveys: [String: ResearchTask]
    /// Active tasks built in each of the study's other languages, by task id and language (``surveys`` holds the
    /// study's first language): the catalogue words their steps in every built-in language.
    public var localizedSurveys: [String: [String: ResearchTask]]
    /// The FHIR Questionnaire (JSON) behind each survey imported from one, by the survey's task identifier: its
    /// calculated items are evaluated against it.
    public var questionnaires: [String: Data]
    /// The study's FHIR ValueSets (JSON) by canonical URL, which its Questionnaires' `answerValueSet` name.
    public var valueSets: [String: Data]
    /// The study team's contacts, in file order.
    public var contacts: [StudyContact]
    /// The insights page's charts, in file order.
    public var charts: [StudyChart]
    /// The daily page's cards that are not tasks (tips, featured articles, links), in file order.
    public var feed: [StudyFeedCard]
    /// The images participants' pages show (feed cards', the logo), by their path in the study folder.
    public var images: [String: StudyImage]
    /// The study's string overrides: consent strings and web strings.
    public var strings: StudyStrings
    /// The study folder it was loaded from.
    public var folder: URL
    /// Which onboarding answers give the participant's birth date and gender to FHIR Questionnaires' `%patient`.
    public var patientFields: StudyPatientFields
    /// What the study's surveys in other standards left aside without changing what is asked or how answers are
    /// checked (a FHIR Questionnaire's notes), and the texts a fallback language leaves in the first language, each
    /// with its file and path; `studykit validate` prints them.
    public var notes: [StudyProblem]
    /// The reminders the study sends about its tasks' events (`reminders`), in file order.
    public var reminders: [StudyReminder]
    /// The hours in which no reminder is sent, unless a participant chose their own (`quietHours`).
    public var quietHours: QuietHours
    /// The study in each of its other languages that has translations (`translations/LANG.yaml`, or a FHIR
    /// Questionnaire's own): the same tasks, schedules and ids, with that language's texts. See ``localized(_:)``.
    public var translations: [String: StudyDefinition] = [:]
    /// The onboarding task file with each translated language's texts put in, by language.
    public var localizedOnboardingData: [String: Data] = [:]
    /// The languages the study lets fall back that have texts without a translation: their pages say that some of
    /// the study shows in its first language.
    public var untranslatedLanguages: Set<String> = []

    /// Creates a study from its parts; ``StudyLoader`` builds them from a folder.
    public init(identifier: String, name: String, languages: [String], theme: StudyTheme, enrolment: EnrolmentMode,
                withdrawal: StudyWithdrawalPolicy = .keep,
                consentDocuments: [String: ConsentDocument], onboardingTasks: [String: ConsentTask], onboardingTaskData: Data,
                tasks: [StudyTaskDefinition], surveys: [String: ResearchTask], localizedSurveys: [String: [String: ResearchTask]] = [:],
                questionnaires: [String: Data] = [:], valueSets: [String: Data] = [:],
                contacts: [StudyContact], charts: [StudyChart] = [], feed: [StudyFeedCard] = [], images: [String: StudyImage] = [:],
                strings: StudyStrings, folder: URL, patientFields: StudyPatientFields = StudyPatientFields(),
                notes: [StudyProblem] = [], reminders: [StudyReminder] = [], quietHours: QuietHours = .standard) {
        self.identifier = identifier
        self.name = name
        self.languages = languages
        self.theme = theme
        self.enrolment = enrolment
        self.withdrawal = withdrawal
        self.consentDocuments = consentDocuments
        self.onboardingTasks = onboardingTasks
        self.onboardingTaskData = onboardingTaskData
        self.tasks = tasks
        self.surveys = surveys
        self.localizedSurveys = localizedSurveys
        self.questionnaires = questionnaires
        self.valueSets = valueSets
        self.contacts = contacts
        self.charts = charts
        self.feed = feed
        self.images = images
        self.strings = strings
        self.folder = folder
        self.patientFields = patientFields
        self.notes = notes
        self.reminders = reminders
        self.quietHours = quietHours
    }

    /// The first of ``languages``.
    public var defaultLanguage: String { languages[0] }

    /// The study language to use for a participant who asked for `requested` (a BCP 47 tag, in any case, with `_`
    /// or `-`): the study language on its fallback chain (`zh-Hans-CN` → `zh-Hans`, `ja-JP` → `ja`; `zh-CN` →
    /// `zh-Hans`), or nil when the study does not offer it.
    public func supportedLanguage(for requested: String) -> String? {
        // A study language as the study writes it (a participant's stored language) is its own answer: every page asks.
        if languages.contains(requested) { return requested }
        let tag = ConsentStrings.normalize(requested)
        let isEnglish = tag.split(separator: "-").first == "en"
        // Every chain ends in English; only a request for English should land there.
        return ConsentStrings.fallbackChain(for: tag).filter { isEnglish || $0 != "en" }.first { languages.contains($0) }
    }

    /// The first of `preferences` (best first, as from an `Accept-Language` header) the study offers, else
    /// ``defaultLanguage``.
    public func language(forPreferences preferences: [String]) -> String {
        preferences.lazy.compactMap(supportedLanguage(for:)).first ?? defaultLanguage
    }

    /// The consent document in `language` (a study language; any other gets the default language's document).
    public func consentDocument(language: String) -> ConsentDocument {
        consentDocuments[supportedLanguage(for: language) ?? defaultLanguage] ?? consentDocuments[defaultLanguage]!
    }

    /// The onboarding task in `language` (a study language; any other gets the default language's task).
    public func onboardingTask(language: String) -> ConsentTask {
        onboardingTasks[supportedLanguage(for: language) ?? defaultLanguage] ?? onboardingTasks[defaultLanguage]!
    }

    /// The onboarding task in `language` expanded with a participant's context (their time zone for dates on the
    /// document). The study was validated when loaded, so this fails only if `context` changes what is valid.
    public func onboardingTask(language: String, context: ConsentContext) throws(TaskValidationFailure) -> ConsentTask {
        var context = context
        context.strings = strings.consent
        let chosen = supportedLanguage(for: language) ?? defaultLanguage
        context.language = chosen
        return try ConsentTaskLoader.load(taskData: localizedOnboardingData[chosen] ?? onboardingTaskData,
                                          document: consentDocument(language: language), context: context)
    }

    /// The study as a participant reading `language` sees it: its translation into that language when it has one (task
    /// titles and instructions, contacts, charts, the daily page's cards, its name), else the study as written.
    public func localized(_ language: String) -> StudyDefinition {
        // Every page asks, most often with a participant's language as stored (one of the study's): looked up directly.
        if translations.isEmpty { return self }
        if let translated = translations[language] { return translated }
        return translations[supportedLanguage(for: language) ?? language] ?? self
    }

    /// The task definition with id `id`; nil when the study has none.
    public func task(id: String) -> StudyTaskDefinition? {
        tasks.first { $0.id == id }
    }

    /// The reminder with id `id`; nil when the study has none.
    public func reminder(id: String) -> StudyReminder? {
        reminders.first { $0.id == id }
    }

    /// The survey the card of task `taskID` starts; nil for a task without a survey or an unknown id.
    public func survey(taskID: String) -> ResearchTask? {
        surveys[taskID]
    }

    /// The survey of task `taskID` as a participant reading `language` sees it: an active task worded in that language,
    /// any other survey as written.
    public func survey(taskID: String, language: String) -> ResearchTask? {
        localizedSurveys[taskID]?[language] ?? surveys[taskID]
    }
}
