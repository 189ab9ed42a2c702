import Foundation
import JSONDiagnostics

extension Schedule {
    /// Reads a schedule in its JSON shape (see ``Schedule``), checking everything ``load(_:)`` checks; the first
    /// problems become the error's description.
    public init(from decoder: any Decoder) throws {
        let value = try JSONTree(from: decoder)
        var reader = ScheduleReader()
        guard let schedule = reader.schedule(value), reader.problems.isEmpty else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath,
                                                                    debugDescription: reader.problems.map(\.description).joined(separator: "; ")))
        }
        self = schedule
    }

    /// Writes the schedule in its JSON shape, with dates in the offset of ``timeZone``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: MemberKey.self)
        try container.encode(timeZone.identifier, forKey: MemberKey("timeZone"))
        var list = container.nestedUnkeyedContainer(forKey: MemberKey("elements"))
        for element in elements { try list.encode(ElementEncoding(element: element, timeZone: timeZone)) }
    }
}

/// Writes an element with its dates in a zone's offset, keys in the order study authors write them.
struct ElementEncoding: Encodable {
    var element: ScheduleElement
    var timeZone: TimeZone

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: MemberKey.self)
        try container.encode(ScheduleDate.string(from: element.start, in: timeZone), forKey: MemberKey("start"))
        if let end = element.end { try container.encode(ScheduleDate.string(from: end, in: timeZone), forKey: MemberKey("end")) }
        switch element.repetition {
        case .once:
            break
        case .interval(let interval):
            var nested = container.nestedContainer(keyedBy: MemberKey.self, forKey: MemberKey("interval"))
            for (key, component) in DateComponents.scheduleIntervalKeys {
                if let value = interval.value(for: component) { try nested.encode(value, forKey: MemberKey(key)) }
            }
        case .rule(let rule):
            try container.encode(rule.description, forKey: MemberKey("rrule"))
        }
        try container.encode(element.duration, forKey: MemberKey("duration"))
        if let text = element.text { try container.encode(text, forKey: MemberKey("text")) }
        if !element.targetValues.isEmpty { try container.encode(element.targetValues, forKey: MemberKey("targetValues")) }
    }
}

/// ISO 8601 dates with an offset, as schedule JSON and the command line write them.
enum ScheduleDate {
    /// Parses `2026-03-28T08:00:00+01:00` (or `Z`, with or without fractional seconds); nil without an offset.
    static func date(from text: String) -> Date? {
        if let date = wholeSecondDate(from: text) { return date }
        guard text.count >= 20, text.contains("T") else { return nil }
        let tail = text.suffix(6)
        guard text.hasSuffix("Z") || tail.hasPrefix("+") || tail.hasPrefix("-") else { return nil }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }

