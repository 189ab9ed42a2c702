import Crypto
import Foundation
import Study

/// Derives tokens from the server's web secret (32 random bytes kept in `DATA/keys/web-secret`, mode 0600):
/// a session's CSRF token is an HMAC of the session, so it needs no storage and cannot be guessed.
struct RequestSigner: Sendable {
    private let key: SymmetricKey

    init(secret: Data) { key = SymmetricKey(data: secret) }

    /// Loads the secret from `DATA/keys/web-secret`, creating it (0600, in a 0700 folder) on first use. A file
    /// of the wrong size is an error naming it, never replaced, since replacing it would sign everyone out.
    /// The secret's bytes come from `randomBytes` (the environment's secure source).
    static func load(dataFolder: StudyDataFolder, randomBytes: @Sendable (Int) -> [UInt8]) throws -> RequestSigner {
        let keys = dataFolder.keys
        let file = keys.appendingPathComponent("web-secret")
        let manager = FileManager.default
        do { try StudyDataFolder.requireOwnerOnly(secretFile: file.path) } catch { throw StudyServerStartError("\(error)") }
        if let existing = manager.contents(atPath: file.path) {
            guard existing.count == 32 else {
                throw StudyServerStartError("\(file.path) holds \(existing.count) bytes, not a 32-byte secret; move it away to make a new one (everyone will be signed out)")
            }
            return RequestSigner(secret: existing)
        }
        try manager.createDirectory(at: keys, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let secret = Data(randomBytes(32))
        let temporary = keys.appendingPathComponent(".web-secret-\(UUID().uuidString)")
        guard manager.createFile(atPath: temporary.path, contents: secret, attributes: [.posixPermissions: 0o600]) else {
            throw StudyServerStartError("cannot write \(temporary.path)")
        }
        if rename(temporary.path, file.path) != 0 {
            try? manager.removeItem(at: temporary)
            throw StudyServerStartError("cannot create \(file.path): \(String(cString: strerror(errno)))")
        }
        return RequestSigner(secret: secret)
    }

    /// The CSRF token of a session: base64url of HMAC-SHA256("csrf:" + session token).
    func csrfToken(forSession session: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data("csrf:\(session)".utf8), using: key)
        return String(Data(code).base64EncodedString().compactMap { character -> Character? in
            switch character {
            case "+": "-"
            case "/": "_"
            case "=": nil
            default: character
            }
        })
    }
}

/// Why the server could not start: a sentence naming the file or setting at fault.
public struct StudyServerStartError: Error, CustomStringConvertible, Sendable {
    /// What is wrong and where.
    public var description: String
    /// Creates the error with its sentence.
    public init(_ description: String) { self.description = description }
}
