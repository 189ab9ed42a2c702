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

    /// One name or value: `+` is a space, `%XX` a byte; nil when the bytes are not UTF-8.
    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
