import Consent
import Foundation
import Synchronization

/// Leaving the study: the participant from their settings, or an investigator recording it with a reason. It seals a
/// withdrawal record bound to the participant's consent (the consent record never changes) and from then on the
/// workflow refuses new data from the participant (``StudyRefusal/withdrawn``): no task starts, no answer or card is
/// recorded. What was collected before stays, as Recover's consent says; the participant keeps their sign-in, their
/// consent PDF and the download of their own data.
///
/// ```swift
/// try await workflow.withdrawal.withdraw(participant, reason: "moving abroad")
/// try await workflow.withdrawal.isWithdrawn(participant)   // true
/// ```
public struct StudyWithdrawal: Sendable {
    let workflow: ParticipantWorkflow

    /// Whether the participant's latest consent is withdrawn. Kept per participant: while the study store's
    /// `revision(of:)` of them stays the same nothing is read (a page view); when it moved (a post), one count of their
    /// consent records says whether any was appended (records are only appended); only then are they read.
    public func isWithdrawn(_ participant: StudyParticipant) async throws -> Bool {
        let store = workflow.data.studyStore
        let revision = store.revision(of: participant.id)
        let kept = workflow.withdrawals.withLock { $0[participant.id] }
        if let kept, kept.revision == revision { return kept.withdrawn }
        let count = try await store.consentRecordCount(participantID: participant.id)
        if let kept, kept.records == count {
            workflow.withdrawals.withLock { $0[participant.id] = (revision, count, kept.withdrawn) }
            return kept.withdrawn
        }
        let records = try await store.consentRecords(participantID: participant.id)
        let withdrawn = Self.withdrawal(of: records) != nil
        workflow.withdrawals.withLock { $0[participant.id] = (revision, records.count, withdrawn) }
        return withdrawn
    }

    /// The withdrawal of the participant's latest consent among `records`; nil while it stands.
    public static func withdrawal(of records: [StoredConsentRecord]) -> StoredConsentRecord? {
        guard let consent = records.last(where: { $0.sealed.record.kind == .consent }) else { return nil }
        return records.last { $0.sealed.record.kind == .withdrawal && $0.sealed.record.linkedRecordID == consent.id }
    }

    /// Withdraws the participant's latest consent, now, with `reason` (nil or empty for none given). Throws
    /// ``StudyRefusal/withdrawn`` when it is withdrawn already and ``StudyRefusal/onboardingRequired`` when there is no
    /// consent to withdraw.
    @discardableResult
    public func withdraw(_ participant: StudyParticipant, reason: String?) async throws -> StoredConsentRecord {
        let records = try await workflow.data.studyStore.consentRecords(participantID: participant.id)
        guard let consent = records.last(where: { $0.sealed.record.kind == .consent }) else { throw StudyRefusal.onboardingRequired }
        if Self.withdrawal(of: records) != nil { throw StudyRefusal.withdrawn }
        let reason = reason?.trimmingCharacters(in: .whitespacesAndNewlines)
        let sealed = try ConsentRecorder(signingKey: workflow.consentKey, environment: workflow.environment)
            .sealWithdrawal(of: consent.sealed, reason: reason?.isEmpty == false ? reason : nil)
        let stored = try await workflow.data.studyStore.appendConsentRecord(sealed)
        workflow.withdrawals.withLock { $0[participant.id] = nil }
        return stored
    }
}

extension ParticipantWorkflow {
    /// Leaving the study.
    public var withdrawal: StudyWithdrawal { StudyWithdrawal(workflow: self) }
}
