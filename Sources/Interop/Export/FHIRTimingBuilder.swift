import CareStore
import Foundation

/// Turns a care-store schedule element into a FHIR R4 `Timing`, or says why it cannot.
///
/// ```swift
/// let element = Schedule.dailyAt(hour: 8, start: start, timeZone: berlin).elements[0]
/// let timing = try FHIRTimingBuilder().timing(for: element, timeZone: berlin)
/// // {"repeat": {"boundsPeriod": {"start": "2026-03-28T08:00:00+01:00", …}, "duration": 1, "durationUnit": "h",
/// //             "frequency": 1, "period": 1, "periodUnit": "d", "timeOfDay": ["08:00:00"]}}
/// ```
///
/// Times of day (`timeOfDay`) and weekdays (`dayOfWeek`) are on the wall clock of the schedule's time zone, as
/// StudyKit computes them, so 08:00 stays 08:00 across daylight saving. A Timing cannot name a time zone, so the
/// zone travels as the `tz-code` extension on `boundsPeriod.start` (or on each `event`), and the dates carry the
/// offset the zone has at each of them.
///
/// - A one-off element is an `event`; a timed one gets its length as `duration`.
/// - An interval of n days, weeks, months, years, hours, minutes or seconds is `frequency` 1 per `period` n of that
///   unit from `boundsPeriod.start`, with `timeOfDay` for days and longer, and `dayOfWeek` for weeks.
/// - An all-day element has no `timeOfDay` and no `duration`: it happens on the day, at any time; its bounds are
///   dates (a date as `end` includes that day).
/// - A recurrence rule becomes the same when it has a FHIR form: `FREQ` with `INTERVAL`, `COUNT` (`count`), `UNTIL`
///   (`boundsPeriod.end`), plain `BYDAY` (`dayOfWeek`; in weekly rules only every week or on one day) and
///   `BYHOUR`/`BYMINUTE`/`BYSECOND` (`timeOfDay`) in daily and weekly rules.
///
/// Everything else throws ``FHIRExportError/inexpressibleTiming(_:)`` with the reason instead of approximating:
/// intervals mixing units (a day and two hours), monthly or yearly elements that start on a day some months or years
/// lack (FHIR does not say what "every month from January 31" does; StudyKit takes the month's last day), `BYMONTH`,
/// `BYYEARDAY`, `BYMONTHDAY`, `BYSETPOS`, numbered `BYDAY` (`1MO`), several weekdays every other week, and rules
/// whose first event (their start) does not match their own `BYDAY` or `BY…` times (RFC 5545 still counts it, FHIR
/// has no way to).
public struct FHIRTimingBuilder: Sendable {
    /// Creates a builder.
    public init() {}

    /// The Timing of `element`, whose events are computed in `timeZone` (the schedule's zone).
    public func timing(for element: ScheduleElement, timeZone: TimeZone) throws(FHIRExportError) -> FHIRJSON {
        let allDay = element.duration == .allDay
        if let interval = element.interval {
            return try repeating(element, by: try unit(of: interval), timeZone: timeZone, allDay: allDay)
        }
        if let rule = element.recurrenceRule {
            return try repeating(element, rule: rule, timeZone: timeZone, allDay: allDay)
        }
        let event = allDay ? FHIRDateFormat.date(element.start, in: timeZone) : FHIRDateFormat.dateTime(element.start, in: timeZone)
        return .fields([
            "event": [.string(event)],
            "_event": [zoneExtension(timeZone)],
            "repeat": allDay ? nil : .fields(durationMembers(element.duration)),
        ])
    }

    // MARK: - Intervals

    /// A FHIR period unit and the count of it.
    private struct PeriodUnit {
        var code: String
        var count: Int
        var isCalendarDayOrLonger: Bool { ["d", "wk", "mo", "a"].contains(code) }
    }

