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
}
