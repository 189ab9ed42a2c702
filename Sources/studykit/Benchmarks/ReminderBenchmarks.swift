import CareStore
import Foundation
import Study
import StudySQLite

/// Issue 35's first target: deciding what is due for 10,000 participants with 5 tasks each takes under a second.
///
/// The study is written to a temporary folder: five daily tasks, each open all day from the day of enrolment, each
/// with a reminder (four at a time of day from 08:30 to 09:30, one two hours after its event opens), quiet hours from
/// 21:00 to 08:00 (Recover's onboarding and consent document). Its database is a server's
/// (``SQLiteStudyDatabase/openForServer(dataFolder:environment:durability:auditAnchorInterval:)``: a file with its
/// audit trail, in a temporary data folder), holding 10,000 participants enrolled on Monday 15 June 2026 at 07:00 in
/// Berlin, in Berlin, London and Helsinki by turns (``ReminderBenchParticipants``): onboarded, each with a confirmed
/// address and every reminder on, every tenth with reminders paused. Each has done all five of the first day's
/// tasks, and of the second day's none, one or two (by turns), so not every event is due.
///
/// The measurement is ``ReminderDueList/deliveries(at:)`` from 10:00 in Berlin on the second day (09:00 in London,
/// 11:00 in Helsinki): every read it makes of the file and every decision, as one round of the server's reminder
/// sender makes them, on the database opened afresh after the set-up (as a server just started: nothing decoded or
/// kept). Rounds are 30 s apart, each at its own instant, as the server's are (the care store keeps the schedules of
/// the hour it computed while no task version is written; only whether outcomes exist is read again). The first round
/// (every task version read and decoded) is reported apart, then the median of ``repeats`` more; then the median of as
/// many rounds after the first round's deliveries
/// were claimed and settled as sent (the outbox a server holds from then on): none is due again, and the outbox is
/// read as well.
struct ReminderBenchmarks {
    /// Participants enrolled.
    static let participantCount = 10_000
    /// Rounds measured after the first, and after the first round's deliveries were sent.
    var repeats = 5

    static let zones = ["Europe/Berlin", "Europe/London", "Europe/Helsinki"].compactMap(TimeZone.init(identifier:))
    /// Monday 15 June 2026, 07:00 in Berlin.
    static let enrolledAt = Date(timeIntervalSince1970: 1_781_499_600)
    /// Tuesday 16 June 2026, 10:00 in Berlin.
    static let measuredAt = enrolledAt.addingTimeInterval(27 * 3600)

    /// The study's five tasks and their reminders, as `study.yaml` says them.
    static var studyYAML: String {
        var lines = ["identifier: reminder-bench", "name: Reminder benchmark", "languages: [en]", "consent: {document: consent.json}",
                     "onboarding: onboarding.json", "tasks:"]
        for task in 1...5 {
            lines += ["  - id: task\(task)", "    title: Task \(task)", "    schedule:",
                      "      - daily: {at: \"08:00\", from: 0, for: {weeks: 6}}", "        duration: allDay"]
        }
        lines.append("reminders:")
        for (index, timing) in ["at: \"08:30\"", "at: \"09:00\"", "at: \"09:15\"", "at: \"09:30\"", "after: {hours: 2}"].enumerated() {
            lines += ["  - id: reminder\(index + 1)", "    task: task\(index + 1)", "    \(timing)", "    title: Task \(index + 1) is open",
                      "    text: It takes a minute."]
        }
        lines.append("quietHours: {from: \"21:00\", to: \"08:00\"}")
        return lines.joined(separator: "\n") + "\n"
    }

