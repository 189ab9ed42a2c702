import Consent
import Crypto
import Foundation
import Study

/// Derives tokens from the server's web secret (32 random bytes kept in `DATA/keys/web-secret`, mode 0600):
/// a session's CSRF token is an HMAC of the session, so it needs no storage and cannot be guessed.
struct RequestSigner: Sendable {
    private let key: SymmetricKey

    init(secret: Data) { key = SymmetricKey(data: secret) }

    /// Loads the secret from `KEYS/web-secret` (the server's keys folder: `DATA/keys/` by default), creating it (0600,
    /// in a 0700 folder) on first use, whole or not at all; several processes starting at once end up with the same
    /// one. A file that others may read, or of the wrong size, is an error naming it, never replaced, since replacing
    /// it would sign everyone out. The secret's bytes come from `randomBytes` (the environment's secure source).
    static func load(keysFolder: URL, randomBytes: @Sendable (Int) -> [UInt8]) throws -> RequestSigner {
        let file = keysFolder.appendingPathComponent(fileName)
        do { try StudyDataFolder.requireOwnerOnly(secretFile: file.path) } catch { throw StudyServerStartError("\(error)") }
        let keys = ConsentKeyStore(keysDirectory: keysFolder)
        do {
            if let existing = try keys.loadSecret(named: fileName, byteCount: 32) { return RequestSigner(secret: existing) }
            return RequestSigner(secret: try keys.storeSecret(named: fileName, Data(randomBytes(32))))
        } catch {
            throw StudyServerStartError("\(error); a web secret of the wrong size is never replaced: move it away to make a new one (everyone will be signed out)")
        }
    }

    /// The web secret's file name in the keys folder.
    static let fileName = "web-secret"

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
