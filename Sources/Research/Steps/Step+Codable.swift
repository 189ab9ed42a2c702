import Foundation

extension Step: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, identifier, title, text, detailText, footnote, optional, image, bodyItems, learnMore, earlyTermination
        case answerFormat, permissions
    }

    /// Reads a step; `type` picks the kind, whose settings sit beside the common keys, `optional` defaults
    /// to true and `bodyItems` to none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(StepType.self, forKey: .type)
        identifier = try c.decode(String.self, forKey: .identifier)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        text = try c.decodeIfPresent(String.self, forKey: .text)
        detailText = try c.decodeIfPresent(String.self, forKey: .detailText)
        footnote = try c.decodeIfPresent(String.self, forKey: .footnote)
        isOptional = try c.decodeIfPresent(Bool.self, forKey: .optional) ?? true
        image = try c.decodeIfPresent(ImageReference.self, forKey: .image)
        bodyItems = try c.decodeIfPresent([BodyItem].self, forKey: .bodyItems) ?? []
        learnMore = try c.decodeIfPresent(LearnMoreItem.self, forKey: .learnMore)
        earlyTermination = try c.decodeIfPresent(EarlyTermination.self, forKey: .earlyTermination)
        switch type {
        case .instruction: kind = .instruction
        case .completion: kind = .completion
        case .question: kind = .question(try c.decode(AnswerFormat.self, forKey: .answerFormat))
        case .form: kind = .form(try FormContent(from: decoder))
        case .review: kind = .review(try ReviewContent(from: decoder))
        case .webContent: kind = .webContent(try WebContent(from: decoder))
        case .table: kind = .table(try TableContent(from: decoder))
        case .signature: kind = .signature(try SignatureContent(from: decoder))
        case .wait: kind = .wait(try WaitContent(from: decoder))
        case .requestPermissions: kind = .requestPermissions(try c.decode([PermissionRequest].self, forKey: .permissions))
        case .videoInstruction: kind = .videoInstruction(try VideoContent(from: decoder))
        case .active: kind = .active(try ActiveStepContent(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind.type, forKey: .type)
        try c.encode(identifier, forKey: .identifier)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(text, forKey: .text)
        try c.encodeIfPresent(detailText, forKey: .detailText)
        try c.encodeIfPresent(footnote, forKey: .footnote)
        if !isOptional { try c.encode(false, forKey: .optional) }
        try c.encodeIfPresent(image, forKey: .image)
        if !bodyItems.isEmpty { try c.encode(bodyItems, forKey: .bodyItems) }
        try c.encodeIfPresent(learnMore, forKey: .learnMore)
        try c.encodeIfPresent(earlyTermination, forKey: .earlyTermination)
        switch kind {
        case .instruction, .completion: break
        case .question(let format): try c.encode(format, forKey: .answerFormat)
        case .form(let content): try content.encode(to: encoder)
        case .review(let content): try content.encode(to: encoder)
        case .webContent(let content): try content.encode(to: encoder)
        case .table(let content): try content.encode(to: encoder)
        case .signature(let content): try content.encode(to: encoder)
        case .wait(let content): try content.encode(to: encoder)
        case .requestPermissions(let permissions): try c.encode(permissions, forKey: .permissions)
        case .videoInstruction(let content): try content.encode(to: encoder)
        case .active(let content): try content.encode(to: encoder)
        }
    }
}
