import Foundation

/// Where the server's study and data live and where it listens.
public struct StudyServerConfiguration: Sendable {
    /// The study folder (`study.yaml` and the files it names).
    public var studyFolder: URL
    /// The data folder: `study.sqlite`, `care.sqlite`, `keys/`, `consent-pdfs/`.
    public var dataFolder: URL
    /// The address to listen on; `127.0.0.1` by default, so nothing outside the machine reaches it unless asked.
    public var host: String
    /// The port; 0 picks a free one.
    public var port: Int
    /// Marks the session cookie `Secure`: set it when the server sits behind HTTPS.
    public var secureCookies: Bool

    /// Creates a configuration; see the properties.
    public init(studyFolder: URL, dataFolder: URL, host: String = "127.0.0.1", port: Int = 8080, secureCookies: Bool = false) {
        self.studyFolder = studyFolder
        self.dataFolder = dataFolder
        self.host = host
        self.port = port
        self.secureCookies = secureCookies
    }

    /// The study store's file.
    var studyDatabase: URL { dataFolder.appendingPathComponent("study.sqlite") }
    /// The care store's file.
    var careDatabase: URL { dataFolder.appendingPathComponent("care.sqlite") }
}
