import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The test process's folder for what it writes to disk (data folders, with the keys a study makes in them), removed
/// when the process exits, so that no key is left in the machine's temporary folder.
///
/// ```swift
/// let data = TestScratchFolder.make("home-cache")   // TMP/studykit-tests-PID/home-cache-UUID
/// ```
public enum TestScratchFolder {
    /// `TMP/studykit-tests-PID/`, made owner-only on first use; removed at exit.
    public static let root: URL = {
        try? FileManager.default.createDirectory(at: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        atexit { try? FileManager.default.removeItem(at: TestScratchFolder.path) }
        return path
    }()

    private static var path: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("studykit-tests-\(getpid())", isDirectory: true)
    }

    /// A new folder's URL in ``root``, named `prefix` and a UUID (not made: the caller makes it, or the store that uses it).
    public static func make(_ prefix: String) -> URL {
        root.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    }
}
