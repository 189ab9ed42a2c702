import CareStore
import Consent
import Foundation
import Research
import Synchronization

/// Leaving the study: the participant from their settings, or an investigator recording it with a reason. It seals a
/// withdrawal record bound to the participant's consent (the consent record never changes) and from then on the
/// workflow refuses new data from the participant (``StudyRefusal/withdrawn``): no task starts, no answer or card is
/// recorded. What was collected before stays or is deleted as the study's ``StudyWithdrawalPolicy`` says (or, where
/// the study lets them choose, as the participant chose); the participant keeps their sign-in, their consent PDF and
/// the download of what the study still holds about them.
///
/// ```swift
/// try await workflow.withdrawal.withdraw(participant, reason: "moving abroad")                 // as the study decides
/// try await workflow.withdrawal.withdraw(participant, reason: nil, data: .delete)              // the participant's choice
/// try await workflow.withdrawal.isWithdrawn(participant)   // true
/// ```
///
/// The reason's rules are ``reasonProblem(_:recordedBy:)``'s: the one check every caller goes through, since
/// ``withdraw(_:reason:data:recordedBy:)`` applies it before anything else.
public struct StudyWithdrawal: Sendable {
    let workflow: ParticipantWorkflow

    /// Who records a withdrawal: the participant leaving from their settings, or an investigator recording what the
    /// participant told the team.
    public enum Recorder: Hashable, Sendable {
        /// The participant themselves; the reason is optional.
        case participant
        /// A member of the study team; the reason (what the participant gave, or how they told the team) is required.
        case investigator
    }

    /// The longest reason, in characters (after leading and trailing white space is trimmed).
    public static let maximumReasonLength = 1000

