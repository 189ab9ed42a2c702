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
/// participant): the participants who have a confirmed email or push channel and what they chose; of those who can
/// be reminded now (not paused, not in their quiet hours), their events open at that instant without an outcome, of
/// the tasks whose reminders they have on (the care store's), whether they are onboarded, and the outbox's recent rows,
/// so that a delivery settled or held by another process is not asked for again; the last three read at once.
/// Deciding is ``ReminderPlanner``'s.
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
        guard !study.reminders.isEmpty else { return [] }
        let store = data.studyStore
        // The channels, the participants and their choices, read at once.
        async let participantRows = store.participants()
        async let preferenceRows = store.allReminderPreferences()
        let channels = Dictionary(grouping: try await store.allReminderChannels().filter { $0.isConfirmed && Self.sentKinds.contains($0.kind) },
                                  by: \.participantID)
        let participants = try await participantRows.filter { channels[$0.id] != nil }
        let preferences = try await preferenceRows
        guard !channels.isEmpty else { return [] }

        // Who can be reminded now, from what they chose alone: not paused, not in their quiet hours, with a reminder
        // on; of each, the events of the tasks whose reminders they have on, in one care-store read. The wall clock
        // of each zone is worked out once.
        var clocks: [String: ReminderPlanner.LocalClock] = [:]
        var candidates: [(participant: StudyParticipant, preferences: ReminderPreferences)] = []
        var query = CareQuery()
        for participant in participants {
            let chosen = preferences[participant.id] ?? .studyDefaults
            let zone = participant.timeZone.identifier
            if clocks[zone] == nil { clocks[zone] = ReminderPlanner.LocalClock(now: now, timeZone: participant.timeZone) }
            guard let clock = clocks[zone], planner.mayBeDue(preferences: chosen, clock: clock) else { continue }
            let tasks = planner.remindedTaskIDs(on: chosen)
            guard !tasks.isEmpty else { continue }
            for task in tasks { query.ids.insert(StudyCareIdentifiers.taskID(participant: participant.id, task: task)) }
            candidates.append((participant, chosen))
        }
        guard !query.ids.isEmpty else { return [] }
        // Three reads at once: the outbox of the last days (what is settled or held, and when each reminder last went
        // to each participant), who of the candidates is onboarded (only they see tasks), and the events open now
        // without an outcome (the rounds of one hour ask the care store the same question, whose schedules it keeps,
        // and only look up afresh whether outcomes exist).
        let longestInterval = study.reminders.compactMap(\.minimumInterval).max() ?? 0
        async let recentRead = store.reminderDeliveries(dueSince: now.addingTimeInterval(-Double(max(longestInterval, 3 * 86_400))))
        async let onboardedRead = onboardedParticipants(candidates.map(\.participant.id))
        let events = try await data.careStore.openEventsWithoutOutcomes(taskQuery: query, at: now)
        let eventsByParticipant = Dictionary(grouping: events) { StudyCareIdentifiers.participantID(ofCareID: $0.task.id) ?? "" }
        let recent = try await recentRead
        var unclaimable: Set<String> = []
        var lastSent: [String: [String: Date]] = [:]
        for delivery in recent {
            if !delivery.isClaimable(at: now) { unclaimable.insert(delivery.key) }
            if delivery.state == .sent, delivery.updatedAt > lastSent[delivery.participantID]?[delivery.reminderID] ?? .distantPast {
                lastSent[delivery.participantID, default: [:]][delivery.reminderID] = delivery.updatedAt
            }
        }

        let onboarded = try await onboardedRead
        var deliveries: [DueDelivery] = []
        for (participant, chosen) in candidates where onboarded.contains(participant.id) {
            let zone = participant.timeZone.identifier
            let due = planner.due(participantID: participant.id, preferences: chosen, events: eventsByParticipant[participant.id] ?? [],
                                  lastSent: lastSent[participant.id] ?? [:], clock: &clocks[zone, default: ReminderPlanner.LocalClock(now: now, timeZone: participant.timeZone)])
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
        let done = try await data.careStore.taskIDsWithOutcomes(among: Set(participantIDs.map {
            StudyCareIdentifiers.taskID(participant: $0, task: StudyTaskDefinition.onboardingID)
        }))
        return Set(done.compactMap(StudyCareIdentifiers.participantID(ofCareID:)))
    }
}
