import CareStore
import Foundation
import PostgresTestSupport
import Study
@testable import StudyServer
import StudyKitEnvironment
import StudyWeb
import Testing

/// The calendar feed's series: a schedule element's events written as one `RRULE` with exceptions where that says them
/// exactly, each event alone otherwise. Every test expands the feed it gets with an expansion of its own (Foundation's
/// calendar, day by day or week by week on the participant's wall clock) and finds exactly the care store's events.
@Suite("Calendar feed: series and single events")
struct CalendarFeedBuilderTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let participantID = "p1"
    static let host = "study.test"

    let study: StudyDefinition
    let builder: CalendarFeedBuilder
    let now: Date
    let participant: StudyParticipant
    let window: DateInterval

    init() throws {
        let folder = ServerFixture.repository.appendingPathComponent("examples/studies/recover")
        study = try StudyServerApplication.loadStudy(StudyServerConfiguration(studyFolder: folder, dataFolder: TestScratchFolder.make("calendar-feed")))
        let now = Self.date(2027, 3, 22, 10)
        self.now = now
        let messages = ReminderMessages(study: study, configuration: ReminderSendingConfiguration(), signer: RequestSigner(secret: Data(repeating: 7, count: 32)),
                                        strings: { WebStrings(language: $0) }, environment: StudyKitEnvironment(now: { now }, makeUUID: { UUID() }))
        builder = CalendarFeedBuilder(study: study, messages: messages)
        participant = StudyParticipant(id: Self.participantID, patientID: Self.participantID, timeZone: Self.berlin, language: "en", enrolledAt: now,
                                       invitationID: nil)
        window = CalendarFeedBuilder.window(at: now, in: Self.berlin)
    }

    static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    // MARK: - Running the builder

    /// What a test gets: the feed's events and the care store's.
    struct Feed {
        let events: [FeedEvent]
        let expected: Set<String>

        /// The events of the study task `task`.
        func of(_ task: String) -> [FeedEvent] { events.filter { $0.task == task } }
    }

    /// A care store holding `schedule` as the participant's study task `task` (Recover's id, for its title and
    /// reminders), with outcomes on `done`; the feed of its events in the window with `reminders` on.
    func feed(task: String, schedule: Schedule, reminders: Set<String> = [], done: [Int] = []) async throws -> Feed {
        let store = InMemoryCareStore()
        var careTask = CareTask(id: StudyCareIdentifiers.taskID(participant: Self.participantID, task: task), title: task, schedule: schedule,
                                effectiveDate: Self.date(2027, 3, 1), timeZone: Self.berlin)
        careTask.version.groupIdentifier = task
        let stored = try await store.add([careTask])[0]
        if !done.isEmpty {
            _ = try await store.addOutcomes(done.map { Outcome(taskUUID: stored.version.uuid, occurrenceIndex: $0, values: [OutcomeValue(.boolean(true))]) })
        }
        var query = CareQuery()
        query.ids = [careTask.id]
        let events = try await store.events(taskQuery: query, window: window)
        let calendar = builder.calendar(for: participant, preferences: ReminderPreferences(enabledReminderIDs: reminders), events: events,
                                        window: window, now: now, host: Self.host)
        let parsed = FeedEvent.parse(calendar.serialized())
        let expected = Set(events.map { event in
            let allDay = schedule.elements[event.scheduleEvent.elementIndex].duration == .allDay
            return FeedEvent.key(task: task, start: event.scheduleEvent.start, end: event.scheduleEvent.end, allDay: allDay)
        })
        let expanded = parsed.flatMap { $0.occurrences() }
        #expect(expanded.count == Set(expanded).count, "an occurrence twice")
        #expect(Set(expanded) == expected)
        return Feed(events: parsed, expected: expected)
    }

    // MARK: - Tests

    @Test func aDailyAllDayTaskIsOneSeriesWithTheChangeDayAlone() async throws {
        // Every day, all day, from 22 March; Berlin moves to summer time on 28 March, so that day's 09:00 is 8 hours
        // after its midnight, not 9.
        let schedule = Schedule(ScheduleElement(start: Self.date(2027, 3, 22), interval: DateComponents(day: 1), duration: .allDay), timeZone: Self.berlin)
        let feed = try await feed(task: "pain", schedule: schedule, reminders: ["painMorning"])
        let pain = feed.of("pain")
        #expect(pain.count == 2)
        let series = try #require(pain.first { $0.rule != nil })
        #expect(series.uid == "p1-pain-e0@study.test")
        #expect(series.property("DTSTART") == "DTSTART;VALUE=DATE:20270322")
        #expect(series.property("DTEND") == "DTEND;VALUE=DATE:20270323")
        #expect(series.rule == "FREQ=DAILY;UNTIL=20270516")
        #expect(series.excluded == ["20270328"])
        #expect(series.triggers == ["TRIGGER:PT9H"])
        #expect(series.property("URL") == "URL:/")

        let changeDay = try #require(pain.first { $0.rule == nil })
        #expect(changeDay.uid == "p1-pain-6@study.test")
        #expect(changeDay.property("DTSTART") == "DTSTART;VALUE=DATE:20270328")
        #expect(changeDay.triggers == ["TRIGGER;VALUE=DATE-TIME:20270328T070000Z"])  // 09:00 CEST
        #expect(changeDay.property("URL") == "URL:/tasks/pain/6")
        #expect(feed.expected.count == 56)
    }

    @Test func aDoneEventIsExcludedAndWrittenAloneWithoutAlarms() async throws {
        let schedule = Schedule(ScheduleElement(start: Self.date(2027, 3, 22), interval: DateComponents(day: 1), duration: .allDay), timeZone: Self.berlin)
        let feed = try await feed(task: "pain", schedule: schedule, reminders: ["painMorning"], done: [3])
        let pain = feed.of("pain")
        let series = try #require(pain.first { $0.rule != nil })
        #expect(series.excluded == ["20270325", "20270328"])
        let done = try #require(pain.first { $0.uid == "p1-pain-3@study.test" })
        #expect(done.property("DTSTART") == "DTSTART;VALUE=DATE:20270325")
        #expect(done.property("STATUS") == "STATUS:CONFIRMED")
        #expect(done.triggers.isEmpty)
        #expect(pain.count == 3)
    }

    @Test func aDoneFirstEventLeavesTheSeriesToStartAtTheNext() async throws {
        let schedule = Schedule(ScheduleElement(start: Self.date(2027, 3, 22), interval: DateComponents(day: 1), duration: .allDay), timeZone: Self.berlin)
        let feed = try await feed(task: "symptoms", schedule: schedule, done: [0])
        let series = try #require(feed.of("symptoms").first { $0.rule != nil })
        #expect(series.property("DTSTART") == "DTSTART;VALUE=DATE:20270323")
        #expect(series.excluded.isEmpty)
        #expect(feed.of("symptoms").count == 2)
    }

    @Test func aWeeklyTaskIsAWeeklySeriesAtItsWallTime() async throws {
        // Mondays 09:00 for half an hour: +01:00 on 22 March, +02:00 from 29 March.
        let schedule = Schedule.weeklyAt(weekdays: [.monday], hour: 9, start: Self.date(2027, 3, 22), end: Self.date(2027, 5, 1),
                                         duration: .minutes(30), timeZone: Self.berlin)
        let feed = try await feed(task: "weekly", schedule: schedule)
        let weekly = feed.of("weekly")
        #expect(weekly.count == 1)
        #expect(weekly[0].uid == "p1-weekly-e0@study.test")
        #expect(weekly[0].property("DTSTART") == "DTSTART;TZID=Europe/Berlin:20270322T090000")
        #expect(weekly[0].property("DTEND") == "DTEND;TZID=Europe/Berlin:20270322T093000")
        #expect(weekly[0].rule == "FREQ=WEEKLY;UNTIL=20270426T070000Z")
        #expect(weekly[0].excluded.isEmpty)
        #expect(feed.expected.count == 6)
    }

    @Test func aRecurrenceRuleWithPlainWeekdaysIsAWeeklySeries() async throws {
        let rule = try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,TH")
        // The element starts on a Tuesday, which the rule counts as its first occurrence (readers differ on a DTSTART
        // off its BYDAY): that one stands alone, and the series starts on Thursday.
        let schedule = Schedule(ScheduleElement(start: Self.date(2027, 3, 23, 18), recurrenceRule: rule, duration: .hours(1)), timeZone: Self.berlin)
        let feed = try await feed(task: "icing", schedule: schedule)
        let series = try #require(feed.of("icing").first { $0.rule != nil })
        #expect(series.property("DTSTART") == "DTSTART;TZID=Europe/Berlin:20270325T180000")
        #expect(series.rule?.hasPrefix("FREQ=WEEKLY;UNTIL=") == true)
        #expect(series.rule?.hasSuffix(";BYDAY=MO,TH") == true)
        #expect(feed.of("icing").map(\.uid).sorted() == ["p1-icing-0@study.test", "p1-icing-e0@study.test"])
    }

    @Test func relativeAlarmsOfATimedTaskStayAcrossTheChange() async throws {
        // 08:00 to 10:00 every day with the 09:00 reminder: an hour after the start, on the change day too.
        let schedule = Schedule.dailyAt(hour: 8, start: Self.date(2027, 3, 22), duration: .hours(2), timeZone: Self.berlin)
        let feed = try await feed(task: "pain", schedule: schedule, reminders: ["painMorning"])
        let pain = feed.of("pain")
        #expect(pain.count == 1)
        #expect(pain[0].triggers == ["TRIGGER:PT1H"])
        #expect(pain[0].excluded.isEmpty)
    }

    @Test func aScheduleNoRuleSaysExactlyIsWrittenEventByEvent() async throws {
        // Every 36 hours, and the 1st and 15th of the month: no daily, weekly or monthly rule.
        let hours = Schedule(ScheduleElement(start: Self.date(2027, 3, 22, 8), interval: DateComponents(hour: 36), duration: .minutes(30)), timeZone: Self.berlin)
        let byDay = Schedule(ScheduleElement(start: Self.date(2027, 3, 15), recurrenceRule: try RecurrenceRule(parsing: "FREQ=MONTHLY;BYMONTHDAY=1,15"),
                                             duration: .allDay), timeZone: Self.berlin)
        // The 31st of each month: the care store moves it to the end of shorter months, which no RRULE does.
        let monthEnd = Schedule(ScheduleElement(start: Self.date(2027, 3, 31, 9), interval: DateComponents(month: 1)), timeZone: Self.berlin)
        for (task, schedule) in [("symptoms", hours), ("weekly", byDay), ("icing", monthEnd)] {
            let feed = try await feed(task: task, schedule: schedule)
            #expect(feed.events.allSatisfy { $0.rule == nil }, "\(task)")
            #expect(feed.events.count == feed.expected.count)
            #expect(feed.events.allSatisfy { $0.uid.split(separator: "@")[0].split(separator: "-").last?.allSatisfy(\.isNumber) == true })
        }
    }

    @Test func aRuleInADaylightSavingGapIsWrittenEventByEvent() async throws {
        // 02:30 every day: 28 March has no 02:30 in Berlin, and readers differ on where such an occurrence goes.
        let schedule = Schedule.dailyAt(hour: 2, minute: 30, start: Self.date(2027, 3, 22), duration: .minutes(20), timeZone: Self.berlin)
        let feed = try await feed(task: "icing", schedule: schedule)
        #expect(feed.events.allSatisfy { $0.rule == nil })
        #expect(feed.events.count == 56)
    }
}

