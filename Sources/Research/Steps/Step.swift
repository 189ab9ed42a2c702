import Foundation

/// One screen of a task: an instruction, a question, a form, a signature…
///
/// Every step has an identifier that is unique within its task and links the step to its result,
/// the texts shown at the top of the screen, and a ``kind`` that says what the step asks of the participant.
/// Steps are optional by default, as in ResearchKit: only a non-optional step hides its Skip button.
///
/// ```swift
/// let stairs = Step(identifier: "stairs", kind: .question(.boolean(BooleanFormat())),
///                   title: "Stairs", text: "Does your health now limit you in climbing several flights of stairs?")
/// ```
public struct Step: Hashable, Sendable, Identifiable {
    /// Unique within the task; the step's result carries the same identifier.
    public var identifier: String
    /// What the step asks of the participant, with the settings of that kind.
    public var kind: StepKind
    /// The heading at the top of the screen.
    public var title: String?
    /// The main text; for a question step, the question itself.
    public var text: String?
    /// Smaller text under ``text``.
    public var detailText: String?
    /// Small print at the bottom of the step.
    public var footnote: String?
    /// Whether the participant may skip the step. True by default.
    public var isOptional: Bool
    /// An image shown on the step.
    public var image: ImageReference?
    /// Lines of text, bullets or images under the main text, mostly on instruction steps. Empty by default.
    public var bodyItems: [BodyItem]
    /// A "learn more" link with more text about the step; nil for none.
    public var learnMore: LearnMoreItem?
    /// Offers a button that ends the task from this step.
    public var earlyTermination: EarlyTermination?

    /// The ``identifier``, for `Identifiable`.
    public var id: String { identifier }

    /// Creates a step; see the properties for each setting. `isOptional` defaults to true.
    public init(identifier: String, kind: StepKind, title: String? = nil, text: String? = nil, detailText: String? = nil,
                footnote: String? = nil, isOptional: Bool = true, image: ImageReference? = nil, bodyItems: [BodyItem] = [],
                learnMore: LearnMoreItem? = nil, earlyTermination: EarlyTermination? = nil) {
        self.identifier = identifier
        self.kind = kind
        self.title = title
        self.text = text
        self.detailText = detailText
        self.footnote = footnote
        self.isOptional = isOptional
        self.image = image
        self.bodyItems = bodyItems
        self.learnMore = learnMore
        self.earlyTermination = earlyTermination
    }

    /// The questions this step asks, as (item identifier, format, optional) triples; a question step's
    /// single item has the step's identifier.
    public var questions: [(identifier: String, format: AnswerFormat, isOptional: Bool)] {
        switch kind {
        case .question(let format):
            return [(identifier, format, isOptional)]
        case .form(let form):
            return form.items.compactMap { item in
                guard let id = item.identifier, let format = item.answerFormat else { return nil }
                return (id, format, item.isOptional)
            }
        default:
            return []
        }
    }

    /// The calculated (read-only) items of this step, in order.
    public var calculatedItems: [FormItem] {
        guard case .form(let form) = kind else { return [] }
        return form.items.filter(\.isCalculated)
    }

    /// The answer format of the question identified `item` in this step (nil: the step's own question).
    public func answerFormat(forItem item: String?) -> AnswerFormat? {
        questions.first { $0.identifier == (item ?? identifier) }?.format
    }
}

/// What a step asks of the participant.
public enum StepKind: Hashable, Sendable {
    /// Text, body items and an image; nothing to answer.
    case instruction
    /// The last screen of a task, thanking the participant.
    case completion
    /// One question; the step's text is the question.
    case question(AnswerFormat)
    /// Several questions on one screen, with section titles.
    case form(FormContent)
    /// A summary of earlier answers; the participant may go back to change one.
    case review(ReviewContent)
    /// An HTML page, optionally with a signature after it.
    case webContent(WebContent)
    /// A list of items to read.
    case table(TableContent)
    /// A drawn signature.
    case signature(SignatureContent)
    /// Shows progress while something takes time.
    case wait(WaitContent)
    /// Asks for permissions and records each one's outcome.
    case requestPermissions([PermissionRequest])
    /// A video with a thumbnail.
    case videoInstruction(VideoContent)
    /// A short test the participant performs while the device measures (tapping, a reaction time, a countdown).
    case active(ActiveStepContent)

    /// The name of the kind in JSON (`"type": "form"`).
    public var type: StepType {
        switch self {
        case .instruction: .instruction
        case .completion: .completion
        case .question: .question
        case .form: .form
        case .review: .review
        case .webContent: .webContent
        case .table: .table
        case .signature: .signature
        case .wait: .wait
        case .requestPermissions: .requestPermissions
        case .videoInstruction: .videoInstruction
        case .active: .active
        }
    }
}

/// The names of the step kinds in JSON.
public enum StepType: String, Hashable, Sendable, Codable, CaseIterable {
    /// One per ``StepKind`` case, with the same name.
    case instruction, completion, question, form, review, webContent, table, signature, wait, requestPermissions, videoInstruction, active
}

/// The questions of a form step.
public struct FormContent: Hashable, Sendable, Codable {
    /// The questions and section titles, in order; at least one must be a question, and question identifiers
    /// must be unique within the form.
    public var items: [FormItem]
    /// Show each question on its own card.
    public var cardStyle: Bool
    /// Creates the content of a form step; see the properties for each setting.
    public init(items: [FormItem], cardStyle: Bool = false) {
        self.items = items
        self.cardStyle = cardStyle
    }
    private enum CodingKeys: String, CodingKey { case items, cardStyle }
    /// Reads the form; `cardStyle` defaults to false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        items = try c.decode([FormItem].self, forKey: .items)
        cardStyle = try c.decodeIfPresent(Bool.self, forKey: .cardStyle) ?? false
    }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(items, forKey: .items)
        if cardStyle { try c.encode(true, forKey: .cardStyle) }
    }
}

