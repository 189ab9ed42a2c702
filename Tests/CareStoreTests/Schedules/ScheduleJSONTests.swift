import Foundation
import Testing
import JSONDiagnostics
@testable import CareStore

@Suite("Schedule JSON")
struct ScheduleJSONTests {
    typealias S = ScheduleTestSupport

    static let example = #"""
    {"timeZone": "Europe/Berlin", "elements": [
      {"start": "2026-03-28T08:00:00+01:00", "end": "2026-05-01T00:00:00+02:00", "interval": {"days": 1},
       "duration": {"hours": 1}, "text": "after breakfast"},
      {"start": "2026-03-30T00:00:00+02:00", "rrule": "FREQ=WEEKLY;BYDAY=MO,WE,FR", "duration": "allDay"}
    ]}
    """#

    private func problems(_ json: String) -> [String] {
        do {
            _ = try Schedule.load(Data(json.utf8))
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func loadsTheExample() throws {
        let schedule = try Schedule.load(Data(Self.example.utf8))
        #expect(schedule.timeZone == S.berlin)
        #expect(schedule.elements == [
            ScheduleElement(start: S.date("2026-03-28T08:00:00+01:00"), end: S.date("2026-05-01T00:00:00+02:00"),
                            interval: DateComponents(day: 1), duration: .hours(1), text: "after breakfast"),
            ScheduleElement(start: S.date("2026-03-30T00:00:00+02:00"), recurrenceRule: try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE,FR"),
                            duration: .allDay),
        ])
        #expect(try JSONDecoder().decode(Schedule.self, from: Data(Self.example.utf8)) == schedule)
    }

    @Test func roundTripsInTheSameShape() throws {
        let schedule = Schedule(elements: [
            ScheduleElement(start: S.date("2026-03-28T08:00:00+01:00"), end: S.date("2026-05-01T00:00:00+02:00"),
                            interval: DateComponents(year: 1, month: 2, day: 3, hour: 4, minute: 5, second: 6, weekOfYear: 7),
                            duration: .minutes(90), text: "after breakfast", targetValues: [OutcomeValue(.integer(10), kind: "repetitions")]),
            ScheduleElement(start: S.date("2026-07-30T00:00:00.500+02:00"), recurrenceRule: try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=-1FR"),
                            duration: .seconds(45)),
            ScheduleElement(start: S.date("2026-03-30T00:00:00+02:00"), duration: .allDay),
        ], timeZone: S.berlin)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(schedule)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix(#"{"elements":[{"duration":{"minutes":90},"end":"2026-05-01T00:00:00+02:00","interval":{"days":3,"hours":4,"minutes":5,"months":2,"seconds":6,"weeks":7,"years":1},"start":"2026-03-28T08:00:00+01:00","targetValues":["#))
        #expect(text.contains(#"{"duration":{"seconds":45},"rrule":"FREQ=MONTHLY;BYDAY=-1FR","start":"2026-07-30T00:00:00.500+02:00"}"#))
        #expect(text.hasSuffix(#"{"duration":"allDay","start":"2026-03-30T00:00:00+02:00"}],"timeZone":"Europe/Berlin"}"#))
        #expect(try Schedule.load(data) == schedule)
        #expect(try JSONDecoder().decode(Schedule.self, from: data) == schedule)
        // Elements and durations on their own.
        let element = schedule.elements[0]
        #expect(try JSONDecoder().decode(ScheduleElement.self, from: JSONEncoder().encode(element)) == element)
        #expect(String(decoding: try JSONEncoder().encode([ScheduleDuration.allDay, .hours(2), .seconds(1.5)]), as: UTF8.self)
                == #"["allDay",{"hours":2},{"seconds":1.5}]"#)
        #expect(try JSONDecoder().decode([ScheduleDuration].self, from: Data(#"["allDay",{"minutes":2}]"#.utf8)) == [.allDay, .minutes(2)])
        // Events are plain Codable values.
        let event = try #require(schedule.event(occurrence: 0))
        #expect(try JSONDecoder().decode(ScheduleEvent.self, from: JSONEncoder().encode(event)) == event)
    }

    @Test func reportsEveryProblemWithItsPath() {
        let json = #"""
        {"timeZone": "Europe/Berlin", "colour": "red", "elements": [
          {"start": "2026-03-28T08:00:00+01:00", "end": "2026-03-01T00:00:00+01:00", "interval": {"days": 1}},
          {"start": "2026-03-28T08:00:00+01:00", "rrule": "FREQ=WEEKLY;BYDAY=MO,XX"},
          {"start": "2026-03-28T08:00:00", "interval": {"days": -1, "fortnights": 1}},
          {"start": "2026-03-28T08:00:00+01:00", "interval": {"days": 0}},
          {"start": "2026-03-28T08:00:00+01:00", "interval": {"days": 1}, "rrule": "FREQ=DAILY"},
          {"start": "2026-03-28T08:00:00+01:00", "duration": {"hours": 1, "minutes": 30}},
          {"start": "2026-03-28T08:00:00+01:00", "duration": {"hours": 0}},
          {"start": "2026-03-28T08:00:00+01:00", "duration": "forever"},
          {"end": "2026-03-28T08:00:00+01:00", "text": 5},
          {"start": "2026-03-28T08:00:00+01:00", "interval": {"hours": 6}, "duration": "allDay"},
          {"start": "2026-03-28T08:00:00+01:00", "rrule": "FREQ=DAILY;UNTIL=20260301"},
          {"start": "2026-03-28T08:00:00+01:00", "targetValues": [{"value": {"integer": 3}}, {"kind": "x"}]},
          {"start": "2026-03-28T08:00:00+01:00", "interval": {"days": 1.5}, "duration": {"weeks": 1}}
        ]}
        """#
        #expect(problems(json) == [
            "colour: is not a key of a schedule (timeZone, elements)",
            "elements[0].end: must be after start",
            "elements[1].rrule: BYDAY: 'XX' is not a weekday",
            "elements[2].start: '2026-03-28T08:00:00' is not an ISO 8601 date and time with an offset, like 2026-03-28T08:00:00+01:00",
            "elements[2].interval.days: must not be negative (-1)",
            "elements[2].interval.fortnights: is not an interval key (years, months, weeks, days, hours, minutes or seconds)",
            "elements[3].interval: must not be zero; leave interval out for an element that happens once",
            "elements[4].rrule: cannot be used together with interval; give one of them",
            "elements[5].duration: give exactly one of seconds, minutes or hours",
            "elements[6].duration.hours: must be greater than 0 (0)",
            #"elements[7].duration: expected "allDay" or one of {"seconds": n}, {"minutes": n}, {"hours": n}, found 'forever'"#,
            "elements[8].start: is required, an ISO 8601 date and time with an offset like 2026-03-28T08:00:00+01:00",
            "elements[8].text: expected a string, found a number",
            "elements[9].duration: an all-day element must not repeat more than once a day",
            "elements[10].rrule: UNTIL is before start, so the rule has only its start",
            "elements[11].targetValues[1].value: is required but missing",
            "elements[12].interval.days: expected a whole number, found 1.5",
            "elements[12].duration.weeks: is not a duration unit (seconds, minutes or hours)",
        ])
    }

    @Test func wholeDocumentProblems() {
        #expect(problems(#"{"elements": []}"#) == [#"timeZone: is required, like "Europe/Berlin""#, "elements: a schedule needs at least one element"])
        #expect(problems(#"{"timeZone": "Europe/Berln", "elements": 3}"#) == [
            "timeZone: 'Europe/Berln' is not a time zone identifier (like Europe/Berlin)",
            "elements: expected an array of elements, found a number",
        ])
        #expect(problems("[]") == ["expected an object with timeZone and elements, found an array"])
        #expect(problems(#"{"timeZone": "UTC", "elements": ["daily"]}"#) == ["elements[0]: expected an element object with at least a start, found a string"])
    }

    @Test func aKeyGivenTwiceIsRefusedWithItsPlaceRatherThanOneValueKept() {
        // JSON readers disagree on which of two equal keys wins; a schedule that says two things is refused.
        let json = "{\"timeZone\": \"UTC\",\n  \"elements\": [{\"start\": \"2026-03-28T08:00:00Z\",\n    \"start\": \"2026-04-28T08:00:00Z\"}]}"
        #expect(problems(json) == [#"malformed JSON: line 3, column 5: elements[0]: the member name "start" is given twice"#])
    }

    @Test func unknownKeysAreReportedInTheOrderTheyAreWritten() {
        // Read exactly as written, not through a decoder that sorts or loses member order.
        #expect(problems(#"{"timeZone": "UTC", "zone": 1, "elements": [{"start": "2026-03-28T08:00:00Z"}], "alerts": []}"#) == [
            "zone: is not a key of a schedule (timeZone, elements)",
            "alerts: is not a key of a schedule (timeZone, elements)",
        ])
    }

    @Test func aWholeNumberMayBeWrittenWithAFractionAndTheFileMayStartWithAByteOrderMark() throws {
        let json = #"{"timeZone": "UTC", "elements": [{"start": "2026-03-28T08:00:00Z", "interval": {"days": 1.0, "hours": 2e0}}]}"#
        let schedule = try Schedule.load(Data([0xEF, 0xBB, 0xBF] + Array(json.utf8)))
        guard case .interval(let interval) = schedule.elements.first?.repetition else { Issue.record("no interval: \(schedule)"); return }
        #expect(interval.day == 1 && interval.hour == 2)
        #expect(problems(#"{"timeZone": "UTC", "elements": [{"start": "2026-03-28T08:00:00Z", "interval": {"days": 1.5}}]}"#)
                == ["elements[0].interval.days: expected a whole number, found 1.5"])
    }

    @Test func malformedJSONGivesLineAndColumn() {
        let json = "{\"timeZone\": \"Europe/Berlin\",\n  \"elements\": [\n    {\"start\": \"2026-03-28T08:00:00+01:00\" \"interval\": {\"days\": 1}}\n  ]\n}"
        let found = problems(json)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("malformed JSON: line 3, column ") == true, "\(found)")
        #expect(JSONDiagnostics.lineAndColumn(ofByte: 5, in: Data("ab\ncdé\n".utf8)) == (2, 3))
    }

    @Test func decodingErrorsCarryTheProblems() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Schedule.self, from: Data(#"{"timeZone": "UTC", "elements": [{"start": "x"}]}"#.utf8))
        }
        do {
            _ = try JSONDecoder().decode(Schedule.self, from: Data(#"{"timeZone": "UTC", "elements": [{"start": "x"}]}"#.utf8))
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.hasPrefix("elements[0].start: 'x' is not an ISO 8601 date"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// Through a `Decoder` (the generic tree) a schedule must read what ``Schedule/load(_:)`` reads and report what it
    /// reports, in the usual shape and out of it.
    @Test(arguments: [
        Self.example,
        #"{"timeZone": "Europe/Berlin", "elements": [{"start": "2026-03-28T08:00:00+01:00", "duration": {"minutes": 1.5}, "interval": {"weeks": 2, "days": 1.0}}]}"#,
        #"{"timeZone": "Europe/Berlin", "elements": [{"start": "2026-03-28T08:00:00+01:00", "end": null, "duration": "allDay"}]}"#,
        #"{"timeZone": "Europe/Berlin", "elements": [{"start": "2026-03-28T08:00:00+01:00", "targetValues": [{"value": 3, "kind": "steps"}]}]}"#,
        #"{"timeZone": "Europe/Berlin", "elements": [{"start": "2026-03-28T08:00:00+01:00", "duration": "often"}]}"#,
        #"{"timeZone": "Europe/Berlin", "elements": [{"start": "2026-03-28T08:00:00+01:00", "interval": {"days": "1"}}]}"#,
        #"{"timeZone": "Europe/Berlin", "elements": [{"start": "2026-03-28T08:00:00+01:00", "repeat": "daily"}], "owner": "x"}"#,
        #"{"timeZone": 7, "elements": [{"start": 20260328}]}"#,
        #"{"elements": []}"#,
    ])
    func decoderReadsAndReportsAsLoadDoes(json: String) {
        enum Reading: Equatable { case schedule(Schedule), problems(String) }
        let loaded: Reading
        do { loaded = .schedule(try Schedule.load(Data(json.utf8))) } catch { loaded = .problems(error.problems.map(\.description).joined(separator: "; ")) }
        let decoded: Reading
        do {
            decoded = .schedule(try JSONDecoder().decode(Schedule.self, from: Data(json.utf8)))
        } catch let DecodingError.dataCorrupted(context) {
            decoded = .problems(context.debugDescription)
        } catch {
            decoded = .problems("\(error)")
        }
        #expect(decoded == loaded)
    }

    /// Dates with an offset and whole seconds are read by hand: each must be the instant the format style reads, and
    /// what the hand reading leaves (a fraction, a day a month does not have, an offset out of range) is left to it.
    @Test func datesReadByHandAreTheFormatStylesInstants() {
        var generator = SystemRandomNumberGenerator()
        let style = Date.ISO8601FormatStyle()
        for _ in 0..<2_000 {
            let offsetMinutes = Int.random(in: -56...56, using: &generator) * 15  // the real world's offsets, -14:00 to +14:00
            let zone = TimeZone(secondsFromGMT: offsetMinutes * 60)!
            let date = Date(timeIntervalSince1970: Double(Int.random(in: -2_000_000_000...4_000_000_000, using: &generator)))
            let text = ScheduleDate.string(from: date, in: zone)
            #expect(ScheduleDate.wholeSecondDate(from: text) == date, "\(text)")
            #expect(ScheduleDate.wholeSecondDate(from: text) == (try? style.parse(text)), "\(text)")
        }
        for text in ["2026-03-28T08:00:00.500+01:00", "2026-02-29T08:00:00Z", "2026-03-28T24:00:00Z", "2026-03-28T08:00:60Z",
                     "2026-03-28 08:00:00Z", "2026-03-28T08:00:00+19:00", "2026-03-28T08:00:00", "1899-12-31T23:59:59Z",
                     "２026-03-28T08:00:00Z", "2026-03-28T08:00:00+01:00 "] {
            #expect(ScheduleDate.wholeSecondDate(from: text) == nil, "\(text)")
        }
        #expect(ScheduleDate.date(from: "2026-03-28T08:00:00.500+01:00") == S.date("2026-03-28T07:00:00.500Z"))
        #expect(ScheduleDate.date(from: "2028-02-29T23:59:59-03:30") == Date(timeIntervalSince1970: 1_835_494_199))
    }

    @Test func problemsOfSchedulesBuiltInCode() {
        let start = S.date("2026-03-28T08:00:00+01:00")
        var element = ScheduleElement(start: start, end: start, interval: DateComponents(day: 0), duration: .seconds(0))
        #expect(Schedule(element, timeZone: S.berlin).problems.map(\.description) == [
            "elements[0].end: must be after start",
            "elements[0].duration: must be longer than 0 seconds (0.0)",
            "elements[0].interval: must not be zero; leave interval out for an element that happens once",
        ])
        element.recurrenceRule = RecurrenceRule(frequency: .daily, interval: 0)
        #expect(element.interval == nil)
        #expect(Schedule(element, timeZone: S.berlin).problems.map(\.description).last == "elements[0].rrule: INTERVAL: must be at least 1 (0)")
        element.interval = DateComponents(nanosecond: 5)
        #expect(element.recurrenceRule == nil)
        #expect(Schedule(element, timeZone: S.berlin).problems.map(\.description).contains(
            "elements[0].interval: only years, months, weeks (weekOfYear), days, hours, minutes and seconds are supported"))
        // An interval that does not move forward makes the element happen once.
        element.end = nil
        element.duration = .oneHour
        #expect(Schedule(element, timeZone: S.berlin).events(from: start, to: start.addingTimeInterval(86_400 * 3)).count == 1)
        #expect(Schedule(elements: [], timeZone: S.berlin).problems.map(\.description) == ["elements: a schedule needs at least one element"])
    }
}
