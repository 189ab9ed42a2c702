import Foundation

/// Checks sealed consent records: the HTML against its hash, the Ed25519 signature against the canonical
/// JSON, the signing key against the one expected, a withdrawal against its original, and a PDF against
/// the record.
///
/// ```swift
/// let verifier = ConsentRecordVerifier(expectedPublicKey: try ConsentPublicKey(base64: serverKey))
/// let problems = verifier.mismatches(in: sealed)
/// print(problems.isEmpty ? "valid" : problems.map(\.description).joined(separator: "\n"))
/// ```
public struct ConsentRecordVerifier: Sendable {
    /// The key records must be sealed by; nil accepts whatever key the record names (still checking the signature).
    public var expectedPublicKey: ConsentPublicKey?

    /// A verifier that, when `expectedPublicKey` is given, also requires records to be sealed by it.
    public init(expectedPublicKey: ConsentPublicKey? = nil) {
        self.expectedPublicKey = expectedPublicKey
    }

    /// What does not match in `sealed`; empty when it is valid. With `original`, a withdrawal is also checked
    /// against the record it withdraws (which is verified too).
    public func mismatches(in sealed: SealedConsentRecord, original: SealedConsentRecord? = nil) -> [ConsentRecordMismatch] {
        var problems = [ConsentRecordMismatch]()
        let record = sealed.record
        let computed = record.computedHTMLSHA256
        if computed != record.htmlSHA256 { problems.append(.htmlHash(recorded: record.htmlSHA256, computed: computed)) }
        problems += sealProblems(sealed)
        switch (record.kind, record.withdrawal) {
        case (.consent, nil), (.withdrawal, .some), (.countersignature, nil): break
        case (.consent, .some), (.countersignature, .some): problems.append(.withdrawalLink("a \(record.kind.rawValue) record carries a withdrawal link"))
        case (.withdrawal, nil): problems.append(.withdrawalLink("the withdrawal record does not say which record it withdraws"))
        }
        switch (record.kind, record.countersignature) {
        case (.countersignature, .some), (.consent, nil), (.withdrawal, nil): break
        case (.countersignature, nil): problems.append(.countersignatureLink("the countersignature record does not say which record it countersigns"))
        case (_, .some): problems.append(.countersignatureLink("a \(record.kind.rawValue) record carries a countersignature link"))
        }
        if let original {
            problems += mismatches(in: original).map { .original($0) }
            problems += linkProblems(withdrawal: record, original: original)
        }
        return problems
    }

    private func sealProblems(_ sealed: SealedConsentRecord) -> [ConsentRecordMismatch] {
        guard sealed.algorithm == SealedConsentRecord.ed25519 else { return [.unsupportedAlgorithm(sealed.algorithm)] }
        guard let key = try? ConsentPublicKey(base64: sealed.publicKey) else { return [.malformedPublicKey(sealed.publicKey)] }
        var problems = [ConsentRecordMismatch]()
        if let expectedPublicKey, expectedPublicKey != key {
            problems.append(.signedByOtherKey(actual: key.fingerprint, expected: expectedPublicKey.fingerprint))
        }
        guard let signature = Data(base64Encoded: sealed.signature), signature.count == 64 else {
            return problems + [.malformedSignature]
        }
        do {
            if !key.isValidSignature(signature, for: try sealed.record.canonicalJSON()) { problems.append(.signature) }
        } catch {
            problems.append(.notCanonical("\(error)"))
        }
        return problems
    }

    private func linkProblems(withdrawal record: ConsentRecord, original: SealedConsentRecord) -> [ConsentRecordMismatch] {
        var problems = [ConsentRecordMismatch]()
        if original.record.kind != .consent { problems.append(.originalIsWithdrawal) }
        if let link = record.countersignature {
            if link.originalRecordID != original.record.id {
                problems.append(.countersignatureRecordID(linked: link.originalRecordID.uuidString, original: original.record.id.uuidString))
            }
            if let hash = try? original.sealSHA256(), hash != link.originalSealSHA256 {
                problems.append(.countersignatureSealHash(linked: link.originalSealSHA256, original: hash))
            }
        }
        if let link = record.withdrawal {
            if link.originalRecordID != original.record.id {
                problems.append(.withdrawalRecordID(linked: link.originalRecordID.uuidString, original: original.record.id.uuidString))
            }
            if let hash = try? original.sealSHA256(), hash != link.originalSealSHA256 {
                problems.append(.withdrawalSealHash(linked: link.originalSealSHA256, original: hash))
            }
        }
        let pairs: [(String, String, String)] = [
            ("participant identifier", record.participantIdentifier, original.record.participantIdentifier),
            ("study identifier", record.studyIdentifier, original.record.studyIdentifier),
            ("document identifier", record.documentIdentifier, original.record.documentIdentifier),
        ]
        for (field, mine, theirs) in pairs where mine != theirs {
            problems.append(.withdrawalSubject(field: field, withdrawal: mine, original: theirs))
        }
        return problems
    }

    package static func squeezed(_ text: String) -> String {
        String(text.unicodeScalars.filter { !$0.properties.isWhitespace }.map(Character.init))
    }
}