    private static let unitCodes: [(Calendar.Component, String, String)] = [
        (.year, "a", "year"), (.month, "mo", "month"), (.weekOfYear, "wk", "week"), (.day, "d", "day"),
        (.hour, "h", "hour"), (.minute, "min", "minute"), (.second, "s", "second"),
    ]

    private func unit(of interval: DateComponents) throws(FHIRExportError) -> PeriodUnit {
        let parts = Self.unitCodes.compactMap { component, code, name -> (String, String, Int)? in
            guard let value = interval.value(for: component), value != 0 else { return nil }
            return (code, name, value)
        }
        guard parts.count == 1, let (code, _, count) = parts.first, count > 0 else {
            let words = parts.map { "\($0.2) \($0.1)\($0.2 == 1 ? "" : "s")" }.joined(separator: " and ")
            throw .inexpressibleTiming("an interval of \(words.isEmpty ? "nothing" : words) has no single FHIR period unit")
        }
        return PeriodUnit(code: code, count: count)
    }

    private func repeating(_ element: ScheduleElement, by unit: PeriodUnit, timeZone: TimeZone, allDay: Bool) throws(FHIRExportError) -> FHIRJSON {
        try checkMonthEnd(element.start, unit: unit.code, timeZone: timeZone)
        let times = unit.isCalendarDayOrLonger && !allDay ? [FHIRDateFormat.time(of: element.start, in: timeZone)] : []
        let days = unit.code == "wk" ? [FHIRDateFormat.dayOfWeek(of: element.start, in: timeZone)] : []
        return repeatTiming(element, timeZone: timeZone, allDay: allDay, count: nil, until: nil, frequency: 1,
                            period: unit.count, periodUnit: unit.code, daysOfWeek: days, timesOfDay: times)
    }

    /// Refuses monthly and yearly repetition from a day that some months (or years) lack.
    private func checkMonthEnd(_ start: Date, unit: String, timeZone: TimeZone) throws(FHIRExportError) {
        let parts = FHIRDateFormat.calendar(timeZone).dateComponents([.month, .day], from: start)
        if unit == "mo", let day = parts.day, day > 28 {
            throw .inexpressibleTiming("monthly from day \(day): FHIR does not say what happens in months without that day (StudyKit takes the month's last day)")
        }
        if unit == "a", parts.month == 2, parts.day == 29 {
            throw .inexpressibleTiming("yearly from February 29: FHIR does not say what happens in other years (StudyKit takes February 28)")
        }
    }

    // MARK: - Recurrence rules

