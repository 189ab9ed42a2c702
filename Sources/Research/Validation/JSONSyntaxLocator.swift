import Foundation

/// Finds where JSON text stops being valid, as a line and column a person can go to.
enum JSONSyntaxLocator {
    /// "line 3, column 14: invalid value" for malformed JSON.
    static func describe(_ data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return "the document is not a JSON object"
        } catch {
            let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            guard let offset = characterOffset(in: text) else { return text }
            let (line, column) = lineAndColumn(ofByte: offset, in: data)
            var reason = text
            if let range = reason.range(of: " around character") { reason = String(reason[..<range.lowerBound]) }
            return "line \(line), column \(column): \(reason.prefix(1).lowercased() + reason.dropFirst())"
        }
    }

    private static func characterOffset(in message: String) -> Int? {
        guard let range = message.range(of: "character ") else { return nil }
        let digits = message[range.upperBound...].prefix { $0.isNumber }
        return Int(digits)
    }

    /// 1-based line and column (in characters) of a byte offset.
    static func lineAndColumn(ofByte offset: Int, in data: Data) -> (Int, Int) {
        let prefix = data.prefix(max(0, min(offset, data.count)))
        var line = 1
        var lineStart = prefix.startIndex
        for index in prefix.indices where prefix[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let column = (String(decoding: prefix[lineStart...], as: UTF8.self).count) + 1
        return (line, column)
    }
}
