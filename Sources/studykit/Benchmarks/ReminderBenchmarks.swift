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
/// The measurement is ``ReminderDueList/deliveries(at:)`` at 10:00 in Berlin on the second day (09:00 in London,
/// 11:00 in Helsinki): every read it makes of the file and every decision, as one round of the server's reminder
/// sender makes them. The first call is reported apart (a server's round runs once every 30 s, on caches that other
/// work has since filled with other things); then the median of ``repeats`` more. Then the same after that round's
/// deliveries were claimed and settled as sent (the outbox a server holds from the second round on): none is due
/// again, and the outbox is read as well.
struct ReminderBenchmarks {
    /// Participants enrolled.
    static let participantCount = 10_000
    /// Calls measured after the first.
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
        // TEMPORARY-PROFILE
        let keep = ProcessInfo.processInfo.environment["STUDYKIT_TMP_KEEP"]
        let work = keep.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? FileManager.default.temporaryDirectory.appendingPathComponent("studykit-reminder-bench-\(UUID().uuidString)", isDirectory: true)
        let existed = keep != nil && FileManager.default.fileExists(atPath: work.appendingPathComponent("data").path)
        defer { if keep == nil { try? FileManager.default.removeItem(at: work) } }
        if existed { try? FileManager.default.removeItem(at: work.appendingPathComponent("study")) }
        let study = try Self.writeStudy(in: work.appendingPathComponent("study", isDirectory: true))
        let clock = BenchClock(Self.enrolledAt)
        let database = try SQLiteStudyDatabase.openForServer(dataFolder: work.appendingPathComponent("data", isDirectory: true),
                                                             environment: clock.environment, durability: .processCrash,
                                                             auditAnchorInterval: .milliseconds(100))
        let timer = ContinuousClock()
        let setUpStart = timer.now
        var enrolled = Duration.zero, outcomes = 0
        if !existed {
        let participants = try await ReminderBenchParticipants(study: study, database: database, clock: clock)
            .enrol(count: Self.participantCount, zones: Self.zones, at: Self.enrolledAt, reminders: Set(study.reminders.map(\.id)),
                   pausedEvery: 10)
        enrolled = timer.now - setUpStart
        outcomes = try await recordOutcomes(of: participants, in: database)
        }
        let setUp = timer.now - setUpStart
        if ProcessInfo.processInfo.environment["STUDYKIT_TMP_ONLY"] != nil {
            clock.set(Self.measuredAt)
            let list = ReminderDueList(study: study, data: database)
            for k in 0..<(Int(ProcessInfo.processInfo.environment["STUDYKIT_TMP_ROUNDS"] ?? "3") ?? 3) { let at = Self.measuredAt.addingTimeInterval(Double(k * 30)); let t = try await timer.measure { _ = try await list.deliveries(at: at) }; print("round", t) }
            database.anchorAuditTrailNow()
            return []
        }

        clock.set(Self.measuredAt)
        let list = ReminderDueList(study: study, data: database)
        var deliveries: [DueDelivery] = []
        let first = try await timer.measure { deliveries = try await list.deliveries(at: Self.measuredAt) }
        var times: [Duration] = []
        for _ in 0..<repeats {
            times.append(try await timer.measure { deliveries = try await list.deliveries(at: Self.measuredAt) })
        }
        let dueCount = deliveries.count

        // The round's deliveries claimed and settled, as the sender does; the next round 30 s later finds none.
        let store = database.studyStore
        for delivery in deliveries {
            guard let claim = try await store.claimReminderDelivery(for: delivery.due, channel: delivery.channel, at: Self.measuredAt,
                                                                    holdingFor: 120) else { continue }
            _ = try await store.settleReminderDelivery(claim, as: .sent, detail: "250 OK", nextAttemptAt: nil, at: Self.measuredAt)
        }
        let later = Self.measuredAt.addingTimeInterval(30)
        clock.set(later)
        var again: [DueDelivery] = []
        let settledFirst = try await timer.measure { again = try await list.deliveries(at: later) }
        var settledTimes: [Duration] = []
        for _ in 0..<repeats {
            settledTimes.append(try await timer.measure { again = try await list.deliveries(at: later) })
        }

        let scale = "\(Self.participantCount.formatted(.number.locale(Locale(identifier: "en_US")))) participants × 5 tasks"
        let setUpNote = String(format: "set-up %.0f s: enrolment, onboarding, address and choices %.0f s, %d task outcomes",
                               setUp.seconds, enrolled.seconds, outcomes)
        return [
            BenchmarkRow(name: "reminders due, \(scale): first round", value: first.milliseconds, unit: "ms",
                         note: "\(dueCount) deliveries due; target < 1000; \(setUpNote)"),
            BenchmarkRow(name: "reminders due, \(scale): median of \(repeats) more", value: times.median.milliseconds, unit: "ms",
                         note: "target < 1000"),
            BenchmarkRow(name: "reminders due, same, after that round was sent: first round", value: settledFirst.milliseconds, unit: "ms",
                         note: "\(again.count) due; \(dueCount) deliveries in the outbox"),
            BenchmarkRow(name: "reminders due, same, after that round was sent: median of \(repeats) more", value: settledTimes.median.milliseconds,
                         unit: "ms"),
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
        for (instant, doneOf) in [(Self.enrolledAt.addingTimeInterval(3600), { (_: Int) in 5 }), (Self.measuredAt, { $0 % 3 })] {
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
