import Foundation
import JSONDiagnostics

/// One problem in a schedule: where (a JSON path such as `elements[1].rrule`) and what.
public typealias ScheduleProblem = DocumentProblem

/// Every problem found in a schedule file, thrown by ``Schedule/load(_:)``.
public struct ScheduleValidationFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every problem, in document order.
    public var problems: [ScheduleProblem]

    /// Creates a failure listing `problems`.
    public init(problems: [ScheduleProblem]) { self.problems = problems }

    /// The problems, one per line, each as `path: message`.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

extension Schedule {
    /// Reads schedule JSON and checks everything, throwing every problem with its JSON path:
    /// `elements[1].rrule: BYDAY: 'XX' is not a weekday`, `elements[0].end: must be after start`, or for malformed
    /// JSON `malformed JSON: line 3, column 14: …`.
    ///
    /// ```swift
    /// do {
    ///     let schedule = try Schedule.load(data)
    /// } catch {
    ///     for problem in error.problems { print("schedule.json: \(problem)") }
    /// }
    /// ```
    public static func load(_ data: Data) throws(ScheduleValidationFailure) -> Schedule {
        let value: JSONTree
        do {
            value = try JSONTree(data: data)
        } catch {
            throw ScheduleValidationFailure(problems: [ScheduleProblem(path: "", message: "malformed JSON: \(error.locatedMessage)")])
        }
        var reader = ScheduleReader()
        let schedule = reader.schedule(value)
        guard let schedule, reader.problems.isEmpty else { throw ScheduleValidationFailure(problems: reader.problems) }
        return schedule
    }

    /// Every problem of a schedule built in code, with JSON paths as ``load(_:)`` reports them; empty when valid.
    /// ``events(overlapping:)`` works on any schedule, but a schedule with problems may not mean what it seems
    /// (an element whose interval does not move forward happens once).
    public var problems: [ScheduleProblem] {
        var problems: [ScheduleProblem] = []
        if elements.isEmpty { problems.append(ScheduleProblem(path: "elements", message: "a schedule needs at least one element")) }
        for (index, element) in elements.enumerated() {
            for problem in element.problems(in: timeZone) {
                problems.append(ScheduleProblem(path: problem.path.isEmpty ? "elements[\(index)]" : "elements[\(index)].\(problem.path)",
                                                message: problem.message))
            }
        }
        return problems
    }
}

extension ScheduleElement {
    /// What is wrong with the element's meaning, with paths relative to the element.
    func problems(in timeZone: TimeZone) -> [ScheduleProblem] {
        var problems: [ScheduleProblem] = []
        func report(_ path: String, _ message: String) { problems.append(ScheduleProblem(path: path, message: message)) }
        if let end, end <= start { report("end", "must be after start") }
        if case .seconds(let seconds) = duration, !(seconds > 0 && seconds.isFinite) {
            report("duration", "must be longer than 0 seconds (\(seconds))")
        }
        var repeatsWithinADay = false
        switch repetition {
        case .once:
            break
        case .interval(let interval):
            let supported = Set(DateComponents.scheduleIntervalKeys.map(\.component))
            let unsupported: [Calendar.Component] = [.era, .weekday, .weekdayOrdinal, .quarter, .weekOfMonth, .yearForWeekOfYear, .nanosecond]
            if unsupported.contains(where: { !supported.contains($0) && interval.value(for: $0) != nil }) {
                report("interval", "only years, months, weeks (weekOfYear), days, hours, minutes and seconds are supported")
            }
            var allZero = true
            for (key, component) in DateComponents.scheduleIntervalKeys {
                guard let value = interval.value(for: component) else { continue }
                if value < 0 { report("interval.\(key)", "must not be negative (\(value))") }
                if value != 0 { allZero = false }
            }
            if allZero { report("interval", "must not be zero; leave interval out for an element that happens once") }
            repeatsWithinADay = DateComponents.scheduleIntervalKeys.prefix(4).allSatisfy { (interval.value(for: $0.component) ?? 0) == 0 }
        case .rule(let rule):
            for problem in rule.problems { report("rrule", problem.description) }
            if case .until = rule.end {
                let expansion = RuleExpansion(rule: rule, start: start, clock: ZoneClock(timeZone), stop: nil)
                if let limit = expansion.untilLimit, !expansion.isWithinUntil(start) || limit < start {
                    report("rrule", "UNTIL is before start, so the rule has only its start")
                }
            }
            repeatsWithinADay = [.secondly, .minutely, .hourly].contains(rule.frequency)
                || max(1, rule.byHour.count) * max(1, rule.byMinute.count) * max(1, rule.bySecond.count) > 1
        }
        if duration == .allDay && repeatsWithinADay {
            report("duration", "an all-day element must not repeat more than once a day")
        }
        return problems
    }
}

/// Turns decoding errors and malformed JSON into schedule problems.
enum ScheduleValidation {
    /// A decoding error as a problem at its JSON path.
    static func problem(from error: DecodingError) -> ScheduleProblem {
        switch error {
        case .dataCorrupted(let context):
            return ScheduleProblem(path: jsonPath(context.codingPath), message: context.debugDescription)
        case .keyNotFound(let key, let context):
            let base = jsonPath(context.codingPath)
            return ScheduleProblem(path: base.isEmpty ? key.stringValue : "\(base).\(key.stringValue)", message: "is required but missing")
        case .typeMismatch(let type, let context):
            return ScheduleProblem(path: jsonPath(context.codingPath), message: "expected \(type); \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            return ScheduleProblem(path: jsonPath(context.codingPath), message: "expected \(type), found null")
        @unknown default:
            return ScheduleProblem(path: "", message: "\(error)")
        }
    }

    /// `elements[1].interval` from a coding path.
    static func jsonPath(_ codingPath: [any CodingKey]) -> String { JSONDiagnostics.path(codingPath) }
}