    func run() async throws -> [BenchmarkRow] {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-reminder-bench-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let study = try Self.writeStudy(in: work.appendingPathComponent("study", isDirectory: true))
        let clock = BenchClock(Self.enrolledAt)
        var database = try SQLiteStudyDatabase.openForServer(dataFolder: work.appendingPathComponent("data", isDirectory: true),
                                                             environment: clock.environment, durability: .processCrash,
                                                             auditAnchorInterval: .milliseconds(100))
        let timer = ContinuousClock()
        let setUpStart = timer.now
        let participants = try await ReminderBenchParticipants(study: study, database: database, clock: clock)
            .enrol(count: Self.participantCount, zones: Self.zones, at: Self.enrolledAt, reminders: Set(study.reminders.map(\.id)),
                   pausedEvery: 10)
        let enrolled = timer.now - setUpStart
        let outcomes = try await recordOutcomes(of: participants, in: database)
        let setUp = timer.now - setUpStart
        // The rounds run on the database opened afresh, as a server just started does: nothing decoded or kept by the
        // set-up's reads.
        database = try SQLiteStudyDatabase.openForServer(dataFolder: work.appendingPathComponent("data", isDirectory: true),
                                                         environment: clock.environment, durability: .processCrash,
                                                         auditAnchorInterval: .milliseconds(100))

        // Rounds 30 s apart, as the server's sender runs them: each at its own instant, so that nothing read for one
        // instant is found again for the next.
        let list = ReminderDueList(study: study, data: database)
        var round = 0
        func nextRound() async throws -> (deliveries: [DueDelivery], time: Duration) {
            let now = Self.measuredAt.addingTimeInterval(Double(30 * round))
            round += 1
            clock.set(now)
            var deliveries: [DueDelivery] = []
            let time = try await timer.measure { deliveries = try await list.deliveries(at: now) }
            return (deliveries, time)
        }
        let first = try await nextRound()
        var times: [Duration] = []
        for _ in 0..<repeats { times.append(try await nextRound().time) }

        // The first round's deliveries claimed and settled as sent, as the sender does; later rounds find none due.
        let store = database.studyStore
        for delivery in first.deliveries {
            guard let claim = try await store.claimReminderDelivery(for: delivery.due, channel: delivery.channel, at: clock.now,
                                                                    holdingFor: 120) else { continue }
            _ = try await store.settleReminderDelivery(claim, as: .sent, detail: "250 OK", nextAttemptAt: nil, at: clock.now)
        }
        var settledTimes: [Duration] = []
        var dueAfterwards = 0
        for _ in 0..<repeats {
            let (deliveries, time) = try await nextRound()
            settledTimes.append(time)
            dueAfterwards = max(dueAfterwards, deliveries.count)
        }

        // What the rounds ask of the care store, alone: the events open at the instant without an outcome, of the tasks
        // of every participant who has not paused reminders (each has all five on), in one read, as the list makes it.
        var query = CareQuery()
        for (index, participant) in participants.enumerated() where index % 10 != 9 {
            for task in 1...5 { query.ids.insert(StudyCareIdentifiers.taskID(participant: participant.id, task: "task\(task)")) }
        }
        var eventTimes: [Duration] = []
        var eventCount = 0
        for _ in 0..<repeats {
            let instant = Self.measuredAt.addingTimeInterval(Double(30 * round))
            round += 1
            eventTimes.append(try await timer.measure { eventCount = try await database.careStore.openEventsWithoutOutcomes(taskQuery: query, at: instant).count })
        }

        let scale = "\(Self.participantCount.formatted(.number.locale(Locale(identifier: "en_US")))) participants × 5 tasks"
        let setUpNote = String(format: "set-up %.0f s, of which enrolment, onboarding, addresses and choices %.0f s; %d task outcomes",
                               setUp.seconds, enrolled.seconds, outcomes)
        return [
            BenchmarkRow(name: "reminders due, \(scale): first round", value: first.time.milliseconds, unit: "ms",
                         note: "\(first.deliveries.count) deliveries due; target < 1000; \(setUpNote)"),
            BenchmarkRow(name: "reminders due, \(scale): median of the next \(repeats) rounds", value: times.median.milliseconds, unit: "ms",
                         note: "30 s apart; target < 1000"),
            BenchmarkRow(name: "reminders due, same, once the first round's were sent: median of \(repeats) rounds",
                         value: settledTimes.median.milliseconds, unit: "ms",
                         note: "\(dueAfterwards) due; \(first.deliveries.count) deliveries in the outbox"),
            BenchmarkRow(name: "  of which the care store's events read: median of \(repeats)", value: eventTimes.median.milliseconds, unit: "ms",
                         note: "\(query.ids.count) tasks, \(eventCount) events open without an outcome; CareStore.openEventsWithoutOutcomes(taskQuery:at:) alone"),
        ]
    }

    /// Every task of the first day done, and of the second day none, one or two by turns (the first of the five).
    /// Returns how many outcomes were added.
    private func recordOutcomes(of participants: [StudyParticipant], in database: SQLiteStudyDatabase) async throws -> Int {
        let index = Dictionary(uniqueKeysWithValues: participants.enumerated().map { ($0.element.id, $0.offset) })
        var query = CareQuery()
        for participant in participants {
            for task in 1...5 { query.ids.insert(StudyCareIdentifiers.taskID(participant: participant.id, task: "task\(task)")) }
        }
        let zones = Dictionary(uniqueKeysWithValues: participants.map { ($0.id, $0.timeZone) })
        var outcomes: [Outcome] = []
        // (Read a minute before the measured instant: the same events, and nothing of the measured reads kept.)
        for (instant, doneOf) in [(Self.enrolledAt.addingTimeInterval(3600), { (_: Int) in 5 }), (Self.measuredAt.addingTimeInterval(-60), { $0 % 3 })] {
            for event in try await database.careStore.events(taskQuery: query, window: DateInterval(start: instant, duration: 1)) {
                guard let participant = StudyCareIdentifiers.participantID(ofCareID: event.task.id), let number = index[participant],
                      let task = event.task.version.groupIdentifier, let taskNumber = Int(task.dropFirst(4)), taskNumber <= doneOf(number)
                else { continue }
                outcomes.append(Outcome(taskUUID: event.task.version.uuid, occurrenceIndex: event.scheduleEvent.occurrence,
                                        values: [StudyTaskDefinition.completedValue], timeZone: zones[participant] ?? .gmt))
            }
        }
        for start in stride(from: 0, to: outcomes.count, by: 10_000) {
            _ = try await database.careStore.addOutcomes(Array(outcomes[start..<min(start + 10_000, outcomes.count)]))
        }
        return outcomes.count
    }

    /// The benchmark's study in `folder`, with Recover's onboarding and consent document (run from the checkout).
    static func writeStudy(in folder: URL) throws -> StudyDefinition {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let recover = URL(fileURLWithPath: StudyPaths.defaultStudy, isDirectory: true)
        try FileManager.default.copyItem(at: recover.appendingPathComponent("onboarding.json"), to: folder.appendingPathComponent("onboarding.json"))
        try FileManager.default.copyItem(at: recover.appendingPathComponent("../../consent/recover-consent.json").standardizedFileURL,
                                         to: folder.appendingPathComponent("consent.json"))
        try studyYAML.write(to: folder.appendingPathComponent("study.yaml"), atomically: true, encoding: .utf8)
        return try StudyLoader.load(folder: folder)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    var milliseconds: Double { seconds * 1000 }
}

extension Array where Element == Duration {
    /// The middle value (the upper of the two middle ones for an even count).
    var median: Duration { sorted()[count / 2] }
}
