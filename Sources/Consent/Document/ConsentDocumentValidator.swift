import Foundation
import JSONDiagnostics
import Research

/// Reads consent document JSON and checks everything a document must satisfy, naming the JSON path and the
/// problem for each fault: malformed JSON (with line and column), missing or mistyped values, keys StudyKit
/// does not read (with a "did you mean"), custom sections without a title, a section with two forms of text,
/// empty sections, duplicate signature identifiers, and more. Every problem is reported at once.
///
/// ```swift
/// let document = try ConsentDocumentValidator.load(data)          // throws ConsentValidationFailure
/// let problems = ConsentDocumentValidator.problems(in: document)  // [] for a valid document
/// ```
public enum ConsentDocumentValidator {
    /// Decodes and validates a document; throws ``ConsentValidationFailure`` listing every problem found.
    public static func load(_ data: Data) throws(ConsentValidationFailure) -> ConsentDocument {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ConsentValidationFailure(problems: [
                ConsentDefinitionError(path: "", message: "malformed JSON: \(JSONDiagnostics.describeSyntaxError(in: data))"),
            ])
        }
        guard var object = json as? [String: Any] else {
            throw ConsentValidationFailure(problems: [ConsentDefinitionError(path: "", message: "a consent document must be a JSON object")])
        }
        var problems = ConsentKeyChecker.problems(inDocument: object)

