import Foundation
import Research

/// One section of a consent document: a page of the visual consent sequence and a part of the reviewed document.
///
/// A predefined section (``ConsentSectionType/isPredefined``) may leave ``title`` out to get the localized
/// default; ``ConsentSectionType/custom`` and ``ConsentSectionType/onlyInDocument`` sections need their own.
///
/// ```swift
/// let privacy = ConsentSection(type: .privacy, summary: "Your data is coded and kept on the study's server.",
///                              content: .markdown("We **never** sell your data."))
/// ```
public struct ConsentSection: Hashable, Sendable {
    /// What the section is about; picks the default title and the "learn more" link text.
    public var type: ConsentSectionType
    /// The title of the visual consent page and, without a ``formalTitle``, of the section in the document;
    /// nil for the localized default of a predefined type.
    public var title: String?
    /// The heading used in the reviewed document instead of ``title``, when the legal text needs a more formal one.
    public var formalTitle: String?
    /// One or two sentences shown on the visual consent page.
    public var summary: String?
    /// The section's full text in the reviewed document, also shown by the page's "learn more" link unless
    /// ``learnMoreContent`` is set; nil for none.
    public var content: ConsentContent?
    /// What the visual consent page's "learn more" link shows instead of ``content``; nil to show ``content``.
    public var learnMoreContent: ConsentContent?
    /// An image for the visual consent page, with its text alternative.
    public var customImage: ImageReference?
    /// The URL of a short animation (a video) for the visual consent page.
    public var customAnimationURL: String?
    /// Leave the section out of the reviewed document (it still gets its visual consent page). Defaults to false.
    public var omitFromDocument: Bool

    /// Creates a section; see the properties for each setting.
    public init(type: ConsentSectionType, title: String? = nil, formalTitle: String? = nil, summary: String? = nil,
                content: ConsentContent? = nil, learnMoreContent: ConsentContent? = nil, customImage: ImageReference? = nil,
                customAnimationURL: String? = nil, omitFromDocument: Bool = false) {
        self.type = type
        self.title = title
        self.formalTitle = formalTitle
        self.summary = summary
        self.content = content
        self.learnMoreContent = learnMoreContent
        self.customImage = customImage
        self.customAnimationURL = customAnimationURL
        self.omitFromDocument = omitFromDocument
    }

    /// The title participants see: ``title``, or the default of a predefined type in `language`; nil for a
    /// custom or document-only section without a title.
    public func displayTitle(language: String, strings: ConsentStrings) -> String? {
        if let title, !title.isEmpty { return title }
        return type.titleKey.map { strings.string($0, language: language) }
    }

    /// The heading of the section in the reviewed document: ``formalTitle``, else ``displayTitle(language:strings:)``.
    public func documentTitle(language: String, strings: ConsentStrings) -> String? {
        if let formalTitle, !formalTitle.isEmpty { return formalTitle }
        return displayTitle(language: language, strings: strings)
    }

    /// What the "learn more" link of the section's visual consent page shows: ``learnMoreContent``, else ``content``.
    public var learnMore: ConsentContent? { learnMoreContent ?? content }
}

extension ConsentSection: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, title, formalTitle, summary, content, markdownContent, htmlContent
        case learnMoreContent, learnMoreMarkdownContent, learnMoreHTMLContent
        case customImage, customAnimationURL, omitFromDocument
    }

    /// Reads a section; `type` is required, `omitFromDocument` defaults to false, and at most one of `content`,
    /// `markdownContent` and `htmlContent` (and of the three `learnMore…` keys) may be present.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decode(ConsentSectionType.self, forKey: .type)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        formalTitle = try c.decodeIfPresent(String.self, forKey: .formalTitle)
        summary = try c.decodeIfPresent(String.self, forKey: .summary)
        content = try Self.decodeContent(c, keys: (.content, .markdownContent, .htmlContent))
        learnMoreContent = try Self.decodeContent(c, keys: (.learnMoreContent, .learnMoreMarkdownContent, .learnMoreHTMLContent))
        customImage = try c.decodeIfPresent(ImageReference.self, forKey: .customImage)
        customAnimationURL = try c.decodeIfPresent(String.self, forKey: .customAnimationURL)
        omitFromDocument = try c.decodeIfPresent(Bool.self, forKey: .omitFromDocument) ?? false
    }

    private static func decodeContent(_ c: KeyedDecodingContainer<CodingKeys>,
                                      keys: (text: CodingKeys, markdown: CodingKeys, html: CodingKeys)) throws -> ConsentContent? {
        var found: [(CodingKeys, ConsentContent)] = []
        if let text = try c.decodeIfPresent(String.self, forKey: keys.text) { found.append((keys.text, .plainText(text))) }
        if let text = try c.decodeIfPresent(String.self, forKey: keys.markdown) { found.append((keys.markdown, .markdown(text))) }
        if let text = try c.decodeIfPresent(String.self, forKey: keys.html) { found.append((keys.html, .html(text))) }
        guard found.count <= 1 else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [found[1].0],
                debugDescription: "a section's text has one form: give only one of '\(found.map(\.0.stringValue).joined(separator: "', '"))'"))
        }
        return found.first?.1
    }

    /// Writes the section, its text under the key of its form, and `omitFromDocument` only when true.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(formalTitle, forKey: .formalTitle)
        try c.encodeIfPresent(summary, forKey: .summary)
        func encode(_ content: ConsentContent?, keys: (CodingKeys, CodingKeys, CodingKeys)) throws {
            switch content {
            case .plainText(let text)?: try c.encode(text, forKey: keys.0)
            case .markdown(let text)?: try c.encode(text, forKey: keys.1)
            case .html(let text)?: try c.encode(text, forKey: keys.2)
            case nil: break
            }
        }
        try encode(content, keys: (.content, .markdownContent, .htmlContent))
        try encode(learnMoreContent, keys: (.learnMoreContent, .learnMoreMarkdownContent, .learnMoreHTMLContent))
        try c.encodeIfPresent(customImage, forKey: .customImage)
        try c.encodeIfPresent(customAnimationURL, forKey: .customAnimationURL)
        if omitFromDocument { try c.encode(true, forKey: .omitFromDocument) }
    }
}
