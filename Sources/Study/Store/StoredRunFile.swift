import Foundation

/// A file attached in a run (a photo, a recording: a file question's answer), as the study's database keeps it beside
/// the run, so that a backup of the database is a backup of the study and every server process over it sees the same
/// files.
public struct StoredRunFile: Hashable, Sendable {
    /// The run it belongs to.
    public var runID: UUID
    /// The run's participant.
    public var participantID: String
    /// The file's name within the run (``Research/TaskSession/recordFile(_:identifier:fileExtension:contentType:)``
    /// names it).
    public var name: String
    /// Its bytes.
    public var data: Data

    /// The file `name` of `participantID`'s run `runID`.
    public init(runID: UUID, participantID: String, name: String, data: Data) {
        self.runID = runID
        self.participantID = participantID
        self.name = name
        self.data = data
    }
}
