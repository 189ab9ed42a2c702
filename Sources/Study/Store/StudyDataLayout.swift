import Foundation

/// Where files live in a study's data folder, beside its databases: one convention for the server that writes
/// them and the export that reads them.
public enum StudyDataLayout {
    /// The folder of the files attached in a participant's runs: `DATA/run-files/PARTICIPANT/`; each run's files are
    /// in a folder named after its UUID below it (as ``Research/TaskSession`` writes them).
    public static func runFilesFolder(dataFolder: URL, participantID: String) -> URL {
        dataFolder.appendingPathComponent("run-files", isDirectory: true).appendingPathComponent(participantID, isDirectory: true)
    }
}