    /// `2026-03-28T08:00:00+01:00` or `2026-03-28T07:00:00Z` exactly (whole seconds, every field in range), read by
    /// hand: how stored schedules write their dates, and a tenth of the cost of the format style. Nil for anything
    /// else, which the format style then reads.
    static func wholeSecondDate(from text: String) -> Date? {
        guard text.utf8.count == 20 || text.utf8.count == 25 else { return nil }
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
              bytes[16] == UInt8(ascii: ":"), let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              year >= 1900, (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month), hour < 24, minute < 60, second < 60
        else { return nil }
        var offset = 0
        if bytes.count == 20 {
            guard bytes[19] == UInt8(ascii: "Z") else { return nil }
        } else {
            guard bytes[19] == UInt8(ascii: "+") || bytes[19] == UInt8(ascii: "-"), bytes[22] == UInt8(ascii: ":"),
                  let offsetHours = number(20..<22), let offsetMinutes = number(23..<25), offsetHours * 60 + offsetMinutes <= 18 * 60, offsetMinutes < 60
            else { return nil }
            offset = (offsetHours * 3600 + offsetMinutes * 60) * (bytes[19] == UInt8(ascii: "-") ? -1 : 1)
        }
        let seconds = CivilDate.dayNumber(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// Prints a date with the offset of `timeZone` (`2026-03-29T08:00:00+02:00`; `Z` for UTC), with
    /// milliseconds only when the instant has them.
    static func string(from date: Date, in timeZone: TimeZone) -> String {
        let hasFraction = date.timeIntervalSince1970.rounded(.down) != date.timeIntervalSince1970
        var style = Date.ISO8601FormatStyle(includingFractionalSeconds: hasFraction, timeZone: timeZone)
        style = style.year().month().day().time(includingFractionalSeconds: hasFraction).timeZone(separator: .colon)
        return date.formatted(style)
    }
}

/// Reads schedule JSON part by part, collecting every problem with its JSON path.
struct ScheduleReader {
    private(set) var problems: [ScheduleProblem] = []

    private mutating func report(_ path: String, _ message: String) {
        problems.append(ScheduleProblem(path: path, message: message))
    }

    private static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : key.hasPrefix("[") ? path + key : "\(path).\(key)"
    }

    private mutating func reportUnknownKeys(_ members: [JSONTree.Member], allowed: [String], path: String, what: String) {
        for member in members where !allowed.contains(member.key) {
            report(Self.join(path, member.key), "is not a key of \(what) (\(allowed.joined(separator: ", ")))")
        }
    }

    mutating func schedule(_ value: JSONTree) -> Schedule? {
        guard case .object(let members) = value else {
            report("", "expected an object with timeZone and elements, found \(value.kindDescription)")
            return nil
        }
        reportUnknownKeys(members, allowed: ["timeZone", "elements"], path: "", what: "a schedule")
        var zone: TimeZone?
        switch value["timeZone"] {
        case nil, .null?:
            report("timeZone", "is required, like \"Europe/Berlin\"")
        case .string(let identifier)?:
            zone = TimeZone(identifier: identifier)
            if zone == nil { report("timeZone", "'\(identifier)' is not a time zone identifier (like Europe/Berlin)") }
        case let other?:
            report("timeZone", "expected a time zone identifier string, found \(other.kindDescription)")
        }
        var elements: [ScheduleElement] = []
        var complete = true
        switch value["elements"] {
        case nil, .null?:
            report("elements", "is required")
            complete = false
        case .array(let items)?:
            if items.isEmpty { report("elements", "a schedule needs at least one element") }
            for (index, item) in items.enumerated() {
                if let element = element(item, path: "elements[\(index)]", timeZone: zone ?? .gmt) {
                    elements.append(element)
                } else {
                    complete = false
                }
            }
        case let other?:
            report("elements", "expected an array of elements, found \(other.kindDescription)")
            complete = false
        }
        guard let zone, complete else { return nil }
        return Schedule(elements: elements, timeZone: zone)
    }

    /// Reads one element; nil when a required part is unreadable. Checks its meaning too (end after start…).
    mutating func element(_ value: JSONTree, path: String, timeZone: TimeZone = .gmt) -> ScheduleElement? {
        guard case .object(let members) = value else {
            report(path, "expected an element object with at least a start, found \(value.kindDescription)")
            return nil
        }
        reportUnknownKeys(members, allowed: ["start", "end", "interval", "rrule", "duration", "text", "targetValues"],
                          path: path, what: "a schedule element")
        let start = date(value["start"], path: Self.join(path, "start"), required: true)
        let end = date(value["end"], path: Self.join(path, "end"), required: false)
        let hasEnd = value["end"].map { !$0.isNull } ?? false
        var readable = start != nil && (!hasEnd || end != nil)

        var element = ScheduleElement(start: start ?? Date(timeIntervalSince1970: 0), end: end)
        if let intervalValue = value["interval"], !intervalValue.isNull {
            if let interval = interval(intervalValue, path: Self.join(path, "interval")) {
                element.interval = interval
            } else {
                readable = false
            }
        }
        if let ruleValue = value["rrule"], !ruleValue.isNull {
            let rulePath = Self.join(path, "rrule")
            if element.interval != nil || (value["interval"].map { !$0.isNull } ?? false) {
                report(rulePath, "cannot be used together with interval; give one of them")
                readable = false
            } else if case .string(let text) = ruleValue {
                do {
                    element.recurrenceRule = try RecurrenceRule(parsing: text)
                } catch {
                    report(rulePath, error.description)
                    readable = false
                }
            } else {
                report(rulePath, "expected an RRULE string like \"FREQ=WEEKLY;BYDAY=MO\", found \(ruleValue.kindDescription)")
                readable = false
            }
        }
        if let durationValue = value["duration"], !durationValue.isNull {
            if let duration = duration(durationValue, path: Self.join(path, "duration")) {
                element.duration = duration
            } else {
                readable = false
            }
        }
        switch value["text"] {
        case nil, .null?: break
        case .string(let text)?: element.text = text
        case let other?:
            report(Self.join(path, "text"), "expected a string, found \(other.kindDescription)")
            readable = false
        }
        if let targets = value["targetValues"], !targets.isNull {
            if let values = targetValues(targets, path: Self.join(path, "targetValues")) {
                element.targetValues = values
            } else {
                readable = false
            }
        }
        guard readable else { return nil }
        for problem in element.problems(in: timeZone) {
            report(problem.path.isEmpty ? path : Self.join(path, problem.path), problem.message)
        }
        return element
    }

    private mutating func date(_ value: JSONTree?, path: String, required: Bool) -> Date? {
        switch value {
        case nil, .null?:
            if required { report(path, "is required, an ISO 8601 date and time with an offset like 2026-03-28T08:00:00+01:00") }
            return nil
        case .string(let text)?:
            guard let date = ScheduleDate.date(from: text) else {
                report(path, "'\(text)' is not an ISO 8601 date and time with an offset, like 2026-03-28T08:00:00+01:00")
                return nil
            }
            return date
        case let other?:
            report(path, "expected an ISO 8601 date and time string, found \(other.kindDescription)")
            return nil
        }
    }

    private mutating func interval(_ value: JSONTree, path: String) -> DateComponents? {
        guard case .object(let members) = value else {
            report(path, "expected an object like {\"days\": 1}, found \(value.kindDescription)")
            return nil
        }
        let keys = DateComponents.scheduleIntervalKeys
        var components = DateComponents()
        var readable = true
        for entry in members {
            let (key, member) = (entry.key, entry.value)
            guard let component = keys.first(where: { $0.key == key })?.component else {
                report(Self.join(path, key), "is not an interval key (years, months, weeks, days, hours, minutes or seconds)")
                readable = false
                continue
            }
            // A whole number however it is written (`1`, `1.0`, `1e0`), as JSON readers take it.
            guard let number = member.doubleValue.flatMap({ Int(exactly: $0) }) else {
                report(Self.join(path, key), "expected a whole number, found \(member.doubleValue.map { "\($0)" } ?? member.kindDescription)")
                readable = false
                continue
            }
            guard number >= 0 else {
                report(Self.join(path, key), "must not be negative (\(number))")
                readable = false
                continue
            }
            components.setValue(number, for: component)
        }
        guard readable else { return nil }
        if members.isEmpty || members.allSatisfy({ $0.value.doubleValue == 0 }) {
            report(path, "must not be zero; leave interval out for an element that happens once")
            return nil
        }
        return components
    }

    mutating func duration(_ value: JSONTree, path: String) -> ScheduleDuration? {
        let expected = "expected \"allDay\" or one of {\"seconds\": n}, {\"minutes\": n}, {\"hours\": n}"
        switch value {
        case .string("allDay"):
            return .allDay
        case .object(let members):
            guard members.count == 1, let key = members.first?.key, let member = members.first?.value else {
                report(path, members.isEmpty ? "\(expected), found an empty object" : "give exactly one of seconds, minutes or hours")
                return nil
            }
            let units = ["seconds": 1.0, "minutes": 60.0, "hours": 3600.0]
            guard let unit = units[key] else {
                report(Self.join(path, key), "is not a duration unit (seconds, minutes or hours)")
                return nil
            }
            guard let number = member.doubleValue else {
                report(Self.join(path, key), "expected a number, found \(member.kindDescription)")
                return nil
            }
            guard number > 0, number.isFinite else {
                report(Self.join(path, key), "must be greater than 0 (\(Int(exactly: number).map(String.init) ?? "\(number)"))")
                return nil
            }
            return .seconds(number * unit)
        case .string(let text):
            report(path, "\(expected), found '\(text)'")
            return nil
        default:
            report(path, "\(expected), found \(value.kindDescription)")
            return nil
        }
    }

    private mutating func targetValues(_ value: JSONTree, path: String) -> [OutcomeValue]? {
        guard case .array(let items) = value else {
            report(path, "expected an array of outcome values, found \(value.kindDescription)")
            return nil
        }
        var values: [OutcomeValue] = []
        for (index, item) in items.enumerated() {
            let itemPath = "\(path)[\(index)]"
            do {
                let data = try JSONEncoder().encode(item)
                values.append(try JSONDecoder().decode(OutcomeValue.self, from: data))
            } catch let error as DecodingError {
                let problem = ScheduleValidation.problem(from: error)
                report(problem.path.isEmpty ? itemPath : Self.join(itemPath, problem.path), problem.message)
            } catch {
                report(itemPath, "\(error)")
            }
        }
        return values.count == items.count ? values : nil
    }
}
