import Foundation

/// Identifiers written into the paths of the server's URLs.
enum URLPath {
    /// `text` percent-encoded for a URL path as `addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)` does
    /// it. An identifier of letters, digits and `-._~` (every task and card id of the bundled studies) is returned as
    /// it is without going through Foundation's encoder, which the daily page would otherwise call for every event.
    static func encoded(_ text: String) -> String {
        if text.utf8.allSatisfy(isUnreserved) { return text }
        return text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? text
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
