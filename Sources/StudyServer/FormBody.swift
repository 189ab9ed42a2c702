import Foundation
import MultipartKit
import NIOCore
import StudyWeb

/// The fields of an `application/x-www-form-urlencoded` body (what an HTML form posts), by name; a name posted
/// several times (checkboxes) keeps every value in order.
enum FormBody {
    /// Reads `body`; throws ``StudyServerError/malformed(_:)`` naming the first field that is not valid
    /// percent-encoded UTF-8.
    static func fields(_ body: String) throws(StudyServerError) -> [String: [String]] {
        var fields: [String: [String]] = [:]
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]) else { throw .malformed("The form field '\(parts[0].prefix(40))' is not valid URL encoding.") }
            guard let value = parts.count > 1 ? decode(parts[1]) : "" else {
                throw .malformed("The value of the form field '\(name.prefix(40))' is not valid URL encoding.")
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

    /// Whether `contentType` is `application/x-www-form-urlencoded` (with any parameters, such as a charset).
    static func isURLEncoded(contentType: String) -> Bool {
        mediaType(contentType) == "application/x-www-form-urlencoded"
    }

    /// Whether `contentType` is `multipart/form-data`, with or without its boundary.
    static func isMultipart(contentType: String) -> Bool {
        mediaType(contentType) == "multipart/form-data"
    }

    /// The refusal of a body whose content type is not a form's (nil: none was given).
    static func wrongContentType(_ contentType: String?) -> StudyServerError {
        let given = contentType.map { "as \($0.prefix(60))" } ?? "without a Content-Type"
        return .malformed("The form was sent \(given); the server reads forms sent as application/x-www-form-urlencoded, "
            + "or multipart/form-data where a question takes a file.")
    }

    private static func mediaType(_ contentType: String) -> String {
        (contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The boundary of a `multipart/form-data` content type; nil for any other type.
    static func multipartBoundary(contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("boundary=") {
            let value = parameter.dropFirst("boundary=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// Reads a `multipart/form-data` body: each part with a `filename` (even an empty one, which a file input left
    /// empty sends) is a file by its field name, every other part a field value. Throws
    /// ``StudyServerError/malformed(_:)`` for a body that is not well-formed multipart or has no part, a part without a name,
    /// a text value that is not UTF-8, or two files in one field.
    static func multipart(_ body: ByteBuffer, boundary: String) throws(StudyServerError) -> ([String: [String]], [String: UploadedFile]) {
        let parser = MultipartParser(boundary: boundary)
        var headers: [(String, String)] = []
        var content = ByteBuffer()
        var parts: [(headers: [(String, String)], body: ByteBuffer)] = []
        parser.onHeader = { name, value in headers.append((name, value)) }
        parser.onBody = { chunk in content.writeBuffer(&chunk) }
        parser.onPartComplete = {
            parts.append((headers, content))
            headers = []
            content = ByteBuffer()
        }
        do {
            try parser.execute(body)
        } catch {
            throw .malformed("The form is not well-formed multipart/form-data.")
        }
        guard !parts.isEmpty else { throw .malformed("The form has no parts separated by its boundary.") }
        // The parser hands over each part at the boundary after it, so a body cut off before its closing boundary
        // ("--BOUNDARY--") would lose its last part without a word.
        guard body.readableBytesView.firstRange(of: Array("\r\n--\(boundary)--".utf8)) != nil else {
            throw .malformed("The form ends before its closing boundary: it was cut off on the way.")
        }
        var fields: [String: [String]] = [:]
        var files: [String: UploadedFile] = [:]
        for (index, part) in parts.enumerated() {
            let disposition = part.headers.first { $0.0.lowercased() == "content-disposition" }?.1 ?? ""
            let parameters = dispositionParameters(disposition)
            guard let name = parameters["name"], !name.isEmpty else { throw .malformed("Part \(index + 1) of the form has no field name.") }
            if let fileName = parameters["filename"] {
                guard files[name] == nil else { throw .malformed("The form field '\(name.prefix(40))' carries more than one file.") }
                let type = part.headers.first { $0.0.lowercased() == "content-type" }?.1 ?? "application/octet-stream"
                files[name] = UploadedFile(fileName: fileName.isEmpty ? nil : fileName, contentType: type,
                                           data: Data(part.body.readableBytesView))
            } else {
                guard let value = part.body.getString(at: part.body.readerIndex, length: part.body.readableBytes),
                      value.utf8.count == part.body.readableBytes else {
                    throw .malformed("The value of the form field '\(name.prefix(40))' is not UTF-8 text.")
                }
                fields[name, default: []].append(value)
            }
        }
        return (fields, files.filter { !$0.value.data.isEmpty || $0.value.fileName != nil })
    }

    /// The parameters of a `Content-Disposition` header (`form-data; name="q0"; filename="knee.jpg"`), with quotes
    /// and backslash escapes removed.
    private static func dispositionParameters(_ header: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(header)
        while let semicolon = rest.firstIndex(of: ";") {
            rest = rest[rest.index(after: semicolon)...].drop(while: { $0 == " " })
            guard let equals = rest.firstIndex(of: "=") else { break }
            let key = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var value = ""
            var cursor = rest.index(after: equals)
            if cursor < rest.endIndex, rest[cursor] == "\"" {
                cursor = rest.index(after: cursor)
                while cursor < rest.endIndex, rest[cursor] != "\"" {
                    if rest[cursor] == "\\", rest.index(after: cursor) < rest.endIndex { cursor = rest.index(after: cursor) }
                    value.append(rest[cursor])
                    cursor = rest.index(after: cursor)
                }
                if cursor < rest.endIndex { cursor = rest.index(after: cursor) }
            } else {
                while cursor < rest.endIndex, rest[cursor] != ";" { value.append(rest[cursor]); cursor = rest.index(after: cursor) }
            }
            result[key] = value.trimmingCharacters(in: .whitespaces)
            rest = rest[cursor...]
        }
        return result
    }
}
