import Foundation

/// Everything an export writes, read from the stores at one time: the study and each participant's data.
///
/// Made by ``StudyExportReader``; read by every ``StudyExporter``.
public struct StudyExportSnapshot: Sendable {
    /// The study the data belongs to (its tasks, codes and consent flow).
    public var study: StudyDefinition
    /// Every participant, by enrolment time.
    public var participants: [ParticipantExportData]
    /// When the data was read.
    public var takenAt: Date

    /// Creates a snapshot.
    public init(study: StudyDefinition, participants: [ParticipantExportData], takenAt: Date) {
        self.study = study
        self.participants = participants
        self.takenAt = takenAt
    }
}
