import Foundation

/// Base64url (RFC 4648 §5), the alphabet of the Push API's keys, VAPID tokens and topics: `-` and `_` for `+` and `/`.
/// Written without padding; read with or without it.
enum Base64URL {
    /// `bytes` in base64url, without padding.
    static func encode<Bytes: DataProtocol>(_ bytes: Bytes) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.last == "=" { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    /// The bytes of base64url `text`, or nil when it has a character outside the alphabet, padding in the wrong place or
    /// of the wrong length, or a length no encoding has.
    static func decode(_ text: String) -> Data? {
        let bytes = Array(text.utf8)
        let unpadded = bytes.prefix { $0 != UInt8(ascii: "=") }
        let padding = bytes.count - unpadded.count
        guard bytes[unpadded.count...].allSatisfy({ $0 == UInt8(ascii: "=") }), unpadded.allSatisfy(isInAlphabet) else { return nil }
        let remainder = unpadded.count % 4
        guard remainder != 1 else { return nil }
        let missing = remainder == 0 ? 0 : 4 - remainder
        guard padding == 0 || padding == missing else { return nil }
        let standard = unpadded.map { $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0 }
        return Data(base64Encoded: Data(standard + Array(repeating: UInt8(ascii: "="), count: missing)))
    }

    /// Whether `byte` is one of base64url's 64 characters (padding excluded).
    static func isInAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
