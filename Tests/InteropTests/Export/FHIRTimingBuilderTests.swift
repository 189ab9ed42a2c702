import CareStore
import Foundation
import Interop
import Testing

/// Schedule elements as FHIR Timings: wall-clock times and weekdays in the schedule's zone, bounds with the zone's
/// offset and its name, and an error (never a guess) for what a Timing cannot say.
@Suite struct FHIRTimingBuilderTests {
    let builder = FHIRTimingBuilder()
    let berlin = ExportFixtures.zone("Europe/Berlin")

    @Test func dailyAtEightAcrossTheSpringChangeKeepsEightOnTheWallClock() throws {
        // Berlin moves to summer time on 2026-03-29: the first event has +01:00, the end +02:00, the time stays 08:00.
        let start = ExportFixtures.date(2026, 3, 27, in: berlin)
        let end = ExportFixtures.date(2026, 4, 10, in: berlin)
        let element = Schedule.dailyAt(hour: 8, minute: 0, start: start, end: end, duration: .minutes(30), timeZone: berlin).elements[0]
        let timing = try builder.timing(for: element, timeZone: berlin)
        #expect(timing.at("repeat", "boundsPeriod", "start")?.stringValue == "2026-03-27T08:00:00+01:00")
        #expect(timing.at("repeat", "boundsPeriod", "end")?.stringValue == "2026-04-10T00:00:00+02:00")
        #expect(timing.at("repeat", "boundsPeriod", "_start", "extension", 0, "valueCode")?.stringValue == "Europe/Berlin")
        #expect(timing.at("repeat", "boundsPeriod", "_start", "extension", 0, "url")?.stringValue == "http://hl7.org/fhir/StructureDefinition/tz-code")
        #expect(timing.at("repeat", "frequency") == 1)
        #expect(timing.at("repeat", "period") == 1)
        #expect(timing.at("repeat", "periodUnit") == "d")
        #expect(timing.at("repeat", "timeOfDay") == ["08:00:00"])
        #expect(timing.at("repeat", "duration") == 30)
        #expect(timing.at("repeat", "durationUnit") == "min")
        #expect(timing.at("repeat", "dayOfWeek") == nil)
        #expect(timing["event"] == nil)
    }

    @Test func weeklyOnMondaysInKiritimatiNamesTheLocalWeekdayNotTheUTCOne() throws {
        // Kiritimati is UTC+14: Monday 08:00 there is Sunday 18:00 in UTC.
        let kiritimati = ExportFixtures.zone("Pacific/Kiritimati")
        let friday = ExportFixtures.date(2026, 5, 1, in: kiritimati)
        let element = Schedule.weeklyAt(weekdays: [.monday], hour: 8, start: friday, timeZone: kiritimati).elements[0]
        let timing = try builder.timing(for: element, timeZone: kiritimati)
        #expect(timing.at("repeat", "boundsPeriod", "start")?.stringValue == "2026-05-04T08:00:00+14:00")
        #expect(timing.at("repeat", "boundsPeriod", "end") == nil)
        #expect(timing.at("repeat", "boundsPeriod", "_start", "extension", 0, "valueCode")?.stringValue == "Pacific/Kiritimati")
        #expect(timing.at("repeat", "dayOfWeek") == ["mon"])
        #expect(timing.at("repeat", "timeOfDay") == ["08:00:00"])
        #expect(timing.at("repeat", "period") == 1)
        #expect(timing.at("repeat", "periodUnit") == "wk")
        #expect(timing.at("repeat", "duration") == 1)
        #expect(timing.at("repeat", "durationUnit") == "h")
    }

    @Test func onceOnADayIsOneEventWithItsLength() throws {
        let start = ExportFixtures.date(2026, 4, 12, 10, 0, in: berlin)
        let timing = try builder.timing(for: ScheduleElement(start: start, duration: .minutes(45)), timeZone: berlin)
        #expect(timing["event"] == ["2026-04-12T10:00:00+02:00"])
        #expect(timing.at("_event", 0, "extension", 0, "valueCode")?.stringValue == "Europe/Berlin")
        #expect(timing.at("repeat", "duration") == 45)
        #expect(timing.at("repeat", "durationUnit") == "min")
        #expect(timing.at("repeat", "frequency") == nil)
    }

