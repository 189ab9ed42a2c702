import Consent
import Foundation

/// A sealed consent record as the store keeps it: the record is append-only and never changes; beside it, the state
/// of its PDF, which is printed in the background.
public struct StoredConsentRecord: Hashable, Sendable, Identifiable {
    /// The record, exactly as sealed.
    public var sealed: SealedConsentRecord
    /// The canonical JSON bytes stored (``Consent/SealedConsentRecord/jsonData()``), byte for byte.
    public var sealedJSON: Data
    /// When the store appended the record.
    public var storedAt: Date
    /// Whether the PDF is printed.
    public var pdf: ConsentPDFState

    /// Creates a stored record.
    public init(sealed: SealedConsentRecord, sealedJSON: Data, storedAt: Date, pdf: ConsentPDFState) {
        self.sealed = sealed
        self.sealedJSON = sealedJSON
        self.storedAt = storedAt
        self.pdf = pdf
    }

    /// The record's id.
    public var id: UUID { sealed.record.id }
    /// The participant who signed (or withdrew).
    public var participantID: String { sealed.record.participantIdentifier }

    /// The record among `records` that this one withdraws or countersigns, sealed; nil for a consent record or when it
    /// is not among them: what ``ConsentRecordVerifier/mismatches(in:original:)`` checks the link against.
    public func linkedOriginal(among records: [StoredConsentRecord]) -> SealedConsentRecord? {
        sealed.record.linkedRecordID.flatMap { id in records.first { $0.id == id }?.sealed }
    }
}

/// Where a consent record's PDF stands.
public enum ConsentPDFState: Hashable, Sendable {
    /// Not printed yet.
    case pending
    /// Printed: the bytes, kept in the store.
    case stored(Data)
    /// Printed: a file under the data folder, by its path relative to that folder (no `..`, not absolute).
    case file(relativePath: String)
    /// Printing failed, with the reason; it may be printed again.
    case failed(reason: String)

    /// `pending`, `ready` or `failed`: the state's name as the store keeps it.
    public var name: String {
        switch self {
        case .pending: "pending"
        case .stored, .file: "ready"
        case .failed: "failed"
        }
    }

    /// Whether `path` is a safe path under the data folder: relative, without `..` or empty parts.
    public static func isSafeRelativePath(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.contains("\\")
            && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != ".." && $0 != "." }
    }
}

extension Array where Element == StoredConsentRecord {
    /// The participant's latest consent as the most complete signed document: its countersignature when the study
    /// team gave one, else the consent record itself; nil before any consent. Records are in the store's order.
    public var latestSignedConsent: StoredConsentRecord? {
        guard let consent = last(where: { $0.sealed.record.kind == .consent }) else { return nil }
        return last { $0.sealed.record.kind == .countersignature && $0.sealed.record.linkedRecordID == consent.id } ?? consent
    }
}
