import Crypto
import Foundation

/// A consent given or withdrawn, with everything needed to show later what was agreed to: the exact
/// document as it was shown (HTML) and its SHA-256, who signed, what each signature means, when, and the
/// answers given along the way. Sealed by ``ConsentRecorder`` into a ``SealedConsentRecord``.
///
/// Records are append-only: a withdrawal is a new record of kind ``ConsentRecordKind/withdrawal`` whose
/// ``withdrawal`` points to the consent record.
///
/// JSON keys are the property names; instants are ``ConsentTimestamp`` strings.
public struct ConsentRecord: Hashable, Sendable, Codable {
    /// The record's own identifier.
    public var id: UUID
    /// Consent or withdrawal.
    public var kind: ConsentRecordKind
    /// The study's identifier for the participant.
    public var participantIdentifier: String
    /// The study's identifier, e.g. `recover`.
    public var studyIdentifier: String
    /// The study's name as shown to the participant.
    public var studyName: String
    /// The consent document's identifier.
    public var documentIdentifier: String
    /// The consent document's version, e.g. `1.2`.
    public var documentVersion: String
    /// The language the document was shown in (BCP 47, e.g. `ja`, `zh-Hans`).
    public var language: String
    /// The document exactly as rendered for the participant (for a withdrawal: the withdrawal page, possibly empty).
    public var html: String
    /// Lowercase hex SHA-256 of ``html``'s UTF-8 bytes, as computed when the record was made.
    public var htmlSHA256: String
    /// Every signature given, in signing order; by convention the participant's comes first.
    public var signatures: [ConsentRecordSignature]
    /// The answers given in the flow, by identifier, e.g. `["sharing": "shareWidely"]`.
    public var answers: [String: String]
    /// When the record was made, kept to whole milliseconds.
    public var createdAt: Date
    /// For a withdrawal: the record withdrawn, when and why; nil for a consent.
    public var withdrawal: ConsentWithdrawal?
    /// For a countersignature, the consent record it countersigns; nil otherwise.
    public var countersignature: ConsentCountersignature?

    /// Creates a record and computes ``htmlSHA256`` from `html`; `createdAt` is rounded to the millisecond.
    public init(id: UUID, kind: ConsentRecordKind, participantIdentifier: String, studyIdentifier: String, studyName: String,
                documentIdentifier: String, documentVersion: String, language: String, html: String,
                signatures: [ConsentRecordSignature], answers: [String: String], createdAt: Date,
                withdrawal: ConsentWithdrawal? = nil, countersignature: ConsentCountersignature? = nil) {
        self.id = id
        self.kind = kind
        self.participantIdentifier = participantIdentifier
        self.studyIdentifier = studyIdentifier
        self.studyName = studyName
        self.documentIdentifier = documentIdentifier
        self.documentVersion = documentVersion
        self.language = language
        self.html = html
        self.htmlSHA256 = Self.sha256Hex(of: Data(html.utf8))
        self.signatures = signatures
        self.answers = answers
        self.createdAt = ConsentTimestamp.milliseconds(createdAt)
        self.withdrawal = withdrawal
        self.countersignature = countersignature
    }

    /// The SHA-256 of ``html`` as it is now, which ``htmlSHA256`` must equal.
    /// The consent record this one withdraws or countersigns; nil for a consent record.
    public var linkedRecordID: UUID? { withdrawal?.originalRecordID ?? countersignature?.originalRecordID }

    public var computedHTMLSHA256: String { Self.sha256Hex(of: Data(html.utf8)) }

    /// The bytes the seal signs: the record's ``CanonicalJSON``.
    public func canonicalJSON() throws -> Data { try CanonicalJSON.bytes(of: self) }

    /// Lowercase hex SHA-256 of `data`.
    public static func sha256Hex(of data: Data) -> String {
        SHA256.hash(data: data).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    private enum CodingKeys: String, CodingKey {
        case id, kind, participantIdentifier, studyIdentifier, studyName, documentIdentifier, documentVersion, language, html,
             htmlSHA256, signatures, answers, createdAt, withdrawal, countersignature
    }

    /// Reads a record as written; ``htmlSHA256`` is taken as recorded, not recomputed, so that a changed
    /// document shows up in verification.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        kind = try container.decode(ConsentRecordKind.self, forKey: .kind)
        participantIdentifier = try container.decode(String.self, forKey: .participantIdentifier)
        studyIdentifier = try container.decode(String.self, forKey: .studyIdentifier)
        studyName = try container.decode(String.self, forKey: .studyName)
        documentIdentifier = try container.decode(String.self, forKey: .documentIdentifier)
        documentVersion = try container.decode(String.self, forKey: .documentVersion)
        language = try container.decode(String.self, forKey: .language)
        html = try container.decode(String.self, forKey: .html)
        htmlSHA256 = try container.decode(String.self, forKey: .htmlSHA256)
        signatures = try container.decode([ConsentRecordSignature].self, forKey: .signatures)
        answers = try container.decode([String: String].self, forKey: .answers)
        createdAt = try ConsentTimestamp.decode(from: container, forKey: .createdAt)
        withdrawal = try container.decodeIfPresent(ConsentWithdrawal.self, forKey: .withdrawal)
        countersignature = try container.decodeIfPresent(ConsentCountersignature.self, forKey: .countersignature)
    }

    /// Writes the record with its instants as ``ConsentTimestamp`` strings.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(participantIdentifier, forKey: .participantIdentifier)
        try container.encode(studyIdentifier, forKey: .studyIdentifier)
        try container.encode(studyName, forKey: .studyName)
        try container.encode(documentIdentifier, forKey: .documentIdentifier)
        try container.encode(documentVersion, forKey: .documentVersion)
        try container.encode(language, forKey: .language)
        try container.encode(html, forKey: .html)
        try container.encode(htmlSHA256, forKey: .htmlSHA256)
        try container.encode(signatures, forKey: .signatures)
        try container.encode(answers, forKey: .answers)
        try container.encode(ConsentTimestamp.string(from: createdAt), forKey: .createdAt)
        try container.encodeIfPresent(withdrawal, forKey: .withdrawal)
        try container.encodeIfPresent(countersignature, forKey: .countersignature)
    }
}
