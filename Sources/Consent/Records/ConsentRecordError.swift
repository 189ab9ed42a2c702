/// Why a consent record could not be sealed or read.
public enum ConsentRecordError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The record's JSON is not a sealed consent record; says where.
    case malformedJSON(String)
    /// A withdrawal was asked for a record that is not a consent record.
    case notAConsentRecord(recordID: String, kind: ConsentRecordKind)
    /// A withdrawal was asked for a record whose own seal does not verify.
    case invalidOriginal(recordID: String, mismatches: [String])

    /// What went wrong, in English.
    public var description: String {
        switch self {
        case .malformedJSON(let reason): "not a sealed consent record: \(reason)"
        case .notAConsentRecord(let id, let kind): "record \(id) is a \(kind.rawValue) record; only a consent can be withdrawn"
        case .invalidOriginal(let id, let mismatches):
            "record \(id) does not verify, so a withdrawal cannot point to it: \(mismatches.joined(separator: "; "))"
        }
    }
}
