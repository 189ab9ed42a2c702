import CareStore
import Foundation

/// Benchmarks of schedule event computation: a day's events from a schedule that started long ago (which must cost
/// no more than one that started yesterday), and the cost of each generated event.
struct ScheduleBenchmarks {
    var secondsPerMeasurement: Double

    func run() -> [BenchmarkRow] {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        let today = calendar.date(from: DateComponents(year: 2026, month: 6, day: 15))!
        let day = DateInterval(start: today, end: calendar.date(byAdding: .day, value: 1, to: today)!)
        let twentyYearsAgo = calendar.date(byAdding: .year, value: -20, to: today)!
        let yesterday = calendar.date(byAdding: .day, value: -1, to: today)!

        func microsecondsPerDay(_ schedule: Schedule, events expected: Int) -> Double {
            let rate = measureOperationsPerSecond(seconds: secondsPerMeasurement) {
                let events = schedule.events(overlapping: day)
                precondition(events.count == expected, "expected \(expected) events, got \(events.count)")
            }
            return 1e6 / rate
        }
        let old = microsecondsPerDay(Schedule.dailyAt(hour: 8, start: twentyYearsAgo, timeZone: berlin), events: 1)
        let recent = microsecondsPerDay(Schedule.dailyAt(hour: 8, start: yesterday, timeZone: berlin), events: 1)
        // 2026-06-15 is a Monday.
        let weeklyRule = try! RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE,FR")
        let weekly = microsecondsPerDay(Schedule(ScheduleElement(start: twentyYearsAgo, recurrenceRule: weeklyRule), timeZone: berlin), events: 1)
        let monthlyRule = try! RecurrenceRule(parsing: "FREQ=MONTHLY;BYMONTHDAY=15,-1")
        let monthly = microsecondsPerDay(Schedule(ScheduleElement(start: twentyYearsAgo, recurrenceRule: monthlyRule), timeZone: berlin), events: 1)

        let yearStart = calendar.date(from: DateComponents(year: 2026, month: 1, day: 1))!
        let year = DateInterval(start: yearStart, end: calendar.date(byAdding: .year, value: 1, to: yearStart)!)
        func nanosecondsPerEvent(_ schedule: Schedule) -> Double {
            var count = 0
            let rate = measureOperationsPerSecond(seconds: secondsPerMeasurement) {
                count = schedule.events(overlapping: year).count
                precondition(count == 8760)
            }
            return 1e9 / (rate * Double(count))
        }
        let hourly = nanosecondsPerEvent(Schedule(ScheduleElement(start: yearStart, interval: DateComponents(hour: 1)), timeZone: berlin))
        let hourlyRule = nanosecondsPerEvent(Schedule(ScheduleElement(start: yearStart, recurrenceRule: RecurrenceRule(frequency: .hourly)),
                                                      timeZone: berlin))

        let composite = Schedule(composing: [
            Schedule.dailyAt(hour: 8, start: twentyYearsAgo, timeZone: berlin),
            Schedule.weeklyAt(weekdays: [.monday, .thursday], hour: 18, start: twentyYearsAgo, timeZone: berlin),
        ])
        let occurrence = 1e6 / measureOperationsPerSecond(seconds: secondsPerMeasurement) {
            precondition(composite.event(occurrence: 9_000) != nil)
        }

        return [
            BenchmarkRow(name: "list one day's events, daily schedule started 20 years ago", value: old, unit: "µs"),
            BenchmarkRow(name: "list one day's events, daily schedule started yesterday", value: recent, unit: "µs",
                         note: String(format: "20 years ago costs %.2f× this", old / recent)),
            BenchmarkRow(name: "list one day's events, FREQ=WEEKLY;BYDAY=MO,WE,FR from 20 years ago", value: weekly, unit: "µs",
                         note: "arithmetic"),
            BenchmarkRow(name: "list one day's events, FREQ=MONTHLY;BYMONTHDAY=15,-1 from 20 years ago", value: monthly, unit: "µs",
                         note: "listed from the start"),
            BenchmarkRow(name: "per generated occurrence, hourly schedule over one year", value: hourly, unit: "ns",
                         note: "interval {hours: 1}, 8760 events"),
            BenchmarkRow(name: "per generated occurrence, FREQ=HOURLY over one year", value: hourlyRule, unit: "ns"),
            BenchmarkRow(name: "event(occurrence: 9000), daily + weekly composite", value: occurrence, unit: "µs"),
        ]
    }
}
