import Foundation

/// The fields of an `application/x-www-form-urlencoded` body (what an HTML form posts), by name; a name posted
/// several times (checkboxes) keeps every value in order.
enum FormBody {
    /// Reads `body`; throws ``StudyServerError/badRequest(_:)`` naming the first field that is not valid
    /// percent-encoded UTF-8.
    static func fields(_ body: String) throws(StudyServerError) -> [String: [String]] {
        var fields: [String: [String]] = [:]
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]) else { throw .badRequest("the form field '\(parts[0].prefix(40))' is not valid URL encoding") }
            guard let value = parts.count > 1 ? decode(parts[1]) : "" else {
                throw .badRequest("the value of the form field '\(name.prefix(40))' is not valid URL encoding")
            }
            fields[name, default: []].append(value)
        }
        return fields
    }

    /// One name or value: `+` is a space, `%XX` a byte; nil when a `%` is not followed by two hexadecimal digits or
    /// the bytes are not UTF-8 (as Foundation's `removingPercentEncoding` after replacing `+`, which bridged through
    /// NSString for every field and cost a twentieth of an answer post).
    static func decode(_ text: Substring) -> String? {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            utf8.formIndex(after: &index)
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index != utf8.endIndex, let high = hexValue(utf8[index]) else { return nil }
                utf8.formIndex(after: &index)
                guard index != utf8.endIndex, let low = hexValue(utf8[index]) else { return nil }
                utf8.formIndex(after: &index)
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