/// One `VEVENT` of a serialized feed, as a reader with nothing but the text sees it.
struct FeedEvent {
    /// Its content lines, unfolded.
    let lines: [String]

    /// The events of a serialized calendar.
    static func parse(_ text: String) -> [FeedEvent] {
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        var events: [FeedEvent] = []
        var current: [String]?
        for line in unfolded {
            if line == "BEGIN:VEVENT" { current = []; continue }
            if line == "END:VEVENT", let lines = current { events.append(FeedEvent(lines: lines)); current = nil; continue }
            current?.append(line)
        }
        return events
    }

    /// The first line of property `name` (its parameters and value).
    func property(_ name: String) -> String? {
        lines.first { $0.hasPrefix(name + ":") || $0.hasPrefix(name + ";") }
    }

    /// The value of property `name`.
    func value(_ name: String) -> String? {
        property(name).flatMap { $0.split(separator: ":", maxSplits: 1).last.map(String.init) }
    }

    var uid: String { value("UID") ?? "" }
    /// The study task, from the UID (`PARTICIPANT-TASK-…@host`).
    var task: String { uid.split(separator: "@")[0].split(separator: "-").dropLast().last.map(String.init) ?? "" }
    var rule: String? { value("RRULE") }
    /// The excluded starts' values.
    var excluded: [String] {
        lines.filter { $0.hasPrefix("EXDATE") }.compactMap { $0.split(separator: ":", maxSplits: 1).last.map(String.init) }
    }
    var triggers: [String] { lines.filter { $0.hasPrefix("TRIGGER") } }

