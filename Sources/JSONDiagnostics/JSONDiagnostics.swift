import Foundation

/// Where in a JSON document something went wrong, said the way people read documents: `steps[3].answerFormat`
/// for a decoding error, `line 3, column 14` for malformed text.
///
/// Shared by every StudyKit module that reads JSON written by people (tasks, schedules), so their messages
/// look alike. Foundation only.
public enum JSONDiagnostics {
    /// `steps[3].answerFormat.maximum` from a `Codable` coding path.
    public static func path(_ codingPath: [any CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else if key.stringValue.hasPrefix("Index ") {
                path += "[\(key.stringValue.dropFirst(6))]"
            } else {
                path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return path
    }

    /// "line 3, column 14: invalid value" for malformed JSON. JSONSerialization names a character offset;
    /// people want lines.
    public static func describeSyntaxError(in data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return "the document could not be read as JSON"
        } catch {
            let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            guard let range = text.range(of: "character "), let offset = Int(text[range.upperBound...].prefix { $0.isNumber }) else {
                return text
            }
            let (line, column) = lineAndColumn(ofByte: offset, in: data)
            var reason = text
            if let around = reason.range(of: " around character") { reason = String(reason[..<around.lowerBound]) }
            return "line \(line), column \(column): \(reason.prefix(1).lowercased() + reason.dropFirst())"
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    public static func lineAndColumn(ofByte offset: Int, in data: Data) -> (line: Int, column: Int) {
        let prefix = data.prefix(max(0, min(offset, data.count)))
        var line = 1
        var lineStart = prefix.startIndex
        for index in prefix.indices where prefix[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return (line, String(decoding: prefix[lineStart...], as: UTF8.self).count + 1)
    }

    /// The candidate within two edits of `key`, ignoring case, for a "did you mean" hint after an unknown key;
    /// nil when none is that close. Ties go to the alphabetically first candidate.
    public static func closestKey(to key: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(key.lowercased(), $0.lowercased())) }.filter { $0.1 <= 2 }
        return scored.min { $0.1 == $1.1 ? $0.0 < $1.0 : $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance between two strings, in characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
