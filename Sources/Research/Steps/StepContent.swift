import Foundation

/// An image shown on a step or a choice: a URL (relative to the task file, or absolute) and its text alternative.
public struct ImageReference: Hashable, Sendable, Codable {
    public var url: String
    /// Describes the image for screen readers; required unless the image is decorative.
    public var altText: String?
    public init(url: String, altText: String? = nil) {
        self.url = url
        self.altText = altText
    }
}

/// How a body item is marked in an instruction step.
public enum BodyItemStyle: String, Hashable, Sendable, Codable {
    /// Plain paragraph.
    case text
    /// A bulleted item.
    case bullet
    /// An item led by its image.
    case image
}

/// One line of an instruction step's body: text with detail, shown plain, as a bullet, or led by an image.
public struct BodyItem: Hashable, Sendable, Codable {
    public var text: String?
    public var detailText: String?
    public var style: BodyItemStyle
    public var image: ImageReference?
    public init(text: String? = nil, detailText: String? = nil, style: BodyItemStyle = .text, image: ImageReference? = nil) {
        self.text = text
        self.detailText = detailText
        self.style = style
        self.image = image
    }
    private enum CodingKeys: String, CodingKey { case text, detailText, style, image }
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        text = try c.decodeIfPresent(String.self, forKey: .text)
        detailText = try c.decodeIfPresent(String.self, forKey: .detailText)
        style = try c.decodeIfPresent(BodyItemStyle.self, forKey: .style) ?? .text
        image = try c.decodeIfPresent(ImageReference.self, forKey: .image)
    }
}

/// A "learn more" link that opens more text about a step or a form item.
public struct LearnMoreItem: Hashable, Sendable, Codable {
    /// The link's text; "Learn more" from the string table when nil.
    public var linkText: String?
    public var title: String?
    public var text: String
    public init(linkText: String? = nil, title: String? = nil, text: String) {
        self.linkText = linkText
        self.title = title
        self.text = text
    }
}

/// A button that ends the task early from this step, with reason ``FinishReason/earlyTermination``.
public struct EarlyTermination: Hashable, Sendable, Codable {
    public var buttonText: String
    public init(buttonText: String) { self.buttonText = buttonText }
}

/// One entry of a form step: either a question (with an answer format) or a section title.
public struct FormItem: Hashable, Sendable, Codable {
    /// Unique within the form; absent for a section title.
    public var identifier: String?
    /// The question, or the section title.
    public var text: String?
    public var detailText: String?
    /// The answer format; nil makes this item a section title.
    public var answerFormat: AnswerFormat?
    /// Optional items may be left empty; defaults to true, as in ResearchKit.
    public var isOptional: Bool
    public var placeholder: String?
    public var learnMore: LearnMoreItem?

    public init(identifier: String, text: String?, detailText: String? = nil, answerFormat: AnswerFormat,
                isOptional: Bool = true, placeholder: String? = nil, learnMore: LearnMoreItem? = nil) {
        self.identifier = identifier
        self.text = text
        self.detailText = detailText
        self.answerFormat = answerFormat
        self.isOptional = isOptional
        self.placeholder = placeholder
        self.learnMore = learnMore
    }

    /// A section title that groups the items after it.
    public init(sectionTitle: String, detailText: String? = nil) {
        self.identifier = nil
        self.text = sectionTitle
        self.detailText = detailText
        self.answerFormat = nil
        self.isOptional = true
        self.placeholder = nil
        self.learnMore = nil
    }

    /// Whether this item is a section title rather than a question.
    public var isSectionTitle: Bool { answerFormat == nil }

    private enum CodingKeys: String, CodingKey {
        case identifier, text, sectionTitle, detailText, answerFormat, optional, placeholder, learnMore
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let title = try c.decodeIfPresent(String.self, forKey: .sectionTitle) {
            self.init(sectionTitle: title, detailText: try c.decodeIfPresent(String.self, forKey: .detailText))
            return
        }
        self.init(
            identifier: try c.decode(String.self, forKey: .identifier),
            text: try c.decodeIfPresent(String.self, forKey: .text),
            detailText: try c.decodeIfPresent(String.self, forKey: .detailText),
            answerFormat: try c.decode(AnswerFormat.self, forKey: .answerFormat),
            isOptional: try c.decodeIfPresent(Bool.self, forKey: .optional) ?? true,
            placeholder: try c.decodeIfPresent(String.self, forKey: .placeholder),
            learnMore: try c.decodeIfPresent(LearnMoreItem.self, forKey: .learnMore))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if isSectionTitle {
            try c.encodeIfPresent(text, forKey: .sectionTitle)
            try c.encodeIfPresent(detailText, forKey: .detailText)
            return
        }
        try c.encodeIfPresent(identifier, forKey: .identifier)
        try c.encodeIfPresent(text, forKey: .text)
        try c.encodeIfPresent(detailText, forKey: .detailText)
        try c.encodeIfPresent(answerFormat, forKey: .answerFormat)
        if !isOptional { try c.encode(false, forKey: .optional) }
        try c.encodeIfPresent(placeholder, forKey: .placeholder)
        try c.encodeIfPresent(learnMore, forKey: .learnMore)
    }
}

/// A permission a request-permissions step asks for.
public struct PermissionRequest: Hashable, Sendable, Codable {
    /// Identifies the permission in results.
    public var identifier: String
    public var kind: PermissionKind
    public var title: String?
    public var detailText: String?
    public init(identifier: String, kind: PermissionKind, title: String? = nil, detailText: String? = nil) {
        self.identifier = identifier
        self.kind = kind
        self.title = title
        self.detailText = detailText
    }
}

/// What a permission grants. On the web these map to the browser's permission prompts.
public enum PermissionKind: String, Hashable, Sendable, Codable, CaseIterable {
    case notifications, location, motion, camera, microphone, health
}

/// How a wait step shows that something is under way.
public enum WaitIndicator: String, Hashable, Sendable, Codable {
    case progressBar, activity
}
