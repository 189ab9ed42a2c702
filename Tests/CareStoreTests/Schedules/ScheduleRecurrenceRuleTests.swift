import Foundation
import Testing
@testable import CareStore

@Suite("Schedule recurrence rules")
struct ScheduleRecurrenceRuleTests {
    typealias S = ScheduleTestSupport

    /// The starts of the first `count` events of a rule element, as wall-clock text in Berlin.
    private func starts(_ rule: String, from start: String, count: Int = 8, zone: TimeZone = S.berlin,
                        duration: ScheduleDuration = .oneHour) throws -> [String] {
        let element = ScheduleElement(start: S.date(start), recurrenceRule: try RecurrenceRule(parsing: rule), duration: duration)
        let schedule = Schedule(element, timeZone: zone)
        let events = (0..<count).compactMap { schedule.event(occurrence: $0) }
        // The window query must agree with the index query.
        if let last = events.last {
            let listed = schedule.events(from: S.date(start).addingTimeInterval(-86_400 * 400), to: last.start.addingTimeInterval(1))
            #expect(listed == events, "window and index disagree for \(rule)")
        }
        return events.map { S.text($0.start, zone) }
    }

    // MARK: Parsing and printing

    @Test func parsesAndPrintsCanonically() throws {
        let rule = try RecurrenceRule(parsing: "rrule:byday=fr,1mo,-1fr;freq=monthly;interval=1;count=6")
        #expect(rule.frequency == .monthly)
        #expect(rule.end == .count(6))
        #expect(rule.byDay == [RecurrenceRule.WeekdayEntry(.monday, ordinal: 1), RecurrenceRule.WeekdayEntry(.friday),
                               RecurrenceRule.WeekdayEntry(.friday, ordinal: -1)])
        #expect(rule.description == "FREQ=MONTHLY;COUNT=6;BYDAY=1MO,FR,-1FR")
        #expect(try RecurrenceRule(parsing: rule.description) == rule)

        let full = "FREQ=YEARLY;INTERVAL=2;UNTIL=20300101T000000Z;BYMONTH=1,3;BYYEARDAY=-1;BYMONTHDAY=1,-1;BYDAY=SU;BYHOUR=9;BYMINUTE=0,30;BYSECOND=15;BYSETPOS=1,-1;WKST=SU"
        #expect(try RecurrenceRule(parsing: full).description == full)
        #expect(try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20260501").end == .until(.date(year: 2026, month: 5, day: 1)))
        #expect(try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20260501T093000").description == "FREQ=DAILY;UNTIL=20260501T093000")
        #expect(try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20260501T093000Z").end == .until(.utc(S.date("2026-05-01T09:30:00Z"))))
        #expect(RecurrenceRule(frequency: .weekly, byDay: [.init(.friday), .init(.monday), .init(.monday)]).description == "FREQ=WEEKLY;BYDAY=MO,FR")
    }

    @Test(arguments: [
        ("FREQ=WEEKLY;BYDAY=MO,XX", "BYDAY: 'XX' is not a weekday"),
        ("FREQ=DAILY;COUNT=3;UNTIL=20260101", "COUNT: COUNT and UNTIL cannot be used together"),
        ("BYDAY=MO", "FREQ: is missing; a rule needs FREQ, like FREQ=DAILY"),
        ("FREQ=FORTNIGHTLY", "FREQ: 'FORTNIGHTLY' is not a frequency (SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY)"),
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL: '0' is not a whole number of at least 1"),
        ("FREQ=DAILY;COUNT=x", "COUNT: 'x' is not a whole number of at least 1"),
        ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY: '32' is not a day of the month (1 to 31 or -31 to -1)"),
        ("FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY: '0' is not a day of the month (1 to 31 or -31 to -1)"),
        ("FREQ=YEARLY;BYMONTH=13", "BYMONTH: '13' is not a month (1 to 12)"),
        ("FREQ=DAILY;BYHOUR=24", "BYHOUR: '24' is not an hour (0 to 23)"),
        ("FREQ=DAILY;BYMINUTE=60", "BYMINUTE: '60' is not a minute (0 to 59)"),
        ("FREQ=WEEKLY;BYDAY=1MO", "BYDAY: ordinals like '1MO' need FREQ=MONTHLY or FREQ=YEARLY"),
        ("FREQ=MONTHLY;BYDAY=0MO", "BYDAY: '0MO': '0' is not an ordinal (1 to 53 or -53 to -1)"),
        ("FREQ=MONTHLY;BYDAY=6MO", "BYDAY: '6MO': a month has at most 5 of each weekday"),
        ("FREQ=WEEKLY;BYMONTHDAY=1", "BYMONTHDAY: cannot be used with FREQ=WEEKLY"),
        ("FREQ=DAILY;BYSETPOS=1", "BYSETPOS: needs another BY… part to choose from"),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "BYMONTHDAY: none of these days exists in the months of BYMONTH, so the rule never repeats"),
        ("FREQ=DAILY;UNTIL=20260230", "UNTIL: '20260230' is not a valid date"),
        ("FREQ=DAILY;UNTIL=2026-05-01", "UNTIL: '2026-05-01' is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, with Z for UTC)"),
        ("FREQ=DAILY;FREQ=WEEKLY", "FREQ: is given twice"),
        ("FREQ=DAILY;COLOR=RED", "'COLOR' is not a recurrence rule part"),
        ("FREQ=YEARLY;BYWEEKNO=20", "BYWEEKNO: is not supported"),
        ("FREQ=DAILY;BYHOUR=", "BYHOUR: has no value"),
        ("FREQ=DAILY;WKST=XY", "WKST: 'XY' is not a weekday (MO, TU, WE, TH, FR, SA or SU)"),
        ("", "the rule is empty; it needs at least FREQ, like FREQ=DAILY"),
    ])
    func parseErrorsNameThePart(text: String, message: String) {
        #expect(throws: RecurrenceRuleError.self) { try RecurrenceRule(parsing: text) }
        do {
            _ = try RecurrenceRule(parsing: text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func problemsOfRulesBuiltInCode() {
        #expect(RecurrenceRule(frequency: .daily, interval: 0, byHour: [25]).problems.map(\.description)
                == ["INTERVAL: must be at least 1 (0)", "BYHOUR: '25' is not an hour (0 to 23)"])
        #expect(RecurrenceRule(frequency: .monthly, byDay: [.init(.monday, ordinal: -1)]).problems.isEmpty)
    }

    @Test func codableAsItsString() throws {
        let rule = try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE")
        let data = try JSONEncoder().encode([rule])
        #expect(String(decoding: data, as: UTF8.self) == #"["FREQ=WEEKLY;BYDAY=MO,WE"]"#)
        #expect(try JSONDecoder().decode([RecurrenceRule].self, from: data) == [rule])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([RecurrenceRule].self, from: Data(#"["FREQ=NEVER"]"#.utf8)) }
    }

    // MARK: Expansion

    @Test func countIncludesTheStart() throws {
        #expect(try starts("FREQ=DAILY;COUNT=3", from: "2026-03-28T08:00:00+01:00")
                == ["2026-03-28T08:00:00+01:00", "2026-03-29T08:00:00+02:00", "2026-03-30T08:00:00+02:00"])
    }

    @Test func startNotMatchingBYDAYIsTheFirstOccurrenceAndCounts() throws {
        // 2026-03-03 is a Tuesday; the rule asks for Mondays.
        #expect(try starts("FREQ=WEEKLY;BYDAY=MO;COUNT=3", from: "2026-03-03T10:00:00+01:00")
                == ["2026-03-03T10:00:00+01:00", "2026-03-09T10:00:00+01:00", "2026-03-16T10:00:00+01:00"])
        // The same for a rule listed from the start (monthly, ordinal BYDAY).
        #expect(try starts("FREQ=MONTHLY;BYDAY=1MO;COUNT=3", from: "2026-03-03T10:00:00+01:00")
                == ["2026-03-03T10:00:00+01:00", "2026-04-06T10:00:00+02:00", "2026-05-04T10:00:00+02:00"])
        // A start that matches is not doubled.
        #expect(try starts("FREQ=WEEKLY;BYDAY=TU,TH;COUNT=3", from: "2026-03-03T10:00:00+01:00")
                == ["2026-03-03T10:00:00+01:00", "2026-03-05T10:00:00+01:00", "2026-03-10T10:00:00+01:00"])
    }

    @Test func untilAsDateUTCAndFloating() throws {
        // A date: every event on that day still happens.
        #expect(try starts("FREQ=DAILY;UNTIL=20260330", from: "2026-03-28T20:00:00+01:00", count: 10)
                == ["2026-03-28T20:00:00+01:00", "2026-03-29T20:00:00+02:00", "2026-03-30T20:00:00+02:00"])
        // UTC: 18:00Z is 20:00 in Berlin summer time, so March 30 is the last, inclusive.
        #expect(try starts("FREQ=DAILY;UNTIL=20260330T180000Z", from: "2026-03-28T20:00:00+01:00", count: 10).count == 3)
        #expect(try starts("FREQ=DAILY;UNTIL=20260330T175959Z", from: "2026-03-28T20:00:00+01:00", count: 10).count == 2)
        // Floating: read on the Berlin wall clock.
        #expect(try starts("FREQ=DAILY;UNTIL=20260330T200000", from: "2026-03-28T20:00:00+01:00", count: 10).count == 3)
        #expect(try starts("FREQ=WEEKLY;BYDAY=MO,FR;UNTIL=20260413", from: "2026-03-30T09:00:00+02:00", count: 10)
                == ["2026-03-30T09:00:00+02:00", "2026-04-03T09:00:00+02:00", "2026-04-06T09:00:00+02:00",
                    "2026-04-10T09:00:00+02:00", "2026-04-13T09:00:00+02:00"])
    }

    @Test func ordinalWeekdaysInMonthlyRules() throws {
        #expect(try starts("FREQ=MONTHLY;BYDAY=1MO,-1FR", from: "2026-01-05T09:00:00+01:00", count: 6) == [
            "2026-01-05T09:00:00+01:00", "2026-01-30T09:00:00+01:00", "2026-02-02T09:00:00+01:00",
            "2026-02-27T09:00:00+01:00", "2026-03-02T09:00:00+01:00", "2026-03-27T09:00:00+01:00",
        ])
        // Yearly: the last Sunday of March (where summer time begins).
        #expect(try starts("FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", from: "2026-03-29T10:00:00+02:00", count: 3)
                == ["2026-03-29T10:00:00+02:00", "2027-03-28T10:00:00+02:00", "2028-03-26T10:00:00+02:00"])
        // Yearly without BYMONTH: the 20th Monday of the year.
        #expect(try starts("FREQ=YEARLY;BYDAY=20MO", from: "2026-05-18T09:00:00+02:00", count: 2)
                == ["2026-05-18T09:00:00+02:00", "2027-05-17T09:00:00+02:00"])
    }

    @Test func lastDayOfTheMonthAndSetPositions() throws {
        #expect(try starts("FREQ=MONTHLY;BYMONTHDAY=-1", from: "2026-01-31T09:00:00+01:00", count: 4)
                == ["2026-01-31T09:00:00+01:00", "2026-02-28T09:00:00+01:00", "2026-03-31T09:00:00+02:00", "2026-04-30T09:00:00+02:00"])
        // The last weekday of each month.
        #expect(try starts("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", from: "2026-01-30T17:00:00+01:00", count: 5) == [
            "2026-01-30T17:00:00+01:00", "2026-02-27T17:00:00+01:00", "2026-03-31T17:00:00+02:00",
            "2026-04-30T17:00:00+02:00", "2026-05-29T17:00:00+02:00",
        ])
        // The second of several times each day.
        #expect(try starts("FREQ=DAILY;BYHOUR=8,12,20;BYSETPOS=2", from: "2026-03-01T12:00:00+01:00", count: 3)
                == ["2026-03-01T12:00:00+01:00", "2026-03-02T12:00:00+01:00", "2026-03-03T12:00:00+01:00"])
        // RFC 5545 skips dates that do not exist: monthly from the 31st only lands in 31-day months.
        #expect(try starts("FREQ=MONTHLY", from: "2026-01-31T09:00:00+01:00", count: 4)
                == ["2026-01-31T09:00:00+01:00", "2026-03-31T09:00:00+02:00", "2026-05-31T09:00:00+02:00", "2026-07-31T09:00:00+02:00"])
        #expect(try starts("FREQ=YEARLY", from: "2024-02-29T09:00:00+01:00", count: 3)
                == ["2024-02-29T09:00:00+01:00", "2028-02-29T09:00:00+01:00", "2032-02-29T09:00:00+01:00"])
    }

    @Test func timesOfDayComeFromTheStartUnlessGiven() throws {
        #expect(try starts("FREQ=DAILY;BYHOUR=9,18", from: "2026-01-30T07:15:00+01:00", count: 5) == [
            "2026-01-30T07:15:00+01:00", "2026-01-30T09:15:00+01:00", "2026-01-30T18:15:00+01:00",
            "2026-01-31T09:15:00+01:00", "2026-01-31T18:15:00+01:00",
        ])
        #expect(try starts("FREQ=HOURLY;BYMINUTE=0,30", from: "2026-01-30T07:15:00+01:00", count: 4)
                == ["2026-01-30T07:15:00+01:00", "2026-01-30T07:30:00+01:00", "2026-01-30T08:00:00+01:00", "2026-01-30T08:30:00+01:00"])
        #expect(try starts("FREQ=HOURLY;INTERVAL=6;BYDAY=SA", from: "2026-01-30T05:00:00+01:00", count: 5) == [
            "2026-01-30T05:00:00+01:00", "2026-01-31T05:00:00+01:00", "2026-01-31T11:00:00+01:00",
            "2026-01-31T17:00:00+01:00", "2026-01-31T23:00:00+01:00",
        ])
        #expect(try starts("FREQ=MINUTELY;INTERVAL=20;BYHOUR=9;COUNT=5", from: "2026-01-30T08:40:00+01:00", count: 9) == [
            "2026-01-30T08:40:00+01:00", "2026-01-30T09:00:00+01:00", "2026-01-30T09:20:00+01:00",
            "2026-01-30T09:40:00+01:00", "2026-01-31T09:00:00+01:00",
        ])
    }

    @Test func weeklyWithIntervalAndWeekStart() throws {
        // Every other week on Tuesday and Sunday: RFC 5545's own example of what WKST changes (start 1997-08-05).
        let monday = try starts("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO", from: "1997-08-05T09:00:00-04:00",
                                count: 4, zone: S.newYork)
        #expect(monday == ["1997-08-05T09:00:00-04:00", "1997-08-10T09:00:00-04:00", "1997-08-19T09:00:00-04:00", "1997-08-24T09:00:00-04:00"])
        let sunday = try starts("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", from: "1997-08-05T09:00:00-04:00",
                                count: 4, zone: S.newYork)
        #expect(sunday == ["1997-08-05T09:00:00-04:00", "1997-08-17T09:00:00-04:00", "1997-08-19T09:00:00-04:00", "1997-08-31T09:00:00-04:00"])
    }

    @Test func ruleThatNeverRepeatsHasOnlyItsStart() throws {
        // A rule built in code that asks for February 30: the start, then nothing (and no endless search).
        let rule = RecurrenceRule(frequency: .yearly, byMonth: [2], byMonthDay: [30])
        let schedule = Schedule(ScheduleElement(start: S.date("2026-01-10T09:00:00+01:00"), recurrenceRule: rule), timeZone: S.berlin)
        #expect(schedule.event(occurrence: 0)?.start == S.date("2026-01-10T09:00:00+01:00"))
        #expect(schedule.event(occurrence: 1) == nil)
        #expect(schedule.events(from: S.date("2026-02-01T00:00:00+01:00"), to: S.date("2030-01-01T00:00:00+01:00")).isEmpty)
    }

    @Test func allDayRuleEvents() throws {
        let events = try starts("FREQ=WEEKLY;BYDAY=MO,WE,FR", from: "2026-03-30T09:00:00+02:00", count: 3, duration: .allDay)
        #expect(events == ["2026-03-30T00:00:00+02:00", "2026-04-01T00:00:00+02:00", "2026-04-03T00:00:00+02:00"])
    }

    // MARK: Agreement

    /// The periodic fast path and listing from the start give the same occurrences.
    @Test(arguments: [
        "FREQ=DAILY", "FREQ=DAILY;INTERVAL=3", "FREQ=DAILY;BYHOUR=8,20;BYMINUTE=15,45", "FREQ=DAILY;BYHOUR=8,12,20;BYSETPOS=1,-1",
        "FREQ=WEEKLY", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU", "FREQ=WEEKLY;INTERVAL=3;BYDAY=SA,SU;WKST=SU",
        "FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR=7,19", "FREQ=MONTHLY", "FREQ=MONTHLY;INTERVAL=5", "FREQ=YEARLY", "FREQ=YEARLY;INTERVAL=2;BYHOUR=6,7",
        "FREQ=HOURLY;INTERVAL=7", "FREQ=MINUTELY;INTERVAL=90", "FREQ=WEEKLY;BYDAY=MO;COUNT=40", "FREQ=DAILY;UNTIL=20270101T000000Z",
    ])
    func periodicRulesMatchListing(text: String) throws {
        let rule = try RecurrenceRule(parsing: text)
        for startText in ["2026-03-26T02:30:00+01:00", "2026-01-01T00:00:00+01:00", "2026-03-04T23:59:59+01:00", "2026-10-25T02:30:00+02:00",
                          "2026-08-15T12:00:00.250+02:00"] {
            let start = S.date(startText)
            let clock = ZoneClock(S.berlin)
            let element = ScheduleElement(start: start, recurrenceRule: rule)
            let timeline = ElementTimeline(elementIndex: 0, element: element, clock: clock, calendar: { S.calendar(S.berlin) })
            #expect(timeline.isArithmetic)
            var iterator = RuleIterator(RuleExpansion(rule: rule, start: start, clock: clock, stop: nil))
            for k in 0..<400 {
                let listed = iterator.next()
                #expect(timeline.rawStart(k) == listed, "\(text) from \(startText), occurrence \(k)")
                if listed == nil { break }
            }
        }
    }

    /// Where Foundation's `Calendar.RecurrenceRule` is right, it agrees with our expansion (starts that match the rule).
    /// Left out because Foundation (swift-foundation 6.3 on Linux) gets them wrong: `FREQ=MONTHLY;BYDAY=1MO,-1FR`
    /// (it skips first Mondays and picks Fridays that are not the last), `FREQ=MONTHLY;BYDAY=MO,…,FR;BYSETPOS=-1`
    /// and `FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU`; the tests above pin those to hand-checked dates.
    @Test(arguments: [
        ("FREQ=WEEKLY;BYDAY=MO,WE,FR", "2026-03-02T08:00:00+01:00"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH", "2026-03-03T08:00:00+01:00"),
        ("FREQ=MONTHLY;BYMONTHDAY=-1", "2026-01-31T09:00:00+01:00"),
        ("FREQ=MONTHLY;BYMONTHDAY=1,15", "2026-01-01T09:00:00+01:00"),
        ("FREQ=DAILY;BYHOUR=9,18", "2026-01-30T09:15:00+01:00"),
        ("FREQ=DAILY;INTERVAL=3", "2026-03-20T02:30:00+01:00"),
        ("FREQ=HOURLY;BYMINUTE=0,30", "2026-03-28T22:00:00+01:00"),
        ("FREQ=HOURLY;INTERVAL=5", "2026-10-24T22:10:00+02:00"),
        ("FREQ=YEARLY", "2026-07-04T12:00:00+02:00"),
    ])
    func agreesWithFoundationWhereItServes(text: String, start: String) throws {
        let rule = try RecurrenceRule(parsing: text)
        var calendar = S.calendar(S.berlin)
        calendar.firstWeekday = 2
        let frequencies: [RecurrenceRule.Frequency: Calendar.RecurrenceRule.Frequency] = [
            .minutely: .minutely, .hourly: .hourly, .daily: .daily, .weekly: .weekly, .monthly: .monthly, .yearly: .yearly,
        ]
        var foundation = Calendar.RecurrenceRule(calendar: calendar, frequency: frequencies[rule.frequency]!, interval: rule.interval)
        foundation.weekdays = rule.byDay.map { entry in entry.ordinal.map { .nth($0, entry.weekday) } ?? .every(entry.weekday) }
        foundation.daysOfTheMonth = rule.byMonthDay
        foundation.hours = rule.byHour
        foundation.minutes = rule.byMinute
        let expected = Array(foundation.recurrences(of: S.date(start)).prefix(150))
        let schedule = Schedule(ScheduleElement(start: S.date(start), recurrenceRule: rule), timeZone: S.berlin)
        let actual = schedule.events(from: S.date(start), to: expected.last!.addingTimeInterval(1)).map(\.start)
        #expect(actual == expected)
    }
}
