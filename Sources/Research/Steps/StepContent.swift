import Foundation

/// An image shown on a step or a choice: a URL (relative to the task file, or absolute) and its text alternative.
public struct ImageReference: Hashable, Sendable, Codable {
    /// Where the image is: a URL relative to the task file, or absolute.
    public var url: String
    /// Describes the image for screen readers; required unless the image is decorative.
    public var altText: String?
    /// Creates an image reference; give `altText` unless the image is decorative.
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
    /// The item's text.
    public var text: String?
    /// Smaller text under ``text``.
    public var detailText: String?
    /// How the item is marked. Defaults to `text`.
    public var style: BodyItemStyle
    /// The image that leads the item in the `image` style. An item needs text, detail text or an image.
    public var image: ImageReference?
    /// Creates a body item; see the properties for each setting.
    public init(text: String? = nil, detailText: String? = nil, style: BodyItemStyle = .text, image: ImageReference? = nil) {
        self.text = text
        self.detailText = detailText
        self.style = style
        self.image = image
    }
    private enum CodingKeys: String, CodingKey { case text, detailText, style, image }
    /// Reads a body item; `style` defaults to `text`.
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
    /// The heading of the text the link opens; nil for none.
    public var title: String?
    /// The text the link opens, as plain text (what a terminal shows).
    public var text: String
    /// The same content as HTML, for front ends that render HTML (a consent section's formatted content);
    /// nil for none. Front ends that cannot render HTML show ``text``.
    public var html: String?
    /// Creates a "learn more" link; see the properties for each setting.
    public init(linkText: String? = nil, title: String? = nil, text: String, html: String? = nil) {
        self.linkText = linkText
        self.title = title
        self.text = text
        self.html = html
    }
}

/// A button that ends the task early from this step, with reason ``FinishReason/earlyTermination``.
public struct EarlyTermination: Hashable, Sendable, Codable {
    /// The button's text, such as "End the survey".
    public var buttonText: String
    /// Creates an early-termination button with the given text.
    public init(buttonText: String) { self.buttonText = buttonText }
}

/// One entry of a form step: either a question (with an answer format) or a section title.
public struct FormItem: Hashable, Sendable, Codable {
    /// Unique within the form; absent for a section title.
    public var identifier: String?
    /// The question, or the section title.
    public var text: String?
    /// Smaller text under the question or the section title.
    public var detailText: String?
    /// The answer format; nil makes this item a section title.
    public var answerFormat: AnswerFormat?
    /// Optional items may be left empty; defaults to true, as in ResearchKit.
    public var isOptional: Bool
    /// Text shown in the question's empty field; nil for none.
    public var placeholder: String?
    /// A "learn more" link about the question; nil for none.
    public var learnMore: LearnMoreItem?
    /// For a read-only item whose value is computed from other answers (a score), how it is computed; nil
    /// for a question the participant answers. The value has ``answerFormat``'s type, is shown but cannot
    /// be typed, and is stored as the item's answer; such an item is always optional.
    public var calculation: ItemCalculation?
    /// For a calculated item: computed and stored, but not shown (an intermediate value, such as SDC's `hidden`).
    public var isHidden: Bool = false
    /// For a question: an expression whose value pre-fills the item when its step is first shown (SDC's
    /// `initialExpression`), evaluated by the session's ``TaskCalculator``; the participant may change or clear it.
    /// A value that cannot be calculated leaves the item empty. Nil for none.
    public var initialValue: ItemCalculation?

    /// Creates a question item; `isOptional` defaults to true.
    public init(identifier: String, text: String?, detailText: String? = nil, answerFormat: AnswerFormat,
                isOptional: Bool = true, placeholder: String? = nil, learnMore: LearnMoreItem? = nil) {
        self.identifier = identifier
        self.text = text
        self.detailText = detailText
        self.answerFormat = answerFormat
        self.isOptional = isOptional
        self.placeholder = placeholder
        self.learnMore = learnMore
        self.calculation = nil
    }

    /// Creates a read-only item whose value `calculation` computes, of type `answerFormat`.
    public init(identifier: String, text: String?, detailText: String? = nil, answerFormat: AnswerFormat,
                calculation: ItemCalculation) {
        self.init(identifier: identifier, text: text, detailText: detailText, answerFormat: answerFormat)
        self.calculation = calculation
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
        self.calculation = nil
    }

    /// Whether this item is a section title rather than a question.
    public var isSectionTitle: Bool { answerFormat == nil }

    /// Whether this item's value is computed rather than asked (see ``calculation``).
    public var isCalculated: Bool { calculation != nil }

    private enum CodingKeys: String, CodingKey {
        case identifier, text, sectionTitle, detailText, answerFormat, optional, placeholder, learnMore, calculation, hidden, initialValue
    }

    /// Reads a question item, or a section title when `sectionTitle` is present; `optional` defaults to true.
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
        calculation = try c.decodeIfPresent(ItemCalculation.self, forKey: .calculation)
        isHidden = try c.decodeIfPresent(Bool.self, forKey: .hidden) ?? false
        initialValue = try c.decodeIfPresent(ItemCalculation.self, forKey: .initialValue)
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
        try c.encodeIfPresent(calculation, forKey: .calculation)
        if isHidden { try c.encode(true, forKey: .hidden) }
        try c.encodeIfPresent(initialValue, forKey: .initialValue)
    }
}

/// A permission a request-permissions step asks for.
public struct PermissionRequest: Hashable, Sendable, Codable {
    /// Identifies the permission in results.
    public var identifier: String
    /// What the request asks for.
    public var kind: PermissionKind
    /// A heading for the request; nil for none.
    public var title: String?
    /// Smaller text under the title, such as why the study needs the permission.
    public var detailText: String?
    /// Creates a permission request; see the properties for each setting.
    public init(identifier: String, kind: PermissionKind, title: String? = nil, detailText: String? = nil) {
        self.identifier = identifier
        self.kind = kind
        self.title = title
        self.detailText = detailText
    }
}

/// What a permission grants. On the web these map to the browser's permission prompts, except ``email``.
public enum PermissionKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// Notifications, the device's position, motion sensors, camera, microphone and health data.
    case notifications, location, motion, camera, microphone, health
    /// An email address to send the study's reminders to, which the participant may leave empty. The runner hands the
    /// address to whatever sends the reminders and keeps it out of the result (results are exported to researchers):
    /// the outcome is `granted` when an address was given, `denied` when none was, and `unavailable` where nothing
    /// sends email (a terminal). A task asks for it once at most.
    case email
}

/// How a wait step shows that something is under way.
public enum WaitIndicator: String, Hashable, Sendable, Codable {
    /// `progressBar`: a bar that shows how far the wait has come; `activity`: an indicator that only shows activity.
    case progressBar, activity
}
