import Foundation
import Research

/// A signature a consent document asks for: the participant's, or an investigator's countersignature.
///
/// A signature starts empty and is filled in by applying a ``ConsentSignatureResult`` to a copy of the
/// document (``ConsentDocument/applying(_:)``); an investigator's countersignature may come pre-filled.
///
/// ```swift
/// let participant = ConsentSignature(identifier: "participant", title: "Participant",
///                                    meaning: ConsentSignature.consentToParticipate)
/// ```
public struct ConsentSignature: Hashable, Sendable {
    /// Unique within the document; consent steps name the signature they collect by it.
    public var identifier: String
    /// The heading of the signature's block on the signature page, such as "Participant"; nil for none.
    public var title: String?
    /// Ask for (and print) a given and family name. Defaults to true.
    public var requiresName: Bool
    /// Ask for (and print) a drawn signature. Defaults to true.
    public var requiresSignatureImage: Bool
    /// The signer's given name, once known.
    public var givenName: String?
    /// The signer's family name, once known.
    public var familyName: String?
    /// The drawing, once signed.
    public var signature: Signature?
    /// When the signer signed.
    public var signedDate: Date?
    /// A Unicode date pattern (such as `yyyy-MM-dd HH:mm`) for the date printed under the signature; nil for
    /// the locale's medium date style.
    public var dateFormat: String?
    /// What signing means, recorded with the signature: ``consentToParticipate``,
    /// ``investigatorCountersignature`` or the study's own wording.
    public var meaning: String
    /// Given later, in the study team's console, by an investigator who countersigns the participant's consent
    /// (``ConsentRecordKind/countersignature``): the participant's flow neither asks for it nor waits for it. A typed
    /// name, never a drawing (`requiresSignatureImage` must be false), and nothing pre-filled. Defaults to false.
    public var signedInConsole: Bool

    /// The meaning of a participant's signature.
    public static let consentToParticipate = "consent to participate"
    /// The meaning of an investigator's signature confirming the consent was obtained.
    public static let investigatorCountersignature = "investigator countersignature"

    /// Creates a signature; see the properties for each setting.
    public init(identifier: String, title: String? = nil, requiresName: Bool = true, requiresSignatureImage: Bool = true,
                givenName: String? = nil, familyName: String? = nil, signature: Signature? = nil, signedDate: Date? = nil,
                dateFormat: String? = nil, meaning: String, signedInConsole: Bool = false) {
        self.identifier = identifier
        self.title = title
        self.requiresName = requiresName
        self.requiresSignatureImage = requiresSignatureImage
        self.givenName = givenName
        self.familyName = familyName
        self.signature = signature
        self.signedDate = signedDate
        self.dateFormat = dateFormat
        self.meaning = meaning
        self.signedInConsole = signedInConsole
    }

    /// Whether the signature carries a name, a drawing or a date: it was signed or pre-filled.
    public var isFilledIn: Bool {
        givenName != nil || familyName != nil || signature != nil || signedDate != nil
    }
}

extension ConsentSignature: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, title, requiresName, requiresSignatureImage, givenName, familyName, signature, signedDate
        case dateFormat, meaning, signedInConsole
    }

    /// Reads a signature; `identifier` and `meaning` are required, `requiresName` and `requiresSignatureImage`
    /// default to true, and `signedDate` is ISO 8601 with an offset.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try c.decode(String.self, forKey: .identifier)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        requiresName = try c.decodeIfPresent(Bool.self, forKey: .requiresName) ?? true
        requiresSignatureImage = try c.decodeIfPresent(Bool.self, forKey: .requiresSignatureImage) ?? true
        givenName = try c.decodeIfPresent(String.self, forKey: .givenName)
        familyName = try c.decodeIfPresent(String.self, forKey: .familyName)
        signature = try c.decodeIfPresent(Signature.self, forKey: .signature)
        signedDate = try c.decodeIfPresent(Date.self, forKey: .signedDate)
        dateFormat = try c.decodeIfPresent(String.self, forKey: .dateFormat)
        meaning = try c.decode(String.self, forKey: .meaning)
        signedInConsole = try c.decodeIfPresent(Bool.self, forKey: .signedInConsole) ?? false
    }

    /// Writes the signature; `requiresName` and `requiresSignatureImage` only when false, pre-filled parts only when set.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .identifier)
        try c.encodeIfPresent(title, forKey: .title)
        if !requiresName { try c.encode(false, forKey: .requiresName) }
        if !requiresSignatureImage { try c.encode(false, forKey: .requiresSignatureImage) }
        try c.encodeIfPresent(givenName, forKey: .givenName)
        try c.encodeIfPresent(familyName, forKey: .familyName)
        try c.encodeIfPresent(signature, forKey: .signature)
        try c.encodeIfPresent(signedDate, forKey: .signedDate)
        try c.encodeIfPresent(dateFormat, forKey: .dateFormat)
        try c.encode(meaning, forKey: .meaning)
        if signedInConsole { try c.encode(true, forKey: .signedInConsole) }
    }
}
