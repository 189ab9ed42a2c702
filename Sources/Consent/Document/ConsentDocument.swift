import Foundation
import Research

/// An informed-consent document: its sections, the signatures it asks for, and its signature page.
///
/// The document is the single source for every consent step: visual consent pages come from its sections,
/// the review step shows it rendered as HTML, and signing fills in one of its ``signatures``. Applying a
/// signature result gives a signed copy; the original stays as it was.
///
/// ```swift
/// let document = try ConsentDocumentValidator.load(data)
/// let signed = try document.applying(signatureResult)
/// let html = ConsentReviewRenderer(context: context).page(for: signed)
/// ```
public struct ConsentDocument: Hashable, Sendable {
    /// Identifies the document in consent records; must not be blank.
    public var identifier: String
    /// The document's version, printed in the footer and recorded with every signature, such as `"2.1"`.
    public var version: String
    /// The document's title, the heading of the reviewed document.
    public var title: String
    /// The sections in order; at least one.
    public var sections: [ConsentSection]
    /// The signatures the document asks for; identifiers must be unique.
    public var signatures: [ConsentSignature]
    /// The heading of the signature page; nil for the localized default ("Consent").
    public var signaturePageTitle: String?
    /// Plain text shown on the signature page above the signatures, such as "By signing below, I agree…".
    public var signaturePageContent: String?
    /// Whole-document HTML that replaces the sections in the reviewed document (the signature page is still
    /// generated); nil to render the sections.
    public var reviewHTML: String?
    /// The BCP 47 language the document is written in, such as `en`, `ja` or `zh-Hans`; picks built-in strings,
    /// the name order and the fonts when no other language is asked for. Defaults to `en`.
    public var language: String

    /// Creates a document; see the properties for each setting.
    public init(identifier: String, version: String, title: String, sections: [ConsentSection],
                signatures: [ConsentSignature] = [], signaturePageTitle: String? = nil, signaturePageContent: String? = nil,
                reviewHTML: String? = nil, language: String = "en") {
        self.identifier = identifier
        self.version = version
        self.title = title
        self.sections = sections
        self.signatures = signatures
        self.signaturePageTitle = signaturePageTitle
        self.signaturePageContent = signaturePageContent
        self.reviewHTML = reviewHTML
        self.language = language
    }

    /// The signature identified `identifier`.
    public func signature(withIdentifier identifier: String) -> ConsentSignature? {
        signatures.first { $0.identifier == identifier }
    }

    /// The sections printed in the reviewed document: all but those marked ``ConsentSection/omitFromDocument``.
    public var documentSections: [ConsentSection] { sections.filter { !$0.omitFromDocument } }

    /// The sections that get a visual consent page: all but ``ConsentSectionType/onlyInDocument`` ones.
    public var visualSections: [ConsentSection] { sections.filter(\.type.appearsInVisualConsent) }

    /// A copy of the document with the result's name, drawing and date filled into the signature it names,
    /// as ResearchKit's `applyToDocument` does; this document is left unchanged.
    ///
    /// Throws ``ConsentSignatureError/unknownSignature(_:)`` when the document has no such signature and
    /// ``ConsentSignatureError/notConsented(_:)`` for a result in which the participant declined.
    public func applying(_ result: ConsentSignatureResult) throws(ConsentSignatureError) -> ConsentDocument {
        guard let index = signatures.firstIndex(where: { $0.identifier == result.signatureIdentifier }) else {
            throw .unknownSignature(result.signatureIdentifier, known: signatures.map(\.identifier))
        }
        guard result.consented else { throw .notConsented(result.signatureIdentifier) }
        var copy = self
        copy.signatures[index].givenName = result.givenName
        copy.signatures[index].familyName = result.familyName
        copy.signatures[index].signature = result.signature
        copy.signatures[index].signedDate = result.signedDate
        return copy
    }
}

extension ConsentDocument: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, version, title, sections, signatures, signaturePageTitle, signaturePageContent, reviewHTML, language
    }

    /// Reads a document; `signatures` defaults to none and `language` to `en`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try c.decode(String.self, forKey: .identifier)
        version = try c.decode(String.self, forKey: .version)
        title = try c.decode(String.self, forKey: .title)
        sections = try c.decode([ConsentSection].self, forKey: .sections)
        signatures = try c.decodeIfPresent([ConsentSignature].self, forKey: .signatures) ?? []
        signaturePageTitle = try c.decodeIfPresent(String.self, forKey: .signaturePageTitle)
        signaturePageContent = try c.decodeIfPresent(String.self, forKey: .signaturePageContent)
        reviewHTML = try c.decodeIfPresent(String.self, forKey: .reviewHTML)
        language = try c.decodeIfPresent(String.self, forKey: .language) ?? "en"
    }

    /// Writes the document; `reviewHTML`, `signaturePageTitle` and `signaturePageContent` only when set.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .identifier)
        try c.encode(version, forKey: .version)
        try c.encode(title, forKey: .title)
        try c.encode(sections, forKey: .sections)
        try c.encode(signatures, forKey: .signatures)
        try c.encodeIfPresent(signaturePageTitle, forKey: .signaturePageTitle)
        try c.encodeIfPresent(signaturePageContent, forKey: .signaturePageContent)
        try c.encodeIfPresent(reviewHTML, forKey: .reviewHTML)
        try c.encode(language, forKey: .language)
    }
}

/// Why a signature result could not be applied to a document.
public enum ConsentSignatureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The document has no signature with this identifier; `known` lists the ones it has.
    case unknownSignature(String, known: [String])
    /// The participant declined, so there is nothing to sign with.
    case notConsented(String)

    /// A short English explanation naming the signature.
    public var description: String {
        switch self {
        case .unknownSignature(let identifier, let known):
            "the document has no signature '\(identifier)'" + (known.isEmpty ? " (it asks for none)" : " (it has: \(known.joined(separator: ", ")))")
        case .notConsented(let identifier):
            "the result for signature '\(identifier)' records that the participant declined; it cannot be applied"
        }
    }
}