        // Each section and signature is decoded on its own, so that a fault in one does not hide the others.
        let sections: [ConsentSection]? = decodeElements(of: object["sections"], key: "sections", into: &problems)
        let signatures: [ConsentSignature]? = decodeElements(of: object["signatures"], key: "signatures", into: &problems)
        if object["sections"] is [Any] { object["sections"] = [Any]() }
        if object["signatures"] is [Any] { object["signatures"] = [Any]() }
        var document: ConsentDocument?
        do {
            document = try decode(ConsentDocument.self, from: object, path: [])
        } catch {
            problems.append(error)
        }
        guard var document, let sections, let signatures else { throw ConsentValidationFailure(problems: problems) }
        document.sections = sections
        document.signatures = signatures
        problems += Self.problems(in: document)
        guard problems.isEmpty else { throw ConsentValidationFailure(problems: problems) }
        return document
    }

    /// Every problem in a document built in code (an empty array when it is valid).
    public static func problems(in document: ConsentDocument) -> [ConsentDefinitionError] {
        var problems: [ConsentDefinitionError] = []
        func report(_ path: String, _ message: String) { problems.append(ConsentDefinitionError(path: path, message: message)) }
        func isBlank(_ text: String?) -> Bool { text?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true }

        if isBlank(document.identifier) { report("identifier", "must not be empty") }
        if isBlank(document.version) { report("version", "must not be empty") }
        if isBlank(document.title) { report("title", "must not be empty") }
        if !isLanguageTag(document.language) {
            report("language", "'\(document.language)' is not a BCP 47 language tag such as 'en', 'ja' or 'zh-Hans'")
        }
        if let html = document.reviewHTML, isBlank(html) { report("reviewHTML", "must not be empty; leave it out to render the sections") }
        if document.signaturePageTitle != nil, isBlank(document.signaturePageTitle) {
            report("signaturePageTitle", "must not be empty; leave it out for the localized default")
        }

        if document.sections.isEmpty {
            report("sections", "a consent document needs at least one section")
        } else if document.reviewHTML == nil, document.documentSections.isEmpty {
            report("sections", "every section is omitted from the document and there is no reviewHTML: the reviewed document would be empty")
        }
        for (index, section) in document.sections.enumerated() {
            let path = "sections[\(index)]"
            if !section.type.isPredefined, isBlank(section.title) {
                report("\(path).title", "a \(section.type.rawValue) section needs a title (only predefined types have a default)")
            } else if section.title != nil, isBlank(section.title) {
                report("\(path).title", "must not be empty; leave it out for the localized default")
            }
            if section.formalTitle != nil, isBlank(section.formalTitle) { report("\(path).formalTitle", "must not be empty") }
            if let content = section.content, content.isBlank { report("\(path).\(contentKey(content))", "must not be empty") }
            if let content = section.learnMoreContent, content.isBlank {
                report("\(path).learnMore\(contentKey(content).prefix(1).uppercased())\(contentKey(content).dropFirst())", "must not be empty")
            }
            if isBlank(section.summary), section.content == nil, section.learnMoreContent == nil {
                report(path, "the section is empty: give it a summary, content, or both")
            }
            if section.type == .onlyInDocument, section.omitFromDocument {
                report("\(path).omitFromDocument", "an onlyInDocument section omitted from the document would appear nowhere")
            }
            if section.omitFromDocument, section.content != nil, section.learnMoreContent != nil {
                report("\(path).omitFromDocument",
                       "the section's content is shown nowhere: it is omitted from the document and its learn-more page shows learnMoreContent")
            }
            if let image = section.customImage, isBlank(image.url) { report("\(path).customImage.url", "must not be empty") }
            if section.customAnimationURL != nil, isBlank(section.customAnimationURL) { report("\(path).customAnimationURL", "must not be empty") }
        }

        var firstIndex: [String: Int] = [:]
        for (index, signature) in document.signatures.enumerated() {
            let path = "signatures[\(index)]"
            if isBlank(signature.identifier) {
                report("\(path).identifier", "must not be empty")
            } else if let earlier = firstIndex[signature.identifier] {
                report("\(path).identifier", "duplicate signature identifier '\(signature.identifier)' (also signatures[\(earlier)])")
            } else {
                firstIndex[signature.identifier] = index
            }
            if isBlank(signature.meaning) {
                report("\(path).meaning", "must not be empty; say what signing means, such as '\(ConsentSignature.consentToParticipate)'")
            }
            if signature.dateFormat != nil, isBlank(signature.dateFormat) {
                report("\(path).dateFormat", "must not be empty; leave it out for the locale's medium date")
            }
            if signature.title != nil, isBlank(signature.title) { report("\(path).title", "must not be empty") }
            if signature.signedInConsole {
                if signature.requiresSignatureImage {
                    report("\(path).requiresSignatureImage", "a signature given in the console is a typed name: set requiresSignatureImage to false")
                }
                if signature.isFilledIn {
                    report("\(path).signedInConsole", "a signature given in the console is not pre-filled: remove givenName, familyName, signature and signedDate")
                }
            }
            if let drawing = signature.signature {
                if !(drawing.width > 0 && drawing.height > 0) {
                    report("\(path).signature", "the drawing area must have a positive width and height (\(drawing.width) × \(drawing.height))")
                } else if drawing.isEmpty {
                    report("\(path).signature.strokes", "a pre-filled drawing needs at least one point")
                } else if let stroke = drawing.strokes.firstIndex(where: { $0.contains { !inside($0, drawing) } }) {
                    report("\(path).signature.strokes[\(stroke)]", "has points outside the \(drawing.width) × \(drawing.height) drawing area")
                }
            }
        }
        return problems
    }

    /// `content`, `markdownContent` or `htmlContent`: the JSON key of a section's text in this form.
    static func contentKey(_ content: ConsentContent) -> String {
        switch content {
        case .plainText: "content"
        case .markdown: "markdownContent"
        case .html: "htmlContent"
        }
    }

    private static func inside(_ point: SignaturePoint, _ drawing: Signature) -> Bool {
        point.x.isFinite && point.y.isFinite && point.t.isFinite && point.x >= 0 && point.y >= 0
            && point.x <= drawing.width && point.y <= drawing.height && point.t >= 0
    }

    /// Whether `tag` looks like a BCP 47 tag: a 2–3 letter language, then subtags of 1–8 letters or digits.
    static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    /// Decodes each element of a JSON array on its own; nil (with the problems recorded) when any fails.
    private static func decodeElements<Element: Decodable>(of value: Any?, key: String,
                                                           into problems: inout [ConsentDefinitionError]) -> [Element]? {
        guard let array = value as? [Any] else { return value == nil ? [] : nil } // the whole-document decode reports the type
        var elements: [Element] = []
        var failed = false
        for (index, element) in array.enumerated() {
            do {
                elements.append(try decode(Element.self, from: element, path: [key, "[\(index)]"]))
            } catch {
                problems.append(error)
                failed = true
            }
        }
        return failed ? nil : elements
    }

    /// Decodes a JSON value (as read by JSONSerialization) found at `path`; faults carry the full path.
    static func decode<Value: Decodable>(_ type: Value.Type, from json: Any, path: [String]) throws(ConsentDefinitionError) -> Value {
        let prefix = path.reduce("") { $1.hasPrefix("[") || $0.isEmpty ? $0 + $1 : $0 + "." + $1 }
        do {
            let data = try JSONSerialization.data(withJSONObject: json, options: [.fragmentsAllowed])
            return try ResearchJSON.decoder().decode(Value.self, from: data)
        } catch let error as DecodingError {
            let (path, message) = describe(error)
            throw ConsentDefinitionError(path: join(prefix, path), message: message)
        } catch {
            throw ConsentDefinitionError(path: prefix, message: "\(error)")
        }
    }

    /// The path and an explanation of a decoding error.
    static func describe(_ error: DecodingError) -> (path: String, message: String) {
        switch error {
        case .dataCorrupted(let context):
            return (JSONDiagnostics.path(context.codingPath), context.debugDescription)
        case .keyNotFound(let key, let context):
            return (join(JSONDiagnostics.path(context.codingPath), key.stringValue), "is required but missing")
        case .typeMismatch(let type, let context):
            return (JSONDiagnostics.path(context.codingPath), "expected \(describe(type)); \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            return (JSONDiagnostics.path(context.codingPath), "expected \(describe(type)), found null")
        @unknown default:
            return ("", "\(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "\(type)"
        }
    }

    static func join(_ base: String, _ tail: String) -> String {
        if base.isEmpty { return tail }
        if tail.isEmpty { return base }
        return tail.hasPrefix("[") ? base + tail : base + "." + tail
    }
}

/// A fault in a consent document (or string table), with the JSON path where it is.
public struct ConsentDefinitionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// JSON path inside the document, e.g. `sections[2].title`; empty for the whole document.
    public var path: String
    /// What is wrong, in plain English.
    public var message: String
    /// Creates a fault at `path` with an explanation.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
    /// `path: message`, or only the message when the path is empty.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Every problem found in a consent document (or string table) file.
public struct ConsentValidationFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every problem found, in the order found.
    public var problems: [ConsentDefinitionError]
    /// Creates a failure listing `problems`.
    public init(problems: [ConsentDefinitionError]) { self.problems = problems }
    /// The problems, one per line, each as `path: message`.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
