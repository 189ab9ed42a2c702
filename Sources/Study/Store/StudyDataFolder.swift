import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder a study's data lives in (`--data`): its databases, keys, uploads and printed consents.
///
/// ```swift
/// let folder = try StudyDataFolder(path: options.data)   // refuses "" and a source checkout
/// try folder.prepare()                                    // creates it, owner-only (0700)
/// ```
///
/// Participants' answers and the server's signing keys must never end up in a place that is shared or published,
/// so a data folder is refused when its path is empty or when it is a source checkout: a folder holding `.git` or a
/// `Package.swift` (running with `--data .` in the repository once put a signing key into version control).
public struct StudyDataFolder: Sendable, Hashable {
    /// The folder.
    public let url: URL

    /// The files that mark a source checkout, which is never a data folder.
    public static let sourceCheckoutMarkers = [".git", "Package.swift"]

    /// Checks `path` as a data folder; throws ``StudyDataFolderError`` when it is empty or a source checkout.
    public init(path: String) throws(StudyDataFolderError) {
        guard !path.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .empty }
        try self.init(url: URL(fileURLWithPath: path, isDirectory: true))
    }

    /// Checks `url` as a data folder; throws ``StudyDataFolderError/sourceCheckout(path:marker:)`` for a source checkout.
    public init(url: URL) throws(StudyDataFolderError) {
        let folder = url.standardizedFileURL.resolvingSymlinksInPath()
        for marker in Self.sourceCheckoutMarkers
        where FileManager.default.fileExists(atPath: folder.appendingPathComponent(marker).path) {
            throw .sourceCheckout(path: folder.path, marker: marker)
        }
        self.url = url
    }

    /// Creates the folder when missing and makes it owner-only (mode 0700) whatever the process's umask, so that no
    /// other account on the machine can read what is inside, whatever the modes of the files in it.
    public func prepare() throws(StudyDataFolderError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw .fileSystem(path: url.path, reason: "cannot create it: \(error.localizedDescription)")
        }
        guard chmod(url.path, 0o700) == 0 else {
            throw .fileSystem(path: url.path, reason: "cannot make it owner-only: \(String(cString: strerror(errno)))")
        }
    }

    /// Creates each named file in the folder, empty and owner-only (0600), when it is missing, and makes an existing
    /// one (with its SQLite `-wal` and `-shm` companions) owner-only: SQLite creates a database with mode 0644 less
    /// the umask, and gives its companions the database's mode.
    public func createOwnerOnlyFiles(named names: [String]) throws(StudyDataFolderError) {
        for name in names {
            let path = url.appendingPathComponent(name).path
            let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
            guard descriptor >= 0 else {
                throw .fileSystem(path: path, reason: "cannot create it: \(String(cString: strerror(errno)))")
            }
            close(descriptor)
            for file in [path, path + "-wal", path + "-shm"] where chmod(file, 0o600) != 0 && errno != ENOENT {
                throw .fileSystem(path: file, reason: "cannot make it owner-only: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Refuses a file that holds a secret (a key, the web secret) when anyone but its owner may read or write it,
    /// naming the file and its mode. A missing file passes (it is created owner-only on first use).
    public static func requireOwnerOnly(secretFile path: String) throws(StudyDataFolderError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw .fileSystem(path: path, reason: String(cString: strerror(errno)))
        }
        if info.st_mode & 0o077 != 0 {
            throw .secretFileTooOpen(path: path, mode: String(info.st_mode & 0o777, radix: 8))
        }
    }
}

/// Why a folder cannot hold a study's data, or a secret in it cannot be used.
extension StudyDataFolder {
    /// `DATA/study.sqlite`: the one database, with both stores' tables.
    public var database: URL { url.appendingPathComponent("study.sqlite") }
    /// `DATA/care.sqlite`: the care store's own file in data folders written before both stores shared ``database``;
    /// merged into it once, then renamed `care.sqlite.merged`.
    public var legacyCareDatabase: URL { url.appendingPathComponent("care.sqlite") }
    /// `DATA/keys/`: the consent signing key and the web secret, owner-only.
    public var keys: URL { url.appendingPathComponent("keys", isDirectory: true) }
    /// The name of ``consentPDFs`` in the data folder, as consent records store their PDF's path.
    public static let consentPDFsFolderName = "consent-pdfs"
    /// `DATA/consent-pdfs/`: the printed consents, one per record.
    public var consentPDFs: URL { url.appendingPathComponent(Self.consentPDFsFolderName, isDirectory: true) }

    /// `DATA/run-files/`: where the files attached in runs were kept, `PARTICIPANT/RUN/NAME`, before they moved into the
    /// study's database; a server moves them in when it starts on the folder.
    public var legacyRunFiles: URL { url.appendingPathComponent("run-files", isDirectory: true) }
}

public enum StudyDataFolderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `--data` was given as an empty path.
    case empty
    /// The folder is a source checkout (it holds `marker`).
    case sourceCheckout(path: String, marker: String)
    /// A secret file that others may read or write.
    case secretFileTooOpen(path: String, mode: String)
    /// The file system refused.
    case fileSystem(path: String, reason: String)

    /// A sentence naming the folder or file and what to do.
    public var description: String {
        switch self {
        case .empty:
            "the data folder is an empty path; name the folder for the study's data, for example --data data"
        case .sourceCheckout(let path, let marker):
            "\(path) is a source checkout (it holds \(marker)), not a data folder: participants' data and the server's keys "
                + "must stay out of version control; name a folder of its own, for example --data data"
        case .secretFileTooOpen(let path, let mode):
            "\(path) may be read by other accounts (mode \(mode)); a secret must be owner-only. If it was ever shared, "
                + "copied or committed, it is void: move it away and a new one is made. Otherwise run chmod 600 \(path)"
        case .fileSystem(let path, let reason):
            "\(path): \(reason)"
        }
    }
}
