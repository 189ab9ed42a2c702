import CareStore
import Foundation

/// One reminder due now through one of its participant's channels: what the sender claims and sends.
public struct DueDelivery: Hashable, Sendable {
    /// The reminder.
    public var due: DueReminder
    /// The channel to send it through.
    public var channel: ReminderChannel
    /// The participant's language, for the message.
    public var language: String
    /// The participant's zone.
    public var timeZone: TimeZone
}

/// What is due for every participant at an instant, read from the stores in a few bulk reads (not one per
/// participant): the participants who have a confirmed email or push channel, what they chose, whether they are
/// onboarded, their events of the reminded tasks open at that instant with their outcomes (the care store's), and the
/// outbox's recent rows, so that a delivery settled or held by another process is not asked for again. Deciding is
/// ``ReminderPlanner``'s.
///
/// ```swift
/// let list = ReminderDueList(study: study, data: database)
/// for delivery in try await list.deliveries(at: now) { … claim, send, settle … }
/// ```
public struct ReminderDueList: Sendable {
    /// The study.
    public let planner: ReminderPlanner
    /// Both stores.
    public let data: any StudyDataStore

    /// A list for `study`'s reminders over `data`.
    public init(study: StudyDefinition, data: any StudyDataStore) {
        planner = ReminderPlanner(study: study)
        self.data = data
    }

    /// The kinds of channel the server sends through (a calendar feed is read by the participant's calendar).
    public static let sentKinds: Set<ReminderChannel.Kind> = [.email, .push]

    /// The deliveries due at `now` that no process has settled or holds: each reminder due for a participant, through
    /// each of their confirmed email and push channels.
    public func deliveries(at now: Date) async throws -> [DueDelivery] {
        let study = planner.study
        let tclock = ContinuousClock(); var tlast = tclock.now
        func lap(_ name: String) { let n = tclock.now; FileHandle.standardError.write(Data("TIMING \(name): \(n - tlast)\n".utf8)); tlast = n }
        defer { lap("planner") }
        guard !study.reminders.isEmpty else { return [] }
        let store = data.studyStore
        let channels = Dictionary(grouping: try await store.allReminderChannels().filter { $0.isConfirmed && Self.sentKinds.contains($0.kind) },
                                  by: \.participantID)
        guard !channels.isEmpty else { return [] }
        lap("channels")
        let participants = try await store.participants().filter { channels[$0.id] != nil }
        lap("participants")
        let preferences = try await store.allReminderPreferences()
        lap("preferences")
        let onboarded = try await onboardedParticipants(participants.map(\.id))

        lap("onboarded")
        // The events of the reminded tasks open now, of every candidate, in one care-store read.
        var query = CareQuery()
        for participant in participants where onboarded.contains(participant.id) {
            for task in planner.remindedTaskIDs { query.ids.insert(StudyCareIdentifiers.taskID(participant: participant.id, task: task)) }
        }
        guard !query.ids.isEmpty else { return [] }
        let events = try await data.careStore.events(taskQuery: query, window: DateInterval(start: now, duration: 1))
        lap("events")
        let eventsByParticipant = Dictionary(grouping: events) { StudyCareIdentifiers.participantID(ofCareID: $0.task.id) ?? "" }

        // The outbox of the last days: what is settled or held, and when each reminder last went to each participant.
        let longestInterval = study.reminders.compactMap(\.minimumInterval).max() ?? 0
        let recent = try await store.reminderDeliveries(dueSince: now.addingTimeInterval(-Double(max(longestInterval, 3 * 86_400))))
        lap("grouping+outbox")
        var unclaimable: Set<String> = []
        var lastSent: [String: [String: Date]] = [:]
        for delivery in recent {
            if !delivery.isClaimable(at: now) { unclaimable.insert(delivery.key) }
            if delivery.state == .sent, delivery.updatedAt > lastSent[delivery.participantID]?[delivery.reminderID] ?? .distantPast {
                lastSent[delivery.participantID, default: [:]][delivery.reminderID] = delivery.updatedAt
            }
        }

        var deliveries: [DueDelivery] = []
        for participant in participants where onboarded.contains(participant.id) {
            let due = planner.due(at: now, participantID: participant.id, timeZone: participant.timeZone,
                                  preferences: preferences[participant.id] ?? .studyDefaults,
                                  events: eventsByParticipant[participant.id] ?? [], lastSent: lastSent[participant.id] ?? [:])
            for reminder in due {
                for channel in channels[participant.id] ?? [] where !unclaimable.contains(ReminderDelivery.key(of: reminder, channelID: channel.id)) {
                    deliveries.append(DueDelivery(due: reminder, channel: channel, language: participant.language, timeZone: participant.timeZone))
                }
            }
        }
        return deliveries
    }

    /// Which of `participantIDs` have finished the onboarding (its task has an outcome): the others see no tasks yet.
    private func onboardedParticipants(_ participantIDs: [String]) async throws -> Set<String> {
        let taskIDs = Set(participantIDs.map { StudyCareIdentifiers.taskID(participant: $0, task: StudyTaskDefinition.onboardingID) })
        guard !taskIDs.isEmpty else { return [] }
        var taskQuery = CareQuery()
        taskQuery.ids = taskIDs
        // An outcome names its task by version: each onboarding task's versions, to its participant.
        var owners: [UUID: String] = [:]
        for task in try await data.careStore.fetch(CareTask.self, query: taskQuery) {
            owners[task.version.uuid] = StudyCareIdentifiers.participantID(ofCareID: task.id)
        }
        var outcomeQuery = OutcomeQuery()
        outcomeQuery.taskIDs = taskIDs
        return Set(try await data.careStore.fetchOutcomes(query: outcomeQuery).compactMap { owners[$0.taskUUID] })
    }
}
