import Foundation

/// A file the participant attaches, such as a photo of a wound or a scanned letter; the answer is
/// ``Answer/file(_:)``. The file itself is written to the run's output folder (see
/// ``TaskSession/attachFile(_:title:contentType:for:)``) and the answer describes it.
public struct FileFormat: Hashable, Sendable, Codable {
    /// The media types accepted, such as `image/jpeg` or `image/*`; empty accepts any type.
    public var allowedContentTypes: [String]
    /// The largest file accepted, in bytes; from 1 byte to 50 MB (52,428,800 bytes). Defaults to 10 MB.
    public var maximumBytes: Int

    /// The default and largest allowed ``maximumBytes``.
    public static let defaultMaximumBytes = 10 * 1024 * 1024, largestMaximumBytes = 50 * 1024 * 1024
    /// The longest name a file may come with, in characters (what file systems allow).
    public static let maximumFileNameLength = 255

    /// Creates a file format; see the properties for each setting.
    public init(allowedContentTypes: [String] = [], maximumBytes: Int = FileFormat.defaultMaximumBytes) {
        self.allowedContentTypes = allowedContentTypes
        self.maximumBytes = maximumBytes
    }

    private enum CodingKeys: String, CodingKey { case allowedContentTypes, maximumBytes }

    /// Reads the format; both settings are optional.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        allowedContentTypes = try c.decodeIfPresent([String].self, forKey: .allowedContentTypes) ?? []
        maximumBytes = try c.decodeIfPresent(Int.self, forKey: .maximumBytes) ?? Self.defaultMaximumBytes
    }

    /// Writes the settings that differ from the defaults.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if !allowedContentTypes.isEmpty { try c.encode(allowedContentTypes, forKey: .allowedContentTypes) }
        if maximumBytes != Self.defaultMaximumBytes { try c.encode(maximumBytes, forKey: .maximumBytes) }
    }

    /// ``maximumBytes`` for people: "10 MB", "200 KB".
    public var maximumSizeDescription: String { Self.sizeDescription(maximumBytes) }

    /// A size in bytes for people: "512 bytes", "200 KB", "1.5 MB" (1 KB = 1024 bytes).
    public static func sizeDescription(_ bytes: Int) -> String {
        if bytes >= 1024 * 1024, bytes % (1024 * 1024) == 0 { return "\(bytes / (1024 * 1024)) MB" }
        if bytes >= 1024 * 1024 { return String(format: "%.1f MB", Double(bytes) / 1_048_576) }
        if bytes >= 1024 { return "\(bytes / 1024) KB" }
        return "\(bytes) byte\(bytes == 1 ? "" : "s")"
    }

    /// Whether `contentType` (parameters such as `; charset=…` ignored, case ignored) is accepted: it equals an
    /// allowed type, or an allowed `type/*` names its type.
    public func accepts(contentType: String) -> Bool {
        guard !allowedContentTypes.isEmpty else { return true }
        let bare = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return allowedContentTypes.contains { allowed in
            let pattern = allowed.lowercased()
            if pattern.hasSuffix("/*") { return bare.hasPrefix(String(pattern.dropLast())) }
            return bare == pattern
        }
    }
}

extension FileFormat: AnswerFormatRules {
    static let jsonKeys: Set<String> = ["allowedContentTypes", "maximumBytes"]

    var wrongKindError: AnswerValidationError { AnswerValidationError(.takesFile) }

    func addConstructionProblems(to problems: inout FormatProblems) {
        if maximumBytes < 1 || maximumBytes > Self.largestMaximumBytes {
            problems.add("maximumBytes", "must be from 1 to \(Self.largestMaximumBytes) (50 MB) (is \(maximumBytes))")
        }
        for (index, type) in allowedContentTypes.enumerated() {
            let parts = type.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count != 2 || parts[0].isEmpty || parts[1].isEmpty || parts[0] == "*" {
                problems.add("allowedContentTypes[\(index)]", "'\(type)' is not a media type such as image/jpeg or image/*")
            }
        }
    }

    /// Checks the file's size and type against the format, and what it came with: its media type must be one
    /// (``MediaType``, which has no room for a control character, a formula or markup), and its name passes the
    /// rules of all text a participant gives (``FreeTextRules``: `invoice\u{202E}txt.exe`, which shows as
    /// `invoiceexe.txt`, is refused).
    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .file(let file) = answer else { throw wrongKindError }
        if let name = file.title {
            if let scalar = FreeTextRules.forbiddenScalar(in: name, allowingLineBreaks: false) {
                throw AnswerValidationError(.fileNameCharacter, ["character": .text(FreeTextRules.describe(scalar)),
                                                                 "reason": .phrase(FreeTextRules.reason(for: scalar))])
            }
            if name.count > Self.maximumFileNameLength {
                throw AnswerValidationError(.fileNameTooLong, ["count": .integer(Self.maximumFileNameLength)])
            }
        }
        guard FreeTextRules.forbiddenScalar(in: file.contentType, allowingLineBreaks: false) == nil,
              (try? MediaType(parsing: file.contentType)) != nil else {
            throw AnswerValidationError(.fileTypeInvalid)
        }
        guard file.byteCount > 0 else { throw AnswerValidationError(.fileEmpty) }
        guard file.byteCount <= maximumBytes else {
            throw AnswerValidationError(.fileTooLarge, ["size": .text(Self.sizeDescription(maximumBytes))])
        }
        guard accepts(contentType: file.contentType) else {
            throw AnswerValidationError(.fileTypeNotAllowed, ["types": .text(allowedContentTypes.joined(separator: ", "))])
        }
    }

    /// Text cannot carry a file: it is attached with ``TaskSession/attachFile(_:title:contentType:for:)``, which writes
    /// it to the run's folder.
    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        throw AnswerValidationError(.attachFile)
    }

    func hint(in context: TextInputContext) -> String {
        var text = "the path of a file of at most \(Self.sizeDescription(maximumBytes))"
        if !allowedContentTypes.isEmpty { text += " (\(allowedContentTypes.joined(separator: ", ")))" }
        return text
    }
}

/// The answer to a file question: which file of the run it is, and what it holds.
public struct FileAnswer: Hashable, Sendable, Codable {
    /// The file's name in the run's output folder (as in the step's ``FileResult``).
    public var fileName: String
    /// The media type the file was given with, such as `image/jpeg`.
    public var contentType: String
    /// The file's size in bytes.
    public var byteCount: Int
    /// The SHA-256 of the file's bytes, as 64 lowercase hex digits.
    public var sha256: String
    /// The file's name as the participant chose it (`knee.jpg`); nil when unknown.
    public var title: String?

    /// Creates a file answer; see the properties for each part.
    public init(fileName: String, contentType: String, byteCount: Int, sha256: String, title: String? = nil) {
        self.fileName = fileName
        self.contentType = contentType
        self.byteCount = byteCount
        self.sha256 = sha256
        self.title = title
    }
}
