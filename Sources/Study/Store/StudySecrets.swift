import Consent
import Foundation

/// The secrets a study store hands out — invitation codes, session tokens and sign-in codes — and how they are
/// hashed for storage: the store keeps only SHA-256 digests, so a copy of the database signs no one in.
///
/// Codes people type use Crockford's base32 (digits and capitals without I, L, O, U), and are read leniently:
/// lowercase, dashes and spaces are ignored, and O, I and L read as 0, 1 and 1.
public enum StudySecrets {
    /// Crockford's base32 alphabet.
    public static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// An invitation code: 130 random bits as 26 characters.
    public static func invitationCode(_ randomBytes: @Sendable (Int) -> [UInt8]) -> String {
        base32(randomBytes(17), characters: 26)
    }

    /// A session token: 256 random bits as 43 characters of base64url (no padding).
    public static func sessionToken(_ randomBytes: @Sendable (Int) -> [UInt8]) -> String {
        Data(randomBytes(32)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A sign-in code: 40 random bits as `XXXX-XXXX`. Short enough to type from one screen into another; its
    /// minutes of life and single use keep guessing hopeless (the server should also limit attempts).
    public static func signInCode(_ randomBytes: @Sendable (Int) -> [UInt8]) -> String {
        let code = base32(randomBytes(5), characters: 8)
        return "\(code.prefix(4))-\(code.suffix(4))"
    }

    /// A code as typed, in the one form that is hashed: uppercase, without dashes or spaces, O as 0, I and L as 1.
    public static func normalizeCode(_ code: String) -> String {
        String(code.uppercased().compactMap { character -> Character? in
            switch character {
            case "-", " ", "\t": nil
            case "O": "0"
            case "I", "L": "1"
            default: character
            }
        })
    }

    /// Lowercase hex SHA-256 of a code people type, after ``normalizeCode(_:)``.
    public static func codeHash(_ code: String) -> String {
        ConsentRecord.sha256Hex(of: Data(normalizeCode(code).utf8))
    }

    /// Lowercase hex SHA-256 of a session token, exactly as given.
    public static func tokenHash(_ token: String) -> String {
        ConsentRecord.sha256Hex(of: Data(token.utf8))
    }

    /// The first `characters` base32 digits of `bytes`, five bits each, most significant first.
    static func base32(_ bytes: [UInt8], characters: Int) -> String {
        var result = ""
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5, result.count < characters {
                bits -= 5
                result.append(alphabet[(buffer >> bits) & 31])
            }
            buffer &= (1 << bits) - 1
        }
        return result
    }
}
