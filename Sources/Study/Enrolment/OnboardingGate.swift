import CareStore
import Foundation
import StudyKitEnvironment

/// The onboarding gate of the 2021 code-along (`checkIfOnboardingIsComplete`): until a participant's onboarding task
/// has an outcome, their feed shows only the onboarding card.
///
/// ```swift
/// let gate = OnboardingGate(careStore: careStore, environment: .live)
/// if try await !gate.isOnboarded(participantID: participant.id) { /* show only the onboarding card */ }
/// // … the participant finishes onboarding and the consent is sealed …
/// try await gate.recordCompletion(participantID: participant.id, timeZone: participant.timeZone)
/// ```
public struct OnboardingGate: Sendable {
    /// The store holding the participants' care plans.
    public let careStore: any CareStore
    /// The clock (when onboarding was completed) and the UUID source for the outcome.
    public let environment: StudyKitEnvironment

    /// Creates a gate over `careStore`.
    public init(careStore: any CareStore, environment: StudyKitEnvironment) {
        self.careStore = careStore
        self.environment = environment
    }

    /// Whether the participant's onboarding task has an outcome.
    public func isOnboarded(participantID: String) async throws -> Bool {
        try await completion(participantID: participantID) != nil
    }

    /// The outcome that completed the participant's onboarding; nil while they are not onboarded.
    public func completion(participantID: String) async throws -> Outcome? {
        try await Self.completion(participantID: participantID, in: careStore)
    }

    /// The outcome that completed the participant's onboarding in `careStore`; nil while they are not onboarded. For a
    /// reader that needs no clock (an export, a check of the stored data).
    public static func completion(participantID: String, in careStore: any CareStore) async throws -> Outcome? {
        var query = OutcomeQuery()
        query.taskIDs = [StudyCareIdentifiers.taskID(participant: participantID, task: StudyTaskDefinition.onboardingID)]
        return try await careStore.fetchOutcomes(query: query).first
    }

    /// Records that the participant finished onboarding now: an outcome (`completed: true`) on today's onboarding
    /// event. Returns the existing outcome when they were already onboarded, so a repeated request changes nothing.
    /// Throws ``StudyOutcomeError/noCareTask(participant:task:)`` for a participant without a care plan.
    public func recordCompletion(participantID: String, timeZone: TimeZone) async throws -> Outcome {
        if let existing = try await completion(participantID: participantID) { return existing }
        return try await careStore.addOutcomes([completionOutcome(participantID: participantID, timeZone: timeZone)])[0]
    }

    /// The outcome that opens the gate now, not yet stored: `completed: true` on today's onboarding event, for a
    /// participant action that stores it with the run and the consent record in one transaction.
    public func completionOutcome(participantID: String, timeZone: TimeZone) async throws -> Outcome {
        let now = environment.now()
        let task = try await SurveyOutcomeMapper.careTask(participantID: participantID, taskID: StudyTaskDefinition.onboardingID, in: careStore)
        guard let event = task.schedule.events(overlapping: DateInterval(start: now, duration: 0)).last else {
            throw StudyOutcomeError.noEvent(task: StudyTaskDefinition.onboardingID, at: now)
        }
        var value = StudyTaskDefinition.completedValue
        value.createdDate = now
        return Outcome(taskUUID: task.version.uuid, occurrenceIndex: event.occurrence, values: [value], uuid: environment.makeUUID(),
                       timeZone: timeZone, source: "onboarding")
    }
}
