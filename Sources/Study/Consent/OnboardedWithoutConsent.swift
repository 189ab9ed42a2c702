import CareStore
import Consent
import Foundation
import Research

/// A participant who completed the onboarding but has no valid consent record: one was removed from the database,
/// failed verification, or was never stored. The one definition of it, which the export's problems
/// (``StudyExportReader/data(of:)``) and the server's check of every consent record at start both use.
///
/// The onboarding counts as completed when its gate's outcome exists (``OnboardingGate``) or when an onboarding run
/// was completed: either one alone means a consent was signed, so a record must be there.
///
/// ```swift
/// let (verified, _) = StudyExportReader.verified(records, key: key)
/// if let problem = try await OnboardedWithoutConsent.problem(of: participant, verified: verified, store: store, careStore: careStore) {
///     print("participant \(participant.id): \(problem)")
/// }
/// ```
public enum OnboardedWithoutConsent {
    /// When the participant completed the onboarding, from the onboarding gate's outcome (`onboardingOutcome`) or else
    /// the first completed onboarding run among `runs` (runs of other tasks are passed over): nil when neither says
    /// they did; `.some(nil)` when one does without a time.
    public static func completion(onboardingOutcome: Outcome?, runs: [TaskRun]) -> Date?? {
        let run = runs.first { $0.taskID == StudyTaskDefinition.onboardingID && $0.state == .completed }
        guard onboardingOutcome != nil || run != nil else { return nil }
        return .some(onboardingOutcome?.createdDate ?? run?.updatedAt)
    }

    /// The problem, in a sentence, when the participant completed the onboarding (``completion(onboardingOutcome:runs:)``)
    /// and no consent (not a withdrawal) is among `verified`, their records that verify; nil otherwise. The time of
    /// completion is written in `timeZone`.
    public static func problem(verified: [StoredConsentRecord], onboardingOutcome: Outcome?, runs: [TaskRun], timeZone: TimeZone) -> String? {
        guard !verified.contains(where: { $0.sealed.record.kind == .consent }),
              let completed = completion(onboardingOutcome: onboardingOutcome, runs: runs) else { return nil }
        let when = completed.map { " (\(ISO8601.string(from: $0, in: timeZone)))" } ?? ""
        return "completed the onboarding\(when) but has no valid consent record: one was removed from the database, "
            + "failed verification, or was never stored"
    }

    /// ``problem(verified:onboardingOutcome:runs:timeZone:)`` for `participant`, reading the onboarding gate's outcome
    /// from `careStore` and their onboarding runs from `store` only when `verified` holds no consent.
    public static func problem(of participant: StudyParticipant, verified: [StoredConsentRecord], store: any StudyStore,
                               careStore: any CareStore) async throws -> String? {
        guard !verified.contains(where: { $0.sealed.record.kind == .consent }) else { return nil }
        let outcome = try await OnboardingGate.completion(participantID: participant.id, in: careStore)
        let runs = try await store.runs(participantID: participant.id, taskID: StudyTaskDefinition.onboardingID)
        return problem(verified: verified, onboardingOutcome: outcome, runs: runs, timeZone: participant.timeZone)
    }
}