    @Test func anAllDayEventIsADayWithoutATime() throws {
        let start = ExportFixtures.date(2026, 4, 12, 10, 0, in: berlin)
        let once = try builder.timing(for: ScheduleElement(start: start, duration: .allDay), timeZone: berlin)
        #expect(once["event"] == ["2026-04-12"])
        #expect(once["repeat"] == nil)
        // Daily, all day, for days 1 to 42: dates as bounds, the last day included, no time of day and no length.
        let daily = ScheduleElement(start: start, end: ExportFixtures.date(2026, 5, 24, in: berlin), interval: DateComponents(day: 1),
                                    duration: .allDay)
        let timing = try builder.timing(for: daily, timeZone: berlin)
        #expect(timing.at("repeat", "boundsPeriod", "start") == "2026-04-12")
        #expect(timing.at("repeat", "boundsPeriod", "end") == "2026-05-23")
        #expect(timing.at("repeat", "timeOfDay") == nil)
        #expect(timing.at("repeat", "duration") == nil)
        #expect(timing.at("repeat", "periodUnit") == "d")
    }

    @Test func hourlyIsAPeriodOfHoursWithoutATimeOfDay() throws {
        let start = ExportFixtures.date(2026, 3, 29, 0, 30, in: berlin)
        let element = ScheduleElement(start: start, interval: DateComponents(hour: 2), duration: .minutes(5))
        let timing = try builder.timing(for: element, timeZone: berlin)
        #expect(timing.at("repeat", "period") == 2)
        #expect(timing.at("repeat", "periodUnit") == "h")
        #expect(timing.at("repeat", "frequency") == 1)
        #expect(timing.at("repeat", "timeOfDay") == nil)
        #expect(timing.at("repeat", "boundsPeriod", "start") == "2026-03-29T00:30:00+01:00")
        #expect(timing.at("repeat")?.keys == ["boundsPeriod", "duration", "durationUnit", "frequency", "period", "periodUnit"])
    }

    @Test func simpleRecurrenceRulesBecomeTimings() throws {
        let monday = ExportFixtures.date(2026, 3, 30, 9, 0, in: berlin)
        let rule = try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=12")
        let timing = try builder.timing(for: ScheduleElement(start: monday, recurrenceRule: rule), timeZone: berlin)
        #expect(timing.at("repeat", "dayOfWeek") == ["mon", "wed", "fri"])
        #expect(timing.at("repeat", "periodUnit") == "d")
        #expect(timing.at("repeat", "count") == 12)
        #expect(timing.at("repeat", "timeOfDay") == ["09:00:00"])

        let twice = try RecurrenceRule(parsing: "FREQ=DAILY;BYHOUR=9,21;UNTIL=20260430")
        let daily = try builder.timing(for: ScheduleElement(start: monday, recurrenceRule: twice), timeZone: berlin)
        #expect(daily.at("repeat", "timeOfDay") == ["09:00:00", "21:00:00"])
        #expect(daily.at("repeat", "frequency") == 2)
        #expect(daily.at("repeat", "boundsPeriod", "end") == "2026-04-30")
    }

    @Test func whatATimingCannotSayIsAnErrorThatSaysWhy() throws {
        let start = ExportFixtures.date(2026, 1, 31, 9, 0, in: berlin)
        let cases: [(ScheduleElement, String)] = [
            (ScheduleElement(start: start, interval: DateComponents(day: 1, hour: 2)), "1 day and 2 hours"),
            (ScheduleElement(start: start, interval: DateComponents(month: 1)), "monthly from day 31"),
            (ScheduleElement(start: start, recurrenceRule: try RecurrenceRule(parsing: "FREQ=MONTHLY;BYMONTHDAY=-1")), "BYMONTHDAY"),
            (ScheduleElement(start: start, recurrenceRule: try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=1MO")), "numbered BYDAY"),
            // 2026-01-31 is a Saturday: RFC 5545 counts the start, FHIR's dayOfWeek could not.
            (ScheduleElement(start: start, recurrenceRule: try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO")), "not one of BYDAY's days"),
            (ScheduleElement(start: start, recurrenceRule: try RecurrenceRule(parsing: "FREQ=WEEKLY;INTERVAL=2;BYDAY=SA,SU")), "every 2 weeks"),
        ]
        for (element, reason) in cases {
            let error = #expect(throws: FHIRExportError.self) { try builder.timing(for: element, timeZone: berlin) }
            guard case .inexpressibleTiming(let message)? = error else {
                Issue.record("expected an inexpressible timing for \(reason), got \(String(describing: error))")
                continue
            }
            #expect(message.contains(reason), "\(message)")
        }
    }
}