    private func repeating(_ element: ScheduleElement, rule: RecurrenceRule, timeZone: TimeZone, allDay: Bool) throws(FHIRExportError) -> FHIRJSON {
        let text = "RRULE \(rule.description)"
        var unsupported: [String] = []
        if !rule.byMonth.isEmpty { unsupported.append("BYMONTH") }
        if !rule.byYearDay.isEmpty { unsupported.append("BYYEARDAY") }
        if !rule.byMonthDay.isEmpty { unsupported.append("BYMONTHDAY") }
        if !rule.bySetPosition.isEmpty { unsupported.append("BYSETPOS") }
        if rule.byDay.contains(where: { $0.ordinal != nil }) { unsupported.append("numbered BYDAY") }
        guard unsupported.isEmpty else {
            throw .inexpressibleTiming("\(text): \(unsupported.joined(separator: ", ")) \(unsupported.count == 1 ? "has" : "have") no FHIR Timing form")
        }
        let calendar = FHIRDateFormat.calendar(timeZone)
        let start = calendar.dateComponents([.hour, .minute, .second, .weekday], from: element.start)
        let byTime = !rule.byHour.isEmpty || !rule.byMinute.isEmpty || !rule.bySecond.isEmpty
        let startDay = FHIRDateFormat.dayOfWeekCode(calendarWeekday: start.weekday ?? 1)
        let days = rule.byDay.map { FHIRDateFormat.dayOfWeekCode($0.weekday) }

        var periodUnit: String, period = rule.interval, daysOfWeek: [String] = [], timesOfDay: [String] = []
        switch rule.frequency {
        case .secondly, .minutely, .hourly:
            guard rule.byDay.isEmpty, !byTime else {
                throw .inexpressibleTiming("\(text): BYDAY, BYHOUR, BYMINUTE and BYSECOND in a rule shorter than a day have no FHIR Timing form")
            }
            periodUnit = ["SECONDLY": "s", "MINUTELY": "min", "HOURLY": "h"][rule.frequency.rawValue]!
        case .monthly, .yearly:
            guard rule.byDay.isEmpty, !byTime else {
                throw .inexpressibleTiming("\(text): BYDAY, BYHOUR, BYMINUTE and BYSECOND in a monthly or yearly rule have no FHIR Timing form")
            }
            periodUnit = rule.frequency == .monthly ? "mo" : "a"
            try checkMonthEnd(element.start, unit: periodUnit, timeZone: timeZone)
            timesOfDay = allDay ? [] : [FHIRDateFormat.time(of: element.start, in: timeZone)]
        case .daily, .weekly:
            if byTime && allDay {
                throw .inexpressibleTiming("\(text): several all-day events a day have no FHIR Timing form")
            }
            if !rule.byDay.isEmpty {
                guard days.contains(startDay) else {
                    throw .inexpressibleTiming("\(text): the first event, on a \(startDay), is not one of BYDAY's days; FHIR cannot add it")
                }
            }
            if rule.frequency == .weekly {
                if rule.byDay.isEmpty || days == [startDay] {
                    periodUnit = "wk"
                    daysOfWeek = [startDay]
                } else if rule.interval == 1 {
                    // Every week on several days: daily, on those days only.
                    periodUnit = "d"
                    daysOfWeek = days
                } else {
                    throw .inexpressibleTiming("\(text): several weekdays every \(rule.interval) weeks have no FHIR Timing form")
                }
            } else {
                periodUnit = "d"
                if !rule.byDay.isEmpty {
                    guard rule.interval == 1 else {
                        throw .inexpressibleTiming("\(text): BYDAY every \(rule.interval) days has no FHIR Timing form")
                    }
                    daysOfWeek = days
                }
            }
            if !allDay {
                let hours = rule.byHour.isEmpty ? [start.hour ?? 0] : rule.byHour
                let minutes = rule.byMinute.isEmpty ? [start.minute ?? 0] : rule.byMinute
                let seconds = rule.bySecond.isEmpty ? [start.second ?? 0] : rule.bySecond
                let combinations = hours.flatMap { h in minutes.flatMap { m in seconds.map { s in FHIRDateFormat.time(hour: h, minute: m, second: s) } } }
                let first = FHIRDateFormat.time(hour: start.hour ?? 0, minute: start.minute ?? 0, second: start.second ?? 0)
                guard combinations.contains(first) else {
                    throw .inexpressibleTiming("\(text): the first event, at \(first), is not one of the rule's times; FHIR cannot add it")
                }
                timesOfDay = combinations.sorted()
            }
        }
        if period < 1 { period = 1 }
        var count: Int?, until: Until?
        switch rule.end {
        case .never: break
        case .count(let total): count = total
        case .until(.utc(let date)): until = .instant(date)
        case .until(.localDateTime(let year, let month, let day, let hour, let minute, let second)):
            let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            guard let date = calendar.date(from: components) else { throw .inexpressibleTiming("\(text): UNTIL is not a time in \(timeZone.identifier)") }
            until = .instant(date)
        case .until(.date(let year, let month, let day)):
            guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) else {
                throw .inexpressibleTiming("\(text): UNTIL is not a day")
            }
            until = .lastDay(date)
        }
        return repeatTiming(element, timeZone: timeZone, allDay: allDay, count: count, until: until,
                            frequency: max(1, timesOfDay.count), period: period, periodUnit: periodUnit,
                            daysOfWeek: daysOfWeek, timesOfDay: timesOfDay)
    }

    /// Where a recurrence rule's `UNTIL` ends it: at an instant (inclusive), or at the end of a day.
    private enum Until {
        case instant(Date)
        case lastDay(Date)
    }

    // MARK: - Parts

    private func repeatTiming(_ element: ScheduleElement, timeZone: TimeZone, allDay: Bool, count: Int?, until: Until?,
                              frequency: Int, period: Int, periodUnit: String, daysOfWeek: [String], timesOfDay: [String]) -> FHIRJSON {
        let start = allDay ? FHIRDateFormat.date(element.start, in: timeZone) : FHIRDateFormat.dateTime(element.start, in: timeZone)
        var end: String?
        if let elementEnd = element.end {
            // The element's end is exclusive: no event starts at it. An all-day element's last day is the day before.
            end = allDay ? FHIRDateFormat.date(elementEnd.addingTimeInterval(-0.001), in: timeZone) : FHIRDateFormat.dateTime(elementEnd, in: timeZone)
        }
        switch until {
        case .instant(let date) where element.end.map({ date < $0 }) ?? true:
            end = allDay ? FHIRDateFormat.date(date, in: timeZone) : FHIRDateFormat.dateTime(date, in: timeZone)
        case .lastDay(let day) where element.end.map({ FHIRDateFormat.calendar(timeZone).date(byAdding: .day, value: 1, to: day)! < $0 }) ?? true:
            end = FHIRDateFormat.date(day, in: timeZone)
        default:
            break
        }
        var members: [FHIRJSONMember] = [
            FHIRJSONMember(key: "boundsPeriod", value: .fields([
                "start": .string(start),
                "_start": zoneExtension(timeZone),
                "end": end.map(FHIRJSON.string),
            ])),
        ]
        if let count { members.append(FHIRJSONMember(key: "count", value: .integer(count))) }
        if !allDay, let duration = FHIRJSON.fields(durationMembers(element.duration)).members { members += duration }
        members += [
            FHIRJSONMember(key: "frequency", value: .integer(frequency)),
            FHIRJSONMember(key: "period", value: .integer(period)),
            FHIRJSONMember(key: "periodUnit", value: .string(periodUnit)),
        ]
        if !daysOfWeek.isEmpty { members.append(FHIRJSONMember(key: "dayOfWeek", value: .array(daysOfWeek.map(FHIRJSON.string)))) }
        if !timesOfDay.isEmpty { members.append(FHIRJSONMember(key: "timeOfDay", value: .array(timesOfDay.map(FHIRJSON.string)))) }
        return .fields(["repeat": .object(members)])
    }

    /// `duration` and `durationUnit` of a timed element, in the largest unit that divides it (h, min or s).
    private func durationMembers(_ duration: ScheduleDuration) -> KeyValuePairs<String, FHIRJSON?> {
        guard case .seconds(let seconds) = duration else { return [:] }
        let (value, unit): (Double, String) = seconds.truncatingRemainder(dividingBy: 3600) == 0 ? (seconds / 3600, "h")
            : seconds.truncatingRemainder(dividingBy: 60) == 0 ? (seconds / 60, "min") : (seconds, "s")
        let number: FHIRJSON = value == value.rounded() && abs(value) < 1e15 ? .integer(Int(value)) : .decimal(value)
        return ["duration": number, "durationUnit": .string(unit)]
    }

    /// The `tz-code` extension naming `timeZone`, for the `_start` or `_event` of a date.
    private func zoneExtension(_ timeZone: TimeZone) -> FHIRJSON {
        .fields(["extension": [.fields(["url": .string(FHIRTerminology.timeZoneExtension), "valueCode": .string(timeZone.identifier)])]])
    }
}