    /// What is wrong with `reason` as the reason of a withdrawal that `recorder` records; nil when it may be stored.
    /// The reason is trimmed first; it may span lines, is at most ``maximumReasonLength`` characters, and holds no
    /// character that would not show as typed (``FreeTextRules/forbiddenScalar(in:allowingLineBreaks:)``). Only an
    /// investigator must give one. When several things are wrong, the character is named first, then the length.
    public static func reasonProblem(_ reason: String?, recordedBy recorder: Recorder) -> StudyWithdrawalError.ReasonProblem? {
        let reason = (reason ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if let scalar = FreeTextRules.forbiddenScalar(in: reason, allowingLineBreaks: true) { return .forbiddenCharacter(scalar) }
        if reason.count > maximumReasonLength { return .tooLong(maximum: maximumReasonLength) }
        if reason.isEmpty, recorder == .investigator { return .missing }
        return nil
    }

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

    /// Withdraws the participant's latest consent, now, with `reason` (nil or empty for none given, where `recorder`
    /// may give none), and keeps or deletes what they gave: as the study decides, or as `data` says where the study
    /// lets the participant choose.
    ///
    /// Deleting removes, in the same transaction as the sealed withdrawal, every run of theirs but the onboarding's
    /// (which holds their consent) and every outcome of their care tasks but the onboarding gate's, with its values
    /// (the store removes the rows, and keeps in its audit trail only digests of what they held); then the files of the
    /// deleted runs. Two withdrawals at once record one: the other is refused as ``StudyRefusal/withdrawn``. Throws ``StudyRefusal/withdrawn`` when it is withdrawn already,
    /// ``StudyRefusal/onboardingRequired`` when there is no consent to withdraw, and ``StudyWithdrawalError``: first
    /// ``StudyWithdrawalError/reason(_:)`` when the reason breaks ``reasonProblem(_:recordedBy:)``'s rules, then when
    /// `data` is missing where the participant chooses or differs from what the study decides.
    @discardableResult
    public func withdraw(_ participant: StudyParticipant, reason: String?, data: WithdrawnData? = nil,
                         recordedBy recorder: Recorder = .participant) async throws -> StoredConsentRecord {
        if let problem = Self.reasonProblem(reason, recordedBy: recorder) { throw StudyWithdrawalError.reason(problem) }
        let policy = workflow.study.withdrawal
        let disposition: WithdrawnData
        switch (policy.decided, data) {
        case (let decided?, nil): disposition = decided
        case (let decided?, let asked?):
            guard decided == asked else { throw StudyWithdrawalError.notOffered(asked, policy: policy) }
            disposition = decided
        case (nil, let asked?): disposition = asked
        case (nil, nil): throw StudyWithdrawalError.choiceRequired
        }
        let records = try await workflow.data.studyStore.consentRecords(participantID: participant.id)
        guard let consent = records.last(where: { $0.sealed.record.kind == .consent }) else { throw StudyRefusal.onboardingRequired }
        if Self.withdrawal(of: records) != nil { throw StudyRefusal.withdrawn }
        let reason = reason?.trimmingCharacters(in: .whitespacesAndNewlines)
        var change = ParticipantChange(participantID: participant.id)
        change.consentRecords = [try ConsentRecorder(signingKey: workflow.consentKey, environment: workflow.environment)
            .sealWithdrawal(of: consent.sealed, reason: reason?.isEmpty == false ? reason : nil)]
        // What goes is found in the transaction that records the withdrawal (a run started a moment before is deleted
        // with the rest), and that transaction refuses a second withdrawal; from its commit on, the store refuses every
        // new run and outcome of theirs.
        let careTasks = workflow.study.tasks.map(\.id).filter { $0 != StudyTaskDefinition.onboardingID }
            .map { StudyCareIdentifiers.taskID(participant: participant.id, task: $0) }
        change.withdrawal = ParticipantChange.Withdrawal(deletesData: disposition == .delete, keptRunTaskIDs: [StudyTaskDefinition.onboardingID],
                                                         deletedOutcomeTaskIDs: disposition == .delete ? Set(careTasks) : [])
        // The audit trail's rows of a deletion say why the data went, beside who asked.
        var source = AuditTrail.source
        if disposition == .delete {
            let why = "withdrawal: the participant's data deleted (" + (policy == .delete ? "the study's rule" : "the participant's choice") + ")"
            source.reason = [source.reason, why].compactMap { $0 }.joined(separator: "; ")
        }
        let committed = try await AuditTrail.$source.withValue(source) { try await workflow.data.commit(change) }
        workflow.withdrawals.withLock { $0[participant.id] = nil }
        guard let stored = committed.consentRecords.first else { throw StudyWithdrawalError.notStored }
        return stored
    }
}

/// Why a withdrawal was not recorded: a caller's mistake, not the participant's (the pages offer only what the
/// study's ``StudyWithdrawalPolicy`` allows).
public enum StudyWithdrawalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with a withdrawal's reason (``StudyWithdrawal/reasonProblem(_:recordedBy:)``).
    public enum ReasonProblem: Hashable, Sendable, CustomStringConvertible {
        /// An investigator recorded the withdrawal without a reason.
        case missing
        /// The reason is longer than `maximum` characters.
        case tooLong(maximum: Int)
        /// The reason holds a character that would not show as typed (a control or direction-changing character).
        case forbiddenCharacter(Unicode.Scalar)

        /// The problem in English, for logs and tests.
        public var description: String {
            switch self {
            case .missing: "no reason was given"
            case .tooLong(let maximum): "the reason is longer than \(maximum) characters"
            case .forbiddenCharacter(let scalar): "the reason holds \(FreeTextRules.describe(scalar)), which would not show as typed"
            }
        }
    }

    /// The reason breaks the rules of ``StudyWithdrawal/reasonProblem(_:recordedBy:)``.
    case reason(ReasonProblem)
    /// The study lets the participant choose what happens to their data, and no choice was given.
    case choiceRequired
    /// The study decides what happens to the data, and another choice was asked for.
    case notOffered(WithdrawnData, policy: StudyWithdrawalPolicy)
    /// The store committed the change without the withdrawal record.
    case notStored

    public var description: String {
        switch self {
        case .reason(let problem): "the withdrawal's reason cannot be stored: \(problem)"
        case .choiceRequired: "the study lets the participant choose whether their data is kept or deleted, and no choice was given"
        case .notOffered(let asked, let policy): "the study's withdrawal rule is '\(policy.rawValue)', so '\(asked.rawValue)' cannot be chosen"
        case .notStored: "the withdrawal record was not stored"
        }
    }
}

extension ParticipantWorkflow {
    /// Leaving the study.
    public var withdrawal: StudyWithdrawal { StudyWithdrawal(workflow: self) }
}