/// Settings of a review step.
public struct ReviewContent: Hashable, Sendable, Codable {
    /// Leave instruction-like steps (instruction, completion, table, video, wait) out of the review.
    public var excludeInstructionSteps: Bool
    /// Creates review settings; instruction-like steps are left out unless `excludeInstructionSteps` is false.
    public init(excludeInstructionSteps: Bool = true) { self.excludeInstructionSteps = excludeInstructionSteps }
    private enum CodingKeys: String, CodingKey { case excludeInstructionSteps }
    /// Reads the settings; `excludeInstructionSteps` defaults to true.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        excludeInstructionSteps = try c.decodeIfPresent(Bool.self, forKey: .excludeInstructionSteps) ?? true
    }
}

/// An HTML page, and whether the participant signs after reading it (the 2021 code-along's consent).
public struct WebContent: Hashable, Sendable, Codable {
    /// The page's HTML; must not be blank.
    public var html: String
    /// Ask for a drawn signature after the content.
    public var showSignatureAfterContent: Bool
    /// Keep Next (and the signature pad) unavailable until the participant has scrolled to the end of the page,
    /// as a consent review may require. Front ends enforce it: the session cannot see scrolling. Defaults to false.
    public var requiresScrollToBottom: Bool
    /// Creates web content; no signature is asked for unless `showSignatureAfterContent` is true, and scrolling
    /// to the end is not required unless `requiresScrollToBottom` is true.
    public init(html: String, showSignatureAfterContent: Bool = false, requiresScrollToBottom: Bool = false) {
        self.html = html
        self.showSignatureAfterContent = showSignatureAfterContent
        self.requiresScrollToBottom = requiresScrollToBottom
    }
    private enum CodingKeys: String, CodingKey { case html, showSignatureAfterContent, requiresScrollToBottom }
    /// Reads the content; `showSignatureAfterContent` and `requiresScrollToBottom` default to false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        html = try c.decode(String.self, forKey: .html)
        showSignatureAfterContent = try c.decodeIfPresent(Bool.self, forKey: .showSignatureAfterContent) ?? false
        requiresScrollToBottom = try c.decodeIfPresent(Bool.self, forKey: .requiresScrollToBottom) ?? false
    }
    /// Writes `html` and `showSignatureAfterContent`, and `requiresScrollToBottom` only when it is true.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(html, forKey: .html)
        try c.encode(showSignatureAfterContent, forKey: .showSignatureAfterContent)
        if requiresScrollToBottom { try c.encode(true, forKey: .requiresScrollToBottom) }
    }
}

/// A list of items to read.
public struct TableContent: Hashable, Sendable, Codable {
    /// The items, in the order shown; at least one.
    public var items: [String]
    /// Marks each item with a bullet. Defaults to false.
    public var bulleted: Bool
    /// Creates a table; see the properties for each setting.
    public init(items: [String], bulleted: Bool = false) {
        self.items = items
        self.bulleted = bulleted
    }
    private enum CodingKeys: String, CodingKey { case items, bulleted }
    /// Reads the table; `bulleted` defaults to false.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        items = try c.decode([String].self, forKey: .items)
        bulleted = try c.decodeIfPresent(Bool.self, forKey: .bulleted) ?? false
    }
}

/// Settings of a signature step.
public struct SignatureContent: Hashable, Sendable, Codable {
    /// Text under the signature line.
    public var signatureLineText: String?
    /// Creates signature settings; see ``signatureLineText``.
    public init(signatureLineText: String? = nil) { self.signatureLineText = signatureLineText }
}

/// Settings of a wait step.
public struct WaitContent: Hashable, Sendable, Codable {
    /// How long to wait, in seconds; until the work is done when nil.
    public var duration: TimeInterval?
    /// How the wait is shown. Defaults to `activity`.
    public var indicator: WaitIndicator
    /// Creates wait settings; see the properties for each setting.
    public init(duration: TimeInterval? = nil, indicator: WaitIndicator = .activity) {
        self.duration = duration
        self.indicator = indicator
    }
    private enum CodingKeys: String, CodingKey { case duration, indicator }
    /// Reads the settings; `indicator` defaults to `activity`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        duration = try c.decodeIfPresent(TimeInterval.self, forKey: .duration)
        indicator = try c.decodeIfPresent(WaitIndicator.self, forKey: .indicator) ?? .activity
    }
}

/// A video and the moment of it used as its thumbnail.
public struct VideoContent: Hashable, Sendable, Codable {
    /// The video's URL; must not be blank.
    public var videoURL: String
    /// Seconds into the video for the thumbnail.
    public var thumbnailTime: TimeInterval
    /// Captions (WebVTT) for participants who cannot hear the sound.
    public var captionsURL: String?
    /// Creates video content; see the properties for each setting.
    public init(videoURL: String, thumbnailTime: TimeInterval = 0, captionsURL: String? = nil) {
        self.videoURL = videoURL
        self.thumbnailTime = thumbnailTime
        self.captionsURL = captionsURL
    }
    private enum CodingKeys: String, CodingKey { case videoURL, thumbnailTime, captionsURL }
    /// Reads the content; `thumbnailTime` defaults to 0.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        videoURL = try c.decode(String.self, forKey: .videoURL)
        thumbnailTime = try c.decodeIfPresent(TimeInterval.self, forKey: .thumbnailTime) ?? 0
        captionsURL = try c.decodeIfPresent(String.self, forKey: .captionsURL)
    }
}
