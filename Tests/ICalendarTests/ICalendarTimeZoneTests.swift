import Foundation
import ICalendar
import Testing

/// `VTIMEZONE`s made from Foundation's zones: each real transition in the interval with its onset written as the wall
/// time before the change (RFC 5545 §3.6.5), the offsets on both sides, and the offset in effect at the interval's
/// start; for the northern hemisphere (Europe/Berlin, America/New_York), the southern one (Australia/Sydney, whose
/// summer spans the new year) and a zone without transitions (Asia/Tokyo).
@Suite("VTIMEZONE")
struct ICalendarTimeZoneTests {
    /// An observance as the lines it is written with, for comparing.
    private struct Written: Equatable, CustomStringConvertible {
        var kind: String, localOnset: String, from: String, to: String
        var description: String { "\(kind) \(localOnset) \(from)→\(to)" }
    }

    private func written(_ zone: ICalendarTimeZone) -> [Written] {
        zone.observances.map {
            Written(kind: $0.kind.rawValue, localOnset: $0.localOnset, from: Self.offset($0.offsetFrom), to: Self.offset($0.offsetTo))
        }
    }

    private static func offset(_ seconds: Int) -> String {
        let hours = abs(seconds) / 3600, minutes = abs(seconds) % 3600 / 60
        return (seconds < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + "\(hours)" + (minutes < 10 ? "0" : "") + "\(minutes)"
    }

    /// Every observance agrees with Foundation: the offset before its onset is `offsetFrom`, at it `offsetTo`, the
    /// kind and name are Foundation's, and the local onset is the onset in the offset before it.
    private func expectAgreesWithFoundation(_ zone: ICalendarTimeZone, _ timeZone: TimeZone, sourceLocation: SourceLocation = #_sourceLocation) {
        for observance in zone.observances where observance.offsetFrom != observance.offsetTo {
            #expect(timeZone.secondsFromGMT(for: observance.onset.addingTimeInterval(-1)) == observance.offsetFrom, sourceLocation: sourceLocation)
            #expect(timeZone.secondsFromGMT(for: observance.onset) == observance.offsetTo, sourceLocation: sourceLocation)
            #expect(timeZone.isDaylightSavingTime(for: observance.onset) == (observance.kind == .daylight), sourceLocation: sourceLocation)
            #expect(timeZone.abbreviation(for: observance.onset) == observance.name, sourceLocation: sourceLocation)
        }
    }

    @Test func berlinSpringsForwardOnTheLastSundayOfMarch() {
        let interval = DateInterval(start: TestTimes.date(2027, 3, 1), end: TestTimes.date(2027, 5, 1))
        let zone = ICalendarTimeZone(TestTimes.berlin, covering: interval)
        #expect(zone.identifier == "Europe/Berlin")
        // In effect on 1 March: winter time since 25 October 2026 03:00 (+02:00); then 28 March 2027 02:00 → 03:00.
        #expect(written(zone) == [
            Written(kind: "STANDARD", localOnset: "20261025T030000", from: "+0200", to: "+0100"),
            Written(kind: "DAYLIGHT", localOnset: "20270328T020000", from: "+0100", to: "+0200"),
        ])
        #expect(zone.observances[1].onset == TestTimes.date(2027, 3, 28, 1))
        expectAgreesWithFoundation(zone, TestTimes.berlin)
    }

    @Test func sydneyEndsSummerTimeInAprilAndStartsItInOctober() {
        let interval = DateInterval(start: TestTimes.date(2027, 3, 1), end: TestTimes.date(2027, 10, 31))
        let zone = ICalendarTimeZone(TestTimes.sydney, covering: interval)
        // Summer time since 4 October 2026; 4 April 2027 03:00 → 02:00 (+11 → +10); 3 October 2027 02:00 → 03:00.
        #expect(written(zone) == [
            Written(kind: "DAYLIGHT", localOnset: "20261004T020000", from: "+1000", to: "+1100"),
            Written(kind: "STANDARD", localOnset: "20270404T030000", from: "+1100", to: "+1000"),
            Written(kind: "DAYLIGHT", localOnset: "20271003T020000", from: "+1000", to: "+1100"),
        ])
        #expect(zone.observances[1].onset == TestTimes.date(2027, 4, 3, 16))
        #expect(zone.observances[2].onset == TestTimes.date(2027, 10, 2, 16))
        expectAgreesWithFoundation(zone, TestTimes.sydney)
    }

    @Test func newYorkChangesOnTheSecondSundayOfMarchAndTheFirstOfNovember() {
        let interval = DateInterval(start: TestTimes.date(2027, 1, 1), end: TestTimes.date(2028, 1, 1))
        let zone = ICalendarTimeZone(TestTimes.newYork, covering: interval)
        #expect(written(zone) == [
            Written(kind: "STANDARD", localOnset: "20261101T020000", from: "-0400", to: "-0500"),
            Written(kind: "DAYLIGHT", localOnset: "20270314T020000", from: "-0500", to: "-0400"),
            Written(kind: "STANDARD", localOnset: "20271107T020000", from: "-0400", to: "-0500"),
        ])
        expectAgreesWithFoundation(zone, TestTimes.newYork)
    }

    @Test func tokyoHasOneStandardComponent() {
        let interval = DateInterval(start: TestTimes.date(2027, 1, 1), end: TestTimes.date(2028, 1, 1))
        let zone = ICalendarTimeZone(TestTimes.tokyo, covering: interval)
        #expect(written(zone) == [Written(kind: "STANDARD", localOnset: "19700101T000000", from: "+0900", to: "+0900")])
        #expect(zone.observances[0].name == TestTimes.tokyo.abbreviation(for: interval.start))
    }

    @Test func anIntervalInsideOneOffsetHasOnlyTheComponentThatBeganIt() {
        let interval = DateInterval(start: TestTimes.date(2027, 5, 1), end: TestTimes.date(2027, 7, 1))
        let zone = ICalendarTimeZone(TestTimes.berlin, covering: interval)
        #expect(written(zone) == [Written(kind: "DAYLIGHT", localOnset: "20270328T020000", from: "+0100", to: "+0200")])
    }

    @Test func theComponentsAreWrittenAsLines() throws {
        let berlin = TestTimes.berlin
        let start = TestTimes.date(2027, 3, 28, 9, in: berlin)
        let calendar = ICalendar(productIdentifier: "-//StudyKit//Tests//EN",
                                 timeZoneCoverage: DateInterval(start: TestTimes.date(2027, 3, 20), end: TestTimes.date(2027, 4, 10)),
                                 events: [ICalendarEvent(uid: "u", timestamp: start, start: .zoned(start, in: berlin), summary: "S")])
        let text = calendar.serialized()
        let begin = try #require(text.range(of: "BEGIN:VTIMEZONE\r\n"))
        let end = try #require(text.range(of: "END:VTIMEZONE\r\n"))
        let summer = berlin.abbreviation(for: start).map { "TZNAME:\($0)\r\n" } ?? ""
        let winter = berlin.abbreviation(for: TestTimes.date(2027, 1, 1)).map { "TZNAME:\($0)\r\n" } ?? ""
        #expect(String(text[begin.lowerBound..<end.upperBound]) == "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"
            + "BEGIN:STANDARD\r\nDTSTART:20261025T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\n\(winter)END:STANDARD\r\n"
            + "BEGIN:DAYLIGHT\r\nDTSTART:20270328T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n\(summer)END:DAYLIGHT\r\n"
            + "END:VTIMEZONE\r\n")
    }
}