    /// An occurrence as a key: the task, its start and its end (days for all-day events, UTC instants otherwise).
    static func key(task: String, start: Date, end: Date, allDay: Bool) -> String {
        if allDay {
            return "\(task) \(day(start)) \(day(end.addingTimeInterval(-1)))"
        }
        return "\(task) \(start.timeIntervalSince1970) \(end.timeIntervalSince1970)"
    }

    private static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = CalendarFeedBuilderTests.berlin
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d%02d%02d", parts.year!, parts.month!, parts.day!)
    }

    /// The occurrences of this event, expanded here: its start, and for a daily or weekly rule (every INTERVAL days or
    /// weeks, on BYDAY's weekdays) each later start on the wall clock of its zone up to UNTIL, less the excluded ones;
    /// each as long as the first (in days, or in exact time).
    func occurrences() -> [String] {
        guard let start = property("DTSTART"), let end = property("DTEND") else { return [] }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = CalendarFeedBuilderTests.berlin
        let allDay = start.contains("VALUE=DATE")
        func parse(_ text: String) -> Date {
            let value = String(text.split(separator: ":").last!)
            let digits = value.filter(\.isNumber).map { Int(String($0))! }
            func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + $1 } }
            var parts = DateComponents(year: number(0..<4), month: number(4..<6), day: number(6..<8))
            if digits.count >= 14 { (parts.hour, parts.minute, parts.second) = (number(8..<10), number(10..<12), number(12..<14)) }
            if value.hasSuffix("Z") { parts.timeZone = TimeZone(identifier: "UTC") }
            return calendar.date(from: parts)!
        }
        let first = parse(start), firstEnd = parse(end)
        let length = allDay ? 0 : firstEnd.timeIntervalSince(first)
        let days = allDay ? calendar.dateComponents([.day], from: first, to: firstEnd).day! : 0
        func occurrence(_ date: Date) -> String {
            allDay ? FeedEvent.key(task: task, start: date, end: calendar.date(byAdding: .day, value: days, to: date)!, allDay: true)
                : FeedEvent.key(task: task, start: date, end: date.addingTimeInterval(length), allDay: false)
        }
        guard let rule else { return [occurrence(first)] }
        let parts = Dictionary(uniqueKeysWithValues: rule.split(separator: ";").map { part in
            let pair = part.split(separator: "=", maxSplits: 1)
            return (String(pair[0]), String(pair[1]))
        })
        let interval = Int(parts["INTERVAL"] ?? "1")!
        let until = parse("UNTIL:" + parts["UNTIL"]!)
        let weekdays = (parts["BYDAY"] ?? "").split(separator: ",").map { ["SU", "MO", "TU", "WE", "TH", "FR", "SA"].firstIndex(of: String($0))! + 1 }
        let excluded = Set(self.excluded.map { parse("X:" + $0) })
        let firstDay = calendar.startOfDay(for: first)
        let time = calendar.dateComponents([.hour, .minute, .second], from: first)
        var starts: [Date] = [first]
        for offset in 1..<400 {
            let day = calendar.date(byAdding: .day, value: offset, to: firstDay)!
            let weekday = calendar.component(.weekday, from: day)
            let inPeriod: Bool
            switch parts["FREQ"] {
            case "DAILY": inPeriod = offset % interval == 0
            case "WEEKLY":
                // Weeks from Monday, as WKST's default.
                let mondayBased = { (date: Date) in (calendar.component(.weekday, from: date) + 5) % 7 }
                let weekIndex = (offset + mondayBased(firstDay)) / 7
                inPeriod = weekIndex % interval == 0 && (weekdays.isEmpty ? weekday == calendar.component(.weekday, from: first) : weekdays.contains(weekday))
            default: Issue.record("FREQ \(parts["FREQ"] ?? "") not expanded here"); return []
            }
            guard inPeriod else { continue }
            var wall = calendar.dateComponents([.year, .month, .day], from: day)
            (wall.hour, wall.minute, wall.second) = (time.hour, time.minute, time.second)
            let date = allDay ? day : calendar.date(from: wall)!
            if date > until { break }
            starts.append(date)
        }
        return starts.filter { !excluded.contains($0) }.map(occurrence)
    }
}
