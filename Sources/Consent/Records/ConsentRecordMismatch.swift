/// One thing about a sealed consent record (or its PDF) that does not match. ``ConsentRecordVerifier``
/// returns a list of these; an empty list means the record is valid.
public indirect enum ConsentRecordMismatch: Hashable, Sendable, CustomStringConvertible {
    /// The HTML's SHA-256 is not the one recorded: the document was changed.
    case htmlHash(recorded: String, computed: String)
    /// The seal names an algorithm other than Ed25519.
    case unsupportedAlgorithm(String)
    /// The seal's public key is not base64 of 32 bytes.
    case malformedPublicKey(String)
    /// The seal's signature is not base64 of 64 bytes.
    case malformedSignature
    /// The record cannot be written as canonical JSON (a NaN or infinite number).
    case notCanonical(String)
    /// The signature does not match the record's canonical JSON: something in the record changed after sealing.
    case signature
    /// The record was sealed by a key other than the expected one (fingerprints).
    case signedByOtherKey(actual: String, expected: String)
    /// A withdrawal record without its link to the original, or a consent record carrying one.
    case withdrawalLink(String)
    /// The withdrawal points to another record than the original given.
    case withdrawalRecordID(linked: String, original: String)
    /// The withdrawal's hash of the original's seal is not the original's.
    case withdrawalSealHash(linked: String, original: String)
    /// The withdrawal and the original disagree on who or what (participant, study, document).
    case withdrawalSubject(field: String, withdrawal: String, original: String)
    /// The record given as the original is not a consent record (a withdrawal or a countersignature).
    case originalIsWithdrawal
    /// A countersignature without its link, or a link on a record of another kind.
    case countersignatureLink(String)
    /// The countersignature points to another record than the original given.
    case countersignatureRecordID(linked: String, original: String)
    /// The countersignature's hash of the original's seal is not the original's.
    case countersignatureSealHash(linked: String, original: String)
    /// Something wrong with the original record itself.
    case original(ConsentRecordMismatch)
    /// The PDF's text does not show something the record holds (what, and the value looked for).
    case pdfText(missing: String, value: String)
    /// A page of the PDF does not show what the same page of the record's document shows (or the page counts differ).
    case pdfPage(page: Int, reason: String)

    /// A short stable name for the kind of mismatch, e.g. `html-hash`, for tools and logs.
    public var name: String {
        switch self {
        case .htmlHash: "html-hash"
        case .unsupportedAlgorithm: "algorithm"
        case .malformedPublicKey: "public-key"
        case .malformedSignature: "signature-encoding"
        case .notCanonical: "canonical-json"
        case .signature: "signature"
        case .signedByOtherKey: "signing-key"
        case .withdrawalLink: "withdrawal-link"
        case .withdrawalRecordID: "withdrawal-record-id"
        case .withdrawalSealHash: "withdrawal-seal-hash"
        case .withdrawalSubject: "withdrawal-subject"
        case .originalIsWithdrawal: "original-kind"
        case .countersignatureLink: "countersignature-link"
        case .countersignatureRecordID: "countersignature-record-id"
        case .countersignatureSealHash: "countersignature-seal-hash"
        case .original(let inner): "original." + inner.name
        case .pdfText: "pdf-text"
        case .pdfPage: "pdf-page"
        }
    }

    /// What does not match, in English.
    public var description: String {
        switch self {
        case .htmlHash(let recorded, let computed): "the HTML's SHA-256 is \(computed), the record says \(recorded)"
        case .unsupportedAlgorithm(let name): "the seal uses \(name), only Ed25519 is known"
        case .malformedPublicKey(let text): "the seal's public key '\(text)' is not base64 of 32 bytes"
        case .malformedSignature: "the seal's signature is not base64 of 64 bytes"
        case .notCanonical(let reason): "the record cannot be written as canonical JSON: \(reason)"
        case .signature: "the Ed25519 signature does not match the record: it was changed after sealing"
        case .signedByOtherKey(let actual, let expected): "signed by key \(actual), expected \(expected)"
        case .withdrawalLink(let reason): reason
        case .withdrawalRecordID(let linked, let original): "the withdrawal points to record \(linked), not to \(original)"
        case .withdrawalSealHash(let linked, let original):
            "the withdrawal binds seal hash \(linked), the original's seal hashes to \(original)"
        case .withdrawalSubject(let field, let withdrawal, let original): "the withdrawal's \(field) is '\(withdrawal)', the original's '\(original)'"
        case .originalIsWithdrawal: "the original given is not a consent record"
        case .countersignatureLink(let reason): reason
        case .countersignatureRecordID(let linked, let original): "the countersignature points to record \(linked), not to \(original)"
        case .countersignatureSealHash(let linked, let original):
            "the countersignature binds seal hash \(linked), the original's seal hashes to \(original)"
        case .original(let inner): "original record: \(inner.description)"
        case .pdfText(let missing, let value): "the PDF's text does not show the \(missing) '\(value)'"
        case .pdfPage(let page, let reason): "page \(page) of the PDF: \(reason)"
        }
    }
}
