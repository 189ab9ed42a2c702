import Consent
import Crypto
import Foundation
import Study

/// Derives tokens from the server's web secret (32 random bytes kept in `DATA/keys/web-secret`, mode 0600):
/// a session's CSRF token is an HMAC of the session, so it needs no storage and cannot be guessed.
struct RequestSigner: Sendable {
    let key: SymmetricKey

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
        return Self.base64URL(Data(code))
    }
}

/// Why the server could not start: a sentence naming the file or setting at fault.
public struct StudyServerStartError: Error, CustomStringConvertible, Sendable {
    /// What is wrong and where.
    public var description: String
    /// Creates the error with its sentence.
    public init(_ description: String) { self.description = description }
}

extension RequestSigner {
    /// `data` in base64url without padding.
    static func base64URL(_ data: Data) -> String {
        String(data.base64EncodedString().compactMap { character -> Character? in
            switch character {
            case "+": "-"
            case "/": "_"
            case "=": nil
            default: character
            }
        })
    }

    /// What a reminder link's token lets its holder do, without a session: each is signed apart, so that one kind of
    /// token never serves as another.
    enum ReminderLinkPurpose: String {
        /// Confirm an email address (double opt-in); expires.
        case confirmEmail = "confirm-email"
        /// Stop mail to an address (the unsubscribe link and RFC 8058's one-click POST).
        case unsubscribe
        /// Read the participant's calendar feed.
        case calendarFeed = "calendar"
    }

    /// A token for `purpose` on the channel `channelID`, valid until `expires` (none when nil): the channel's id, the
    /// expiry in seconds since 1970 (0 for none), and base64url of their HMAC-SHA256 with the purpose, joined by `~`.
    /// It works only while the channel exists: removing it (or making a new feed) revokes every token of it.
    func reminderToken(_ purpose: ReminderLinkPurpose, channelID: UUID, expires: Date? = nil) -> String {
        let id = channelID.uuidString.lowercased(), expiry = expires.map { String(Int64($0.timeIntervalSince1970)) } ?? "0"
        return "\(id)~\(expiry)~\(reminderMAC(purpose, id: id, expiry: expiry))"
    }

    /// The channel a token of `purpose` names, when its signature holds and it has not expired at `now`; nil otherwise.
    func channelID(fromReminderToken token: String, purpose: ReminderLinkPurpose, now: Date) -> UUID? {
        let parts = token.split(separator: "~", omittingEmptySubsequences: false).map(String.init)
        guard token.utf8.count <= 128, parts.count == 3, let id = UUID(uuidString: parts[0]), parts[0] == parts[0].lowercased(),
              let expiry = Int64(parts[1]), expiry >= 0 else { return nil }
        let expected = reminderMAC(purpose, id: parts[0], expiry: parts[1])
        // Compared in constant time.
        guard expected.utf8.count == parts[2].utf8.count,
              zip(expected.utf8, parts[2].utf8).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else { return nil }
        if expiry > 0, Double(expiry) < now.timeIntervalSince1970 { return nil }
        return id
    }

    private func reminderMAC(_ purpose: ReminderLinkPurpose, id: String, expiry: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data("reminder:\(purpose.rawValue):\(id):\(expiry)".utf8), using: key)
        return Self.base64URL(Data(code))
    }
}
