import Foundation
import ICalendar
import Testing

/// A calendar read back by parsers nobody here wrote (Python's `icalendar` and `recurring_ical_events`, see
/// ``PythonICalendarReader``): every occurrence starts at the instant Foundation's calendar computes in the event's
/// zone, across Berlin's and Sydney's daylight-saving changes, with its alarms at the right instants, both with Python's
/// own tz database and with only the `VTIMEZONE`s written; each `VTIMEZONE` gives Foundation's offset at every sampled
/// instant; escaped and folded texts come back as they were given; and `icalendar` writes the calendar back without
/// warnings or a change in its occurrences.
@Suite("Read back by Python's icalendar")
struct ICalendarInteroperabilityTests {
    /// One event of the calendar and what Foundation says its occurrences are.
    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        var event: ICalendarEvent
        /// Each occurrence's start (UTC instant, or the date of an all-day event), in order.
        var starts: [String]
        /// Each occurrence's alarm triggers.
        var triggers: [[String]]

        var testDescription: String { name }
    }

    static let stamp = TestTimes.date(2027, 2, 1, 12)
    static let window = DateInterval(start: TestTimes.date(2027, 3, 1), end: TestTimes.date(2027, 11, 15))

    /// The starts of `count` occurrences of `start` every `step` (days or weeks) in `zone`, by Foundation's calendar.
    static func repeated(_ start: Date, in zone: TimeZone, every component: Calendar.Component, count: Int) -> [Date] {
        let calendar = TestTimes.calendar(in: zone)
        return (0..<count).map { calendar.date(byAdding: component, value: $0, to: start)! }
    }

    static let scenarios: [Scenario] = {
        let berlin = TestTimes.berlin, sydney = TestTimes.sydney, newYork = TestTimes.newYork, tokyo = TestTimes.tokyo
        var scenarios: [Scenario] = []

        // 09:00 in Berlin every day across 28 March 2027, when Berlin moves from +01:00 to +02:00.
        let daily = TestTimes.date(2027, 3, 25, 9, in: berlin)
        let dailyStarts = repeated(daily, in: berlin, every: .day, count: 7)
        scenarios.append(Scenario(
            name: "daily 09:00 in Berlin across the spring change",
            event: ICalendarEvent(uid: "daily-berlin@test", timestamp: stamp, start: .zoned(daily, in: berlin), end: .duration(.minutes(30)),
                                  summary: "Daily", recurrence: ICalendarRecurrence(frequency: .daily, end: .count(7))),
            starts: dailyStarts.map(TestTimes.iso), triggers: dailyStarts.map { _ in [] }
        ))

        // Mondays 09:00 in Sydney from 29 March to 25 October 2027: +11:00, then +10:00 from 4 April, +11:00 from 3 October.
        let monday = TestTimes.date(2027, 3, 29, 9, in: sydney)
        let lastMonday = TestTimes.date(2027, 10, 25, 9, in: sydney)
        let mondays = repeated(monday, in: sydney, every: .weekOfYear, count: 40).filter { $0 <= lastMonday }
        scenarios.append(Scenario(
            name: "weekly Monday 09:00 in Sydney across April and October",
            event: ICalendarEvent(uid: "weekly-sydney@test", timestamp: stamp, start: .zoned(monday, in: sydney), end: .duration(.hours(1)),
                                  summary: "Weekly",
                                  recurrence: ICalendarRecurrence(frequency: .weekly(on: [.monday]), end: .until(.zoned(lastMonday, in: sydney)))),
            starts: mondays.map(TestTimes.iso), triggers: mondays.map { _ in [] }
        ))

        // All day, three days from 1 April, with a reminder at 09:00 (floating: the reader's own 09:00).
        scenarios.append(Scenario(
            name: "all-day daily with an alarm at 09:00",
            event: ICalendarEvent(uid: "all-day@test", timestamp: stamp, start: .allDay(ICalendarDay(year: 2027, month: 4, day: 1)), summary: "Diary",
                                  recurrence: ICalendarRecurrence(frequency: .daily, end: .count(3)),
                                  alarms: [ICalendarAlarm(trigger: .relativeToStart(.hours(9)), message: "Diary")]),
            starts: ["2027-04-01", "2027-04-02", "2027-04-03"],
            triggers: [["2027-04-01T09:00:00"], ["2027-04-02T09:00:00"], ["2027-04-03T09:00:00"]]
        ))

        // Once, in New York on the morning its summer time starts, with an alarm at an absolute instant.
        let visit = TestTimes.date(2027, 3, 14, 10, in: newYork)
        let call = TestTimes.date(2027, 3, 14, 12)
        scenarios.append(Scenario(
            name: "one-off in New York with an absolute alarm",
            event: ICalendarEvent(uid: "one-off@test", timestamp: stamp, start: .zoned(visit, in: newYork),
                                  end: .time(.zoned(visit.addingTimeInterval(3600), in: newYork)), summary: "Visit",
                                  alarms: [ICalendarAlarm(trigger: .at(call), message: "Visit today")]),
            starts: [TestTimes.iso(visit)], triggers: [[TestTimes.iso(call)]]
        ))

        // 18:00 in Berlin for five days across 31 October, the 30th excluded as a UTC instant and 1 November as a day.
        let evening = TestTimes.date(2027, 10, 28, 18, in: berlin)
        let evenings = repeated(evening, in: berlin, every: .day, count: 5)
        let kept = [evenings[0], evenings[1], evenings[3]]
        scenarios.append(Scenario(
            name: "daily with excluded dates across the autumn change",
            event: ICalendarEvent(uid: "exdate@test", timestamp: stamp, start: .zoned(evening, in: berlin), summary: "Evening",
                                  recurrence: ICalendarRecurrence(frequency: .daily, end: .count(5)),
                                  excludedStarts: [.utc(evenings[2]), .allDay(ICalendarDay(year: 2027, month: 11, day: 1))]),
            starts: kept.map(TestTimes.iso), triggers: kept.map { _ in [] }
        ))

        // 08:00 in Berlin every day from 27 March, 15 minutes' warning.
        let morning = TestTimes.date(2027, 3, 27, 8, in: berlin)
        let mornings = repeated(morning, in: berlin, every: .day, count: 3)
        scenarios.append(Scenario(
            name: "daily with a -PT15M alarm",
            event: ICalendarEvent(uid: "alarm@test", timestamp: stamp, start: .zoned(morning, in: berlin), summary: "Check-in",
                                  recurrence: ICalendarRecurrence(frequency: .daily, end: .count(3)),
                                  alarms: [ICalendarAlarm(trigger: .beforeStart(.minutes(15)), message: "Check-in")]),
            starts: mornings.map(TestTimes.iso), triggers: mornings.map { [TestTimes.iso($0.addingTimeInterval(-15 * 60))] }
        ))

        // Once in Tokyo (a zone without transitions), with every text escaped and folded.
        let noon = TestTimes.date(2027, 5, 10, 12, in: tokyo)
        scenarios.append(Scenario(
            name: "one-off in Tokyo with escaped, folded texts",
            event: ICalendarEvent(uid: "texts@test", timestamp: stamp, start: .zoned(noon, in: tokyo), summary: textsSummary, notes: textsNotes,
                                  location: "Room 3, Building B; 2nd floor", categories: ["Sleep, night", "A\\B"]),
            starts: [TestTimes.iso(noon)], triggers: [[]]
        ))
        return scenarios
    }()

    static let textsSummary = "睡眠日誌; 毎朝の質問に答えてください, 😴 then \\ rest\r\nX-INJECTED:1\u{0}\u{202E}" + String(repeating: "記録", count: 20)
    static let textsNotes = "Line one\nLine two, with \"quotes\"; and a tab\there\r\nLast 👩‍🔬"

    static let calendar = ICalendar(productIdentifier: "-//StudyKit//Interoperability Tests//EN", name: "Interoperability", refreshInterval: .hours(6),
                                    timeZoneCoverage: window, events: scenarios.map(\.event))

    /// Instants to read each `VTIMEZONE`'s offset at: every six hours of the window, and a second either side of each
    /// transition in it.
    static let samples: [ICalendarTimeZone: [Int]] = {
        var samples: [ICalendarTimeZone: [Int]] = [:]
        for zone in calendar.timeZones {
            var instants = Array(stride(from: Int(window.start.timeIntervalSince1970), through: Int(window.end.timeIntervalSince1970), by: 6 * 3600))
            for observance in zone.observances.dropFirst() {
                let onset = Int(observance.onset.timeIntervalSince1970)
                instants += [onset - 1, onset, onset + 1]
            }
            samples[zone] = instants
        }
        return samples
    }()

    static let report = Result { () throws(PythonICalendarReader.Failure) in
        try PythonICalendarReader.read(calendar.serializedUTF8(), window: window,
                                       samples: Dictionary(uniqueKeysWithValues: samples.map { ($0.key.identifier, $0.value) }))
    }

    private func report() -> PythonICalendarReader.Report? {
        switch Self.report {
        case .success(let report): return report
        case .failure(let failure):
            Issue.record("\(failure)")
            return nil
        }
    }

    private func expectOccurrences(_ found: [PythonICalendarReader.Report.Occurrence], _ scenario: Scenario, sourceLocation: SourceLocation = #_sourceLocation) {
        let mine = found.filter { $0.uid == scenario.event.uid }
        #expect(mine.map(\.start) == scenario.starts, sourceLocation: sourceLocation)
        #expect(mine.map(\.triggers) == scenario.triggers, sourceLocation: sourceLocation)
    }

    @Test func foundationsExpectationsCrossTheChanges() {
        let starts = Dictionary(uniqueKeysWithValues: Self.scenarios.map { ($0.event.uid, $0.starts) })
        // Berlin: 09:00 is 08:00 UTC before 28 March and 07:00 UTC from it.
        #expect(starts["daily-berlin@test"]?[2] == "2027-03-27T08:00:00Z" && starts["daily-berlin@test"]?[3] == "2027-03-28T07:00:00Z")
        // Sydney: Monday 09:00 is 22:00 UTC the day before at +11:00, 23:00 UTC at +10:00.
        let sydney = starts["weekly-sydney@test"] ?? []
        #expect(sydney.first == "2027-03-28T22:00:00Z" && sydney.count == 31 && sydney.last == "2027-10-24T22:00:00Z")
        #expect(sydney.contains("2027-04-04T23:00:00Z") && sydney.contains("2027-09-26T23:00:00Z") && sydney.contains("2027-10-03T22:00:00Z"))
        #expect(starts["exdate@test"] == ["2027-10-28T16:00:00Z", "2027-10-29T16:00:00Z", "2027-10-31T17:00:00Z"])
        #expect(starts["one-off@test"] == ["2027-03-14T14:00:00Z"])
    }

    @Test(arguments: scenarios)
    func occurrencesStartWhenFoundationSays(_ scenario: Scenario) {
        guard let report = report() else { return }
        expectOccurrences(report.occurrences, scenario)
    }

    @Test(arguments: scenarios)
    func occurrencesStartWhenFoundationSaysWithOnlyTheWrittenVTIMEZONEs(_ scenario: Scenario) {
        guard let report = report() else { return }
        expectOccurrences(report.occurrencesThroughVTIMEZONE, scenario)
    }

    @Test func everyVTIMEZONEGivesFoundationsOffsetAtEverySampledInstant() {
        guard let report = report() else { return }
        #expect(Set(report.offsets.keys) == ["Europe/Berlin", "Australia/Sydney", "America/New_York", "Asia/Tokyo"])
        for (zone, instants) in Self.samples {
            let timeZone = TimeZone(identifier: zone.identifier)!
            let expected = instants.map { timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0))) }
            let found = report.offsets[zone.identifier] ?? []
            #expect(found.count == expected.count, "\(zone.identifier)")
            for (index, (offset, foundation)) in zip(found, expected).enumerated() where offset != foundation {
                Issue.record("\(zone.identifier) at \(TestTimes.iso(Date(timeIntervalSince1970: TimeInterval(instants[index])))): icalendar \(offset), Foundation \(foundation)")
            }
        }
    }

    @Test func escapedAndFoldedTextsReadBackAsGiven() {
        guard let report = report() else { return }
        // Line breaks come back as LF; NUL and the bidirectional override are gone, a tab is a space.
        let summary = Self.textsSummary.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\u{0}", with: "")
            .replacingOccurrences(of: "\u{202E}", with: "")
        let notes = Self.textsNotes.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\t", with: " ")
        #expect(report.texts["texts@test"] == PythonICalendarReader.Report.Texts(
            summary: summary, description: notes, location: "Room 3, Building B; 2nd floor", categories: ["Sleep, night", "A\\B"]))
        #expect(report.texts.count == Self.scenarios.count)
    }

    @Test func icalendarWritesTheCalendarBackWithoutWarningsOrChange() {
        guard let report = report() else { return }
        #expect(report.warnings == [])
        #expect(report.reserializedEventCount == Self.scenarios.count)
        #expect(report.reserializedOccurrences == report.occurrences)
    }
}
