/// What a section of a consent document is about.
///
/// The predefined types have a default title in every built-in language; ``custom`` and ``onlyInDocument``
/// sections must carry their own title. An ``onlyInDocument`` section appears in the reviewed document but
/// gets no page in the visual consent sequence.
public enum ConsentSectionType: String, Hashable, Sendable, Codable, CaseIterable {
    /// What the study is and why it is done.
    case overview
    /// Which data the study gathers.
    case dataGathering
    /// How the participant's data is protected.
    case privacy
    /// How the data will be used.
    case dataUse
    /// How much time taking part asks for.
    case timeCommitment
    /// The surveys the participant will answer.
    case studySurvey
    /// The tasks the participant will perform.
    case studyTasks
    /// How to leave the study.
    case withdrawing
    /// A section the study titles itself, shown in the visual sequence.
    case custom
    /// A section shown only in the reviewed document, never as a visual consent page.
    case onlyInDocument

    /// Whether the type has a localized default title (every type but ``custom`` and ``onlyInDocument``).
    public var isPredefined: Bool { self != .custom && self != .onlyInDocument }

    /// Whether sections of this type get a page in the visual consent sequence (all but ``onlyInDocument``).
    public var appearsInVisualConsent: Bool { self != .onlyInDocument }

    /// The string-table key of the type's default title; nil for ``custom`` and ``onlyInDocument``.
    public var titleKey: ConsentStringKey? {
        switch self {
        case .overview: .sectionOverview
        case .dataGathering: .sectionDataGathering
        case .privacy: .sectionPrivacy
        case .dataUse: .sectionDataUse
        case .timeCommitment: .sectionTimeCommitment
        case .studySurvey: .sectionStudySurvey
        case .studyTasks: .sectionStudyTasks
        case .withdrawing: .sectionWithdrawing
        case .custom, .onlyInDocument: nil
        }
    }

    /// The string-table key of the "learn more" link text of a visual consent page of this type;
    /// the generic "Learn more" for ``custom`` and ``onlyInDocument``.
    public var learnMoreKey: ConsentStringKey {
        switch self {
        case .overview: .learnMoreOverview
        case .dataGathering: .learnMoreDataGathering
        case .privacy: .learnMorePrivacy
        case .dataUse: .learnMoreDataUse
        case .timeCommitment: .learnMoreTimeCommitment
        case .studySurvey: .learnMoreStudySurvey
        case .studyTasks: .learnMoreStudyTasks
        case .withdrawing: .learnMoreWithdrawing
        case .custom, .onlyInDocument: .learnMore
        }
    }
}
