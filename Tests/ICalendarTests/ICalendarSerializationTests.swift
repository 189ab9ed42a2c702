import Foundation
import ICalendar
import Testing

/// The text ``ICalendar`` writes: a small calendar byte for byte, lines folded at 75 octets of UTF-8 without splitting
/// a character, `TEXT` values escaped, and control characters (CR, LF, NUL, bidirectional overrides) unable to start a
/// property line of their own.
@Suite("Serialization")
struct ICalendarSerializationTests {
    private static let stamp = TestTimes.date(2027, 3, 1, 12)

    /// `TZNAME:…` with CRLF for `zone` at `date`, or nothing when Foundation gives no abbreviation (it gives `GMT+1` on
    /// Linux, and may give another name elsewhere).
    private func zoneName(_ zone: TimeZone, at date: Date) -> String {
        zone.abbreviation(for: date).map { "TZNAME:\($0)\r\n" } ?? ""
    }

    private func smallCalendar() -> ICalendar {
        let berlin = TestTimes.berlin
        return ICalendar(
            productIdentifier: "-//StudyKit//Calendar Feed//EN", name: "Recover study", refreshInterval: .hours(6),
            timeZoneCoverage: DateInterval(start: TestTimes.date(2027, 3, 20), end: TestTimes.date(2027, 4, 10)),
            events: [
                ICalendarEvent(
                    uid: "checkin@study.example.org", timestamp: Self.stamp, start: .zoned(TestTimes.date(2027, 3, 27, 9, in: berlin), in: berlin),
                    end: .duration(.minutes(15)), summary: "Daily check-in", notes: "How did you sleep?\nTell us; briefly, please.",
                    url: URL(string: "https://study.example.org/tasks/checkin?a=1,2"), status: .confirmed, sequence: 2,
                    lastModified: Self.stamp, categories: ["Study", "Check-in"],
                    recurrence: ICalendarRecurrence(frequency: .daily, end: .count(7)),
                    excludedStarts: [.allDay(ICalendarDay(year: 2027, month: 3, day: 29))],
                    alarms: [ICalendarAlarm(trigger: .beforeStart(.minutes(15)), message: "Check-in in 15 minutes")]
                ),
                ICalendarEvent(
                    uid: "diary@study.example.org", timestamp: Self.stamp, start: .allDay(ICalendarDay(year: 2027, month: 4, day: 1)),
                    summary: "Diary", alarms: [ICalendarAlarm(trigger: .relativeToStart(.hours(9)), message: "Diary")]
                ),
                ICalendarEvent(
                    uid: "visit@study.example.org", timestamp: Self.stamp, start: .utc(TestTimes.date(2027, 4, 5, 13, 30)),
                    end: .time(.utc(TestTimes.date(2027, 4, 5, 14, 30))), summary: "Clinic visit", location: "Room 3, Building B",
                    recurrence: ICalendarRecurrence(frequency: .weekly(on: [.monday, .thursday]), interval: 2,
                                                    end: .until(.allDay(ICalendarDay(year: 2027, month: 5, day: 3)))),
                    alarms: [ICalendarAlarm(trigger: .at(TestTimes.date(2027, 4, 5, 7)), message: "Visit today")]
                ),
            ]
        )
    }

    @Test func aSmallCalendarIsWrittenExactly() {
        let berlin = TestTimes.berlin
        let winter = TestTimes.date(2027, 1, 1), summer = TestTimes.date(2027, 7, 1)
        let expected = #"""
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//StudyKit//Calendar Feed//EN
            CALSCALE:GREGORIAN
            METHOD:PUBLISH
            NAME:Recover study
            X-WR-CALNAME:Recover study
            REFRESH-INTERVAL;VALUE=DURATION:PT6H
            X-PUBLISHED-TTL:PT6H
            BEGIN:VTIMEZONE
            TZID:Europe/Berlin
            BEGIN:STANDARD
            DTSTART:20261025T030000
            TZOFFSETFROM:+0200
            TZOFFSETTO:+0100
            \#(zoneName(berlin, at: winter))END:STANDARD
            BEGIN:DAYLIGHT
            DTSTART:20270328T020000
            TZOFFSETFROM:+0100
            TZOFFSETTO:+0200
            \#(zoneName(berlin, at: summer))END:DAYLIGHT
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:checkin@study.example.org
            DTSTAMP:20270301T120000Z
            DTSTART;TZID=Europe/Berlin:20270327T090000
            DURATION:PT15M
            RRULE:FREQ=DAILY;COUNT=7
            EXDATE;TZID=Europe/Berlin:20270329T090000
            SUMMARY:Daily check-in
            DESCRIPTION:How did you sleep?\nTell us\; briefly\, please.
            URL:https://study.example.org/tasks/checkin?a=1,2
            CATEGORIES:Study,Check-in
            STATUS:CONFIRMED
            SEQUENCE:2
            LAST-MODIFIED:20270301T120000Z
            BEGIN:VALARM
            ACTION:DISPLAY
            DESCRIPTION:Check-in in 15 minutes
            TRIGGER:-PT15M
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:diary@study.example.org
            DTSTAMP:20270301T120000Z
            DTSTART;VALUE=DATE:20270401
            DTEND;VALUE=DATE:20270402
            SUMMARY:Diary
            BEGIN:VALARM
            ACTION:DISPLAY
            DESCRIPTION:Diary
            TRIGGER:PT9H
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:visit@study.example.org
            DTSTAMP:20270301T120000Z
            DTSTART:20270405T133000Z
            DTEND:20270405T143000Z
            RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=20270503T133000Z;BYDAY=MO,TH
            SUMMARY:Clinic visit
            LOCATION:Room 3\, Building B
            BEGIN:VALARM
            ACTION:DISPLAY
            DESCRIPTION:Visit today
            TRIGGER;VALUE=DATE-TIME:20270405T070000Z
            END:VALARM
            END:VEVENT
            END:VCALENDAR

            """#.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        let calendar = smallCalendar()
        #expect(calendar.serialized() == expected)
        #expect(calendar.serializedUTF8() == Data(expected.utf8))
    }

    @Test func everyLineEndsWithCRLFAndNoBareCROrLFIsLeft() {
        let bytes = Array(smallCalendar().serializedUTF8())
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\r") { #expect(index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n")) }
            if byte == UInt8(ascii: "\n") { #expect(index > 0 && bytes[index - 1] == UInt8(ascii: "\r")) }
        }
        #expect(bytes.suffix(2) == [UInt8(ascii: "\r"), UInt8(ascii: "\n")])
    }

    /// The event's folded `SUMMARY` lines, as the bytes between CRLFs.
    private func physicalLines(of calendar: ICalendar) -> [[UInt8]] {
        let bytes = Array(calendar.serializedUTF8())
        var lines: [[UInt8]] = [], current: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
                lines.append(current)
                current = []
                index += 2
            } else {
                current.append(bytes[index])
                index += 1
            }
        }
        return lines
    }

    private func calendar(summary: String, uid: String = "fold@study.example.org") -> ICalendar {
        ICalendar(
            productIdentifier: "-//StudyKit//Tests//EN", timeZoneCoverage: DateInterval(start: TestTimes.date(2027, 1, 1), duration: 86_400),
            events: [ICalendarEvent(uid: uid, timestamp: Self.stamp, start: .utc(TestTimes.date(2027, 1, 1, 9)), summary: summary)]
        )
    }

    @Test func aLongUTF8LineIsFoldedAt75OctetsWithoutSplittingACharacter() throws {
        // "SUMMARY:" is 8 octets and each kanji 3, so 22 kanji fill 74 octets; the 4-octet emoji after them does not fit
        // in the 75th, so the first line ends one octet short.
        let kanji = String(repeating: "睡眠日誌", count: 5) + "記録"
        let summary = kanji + "😴" + String(repeating: "毎朝の質問に答えてください。", count: 6) + " 👩‍🔬 done"
        let lines = physicalLines(of: calendar(summary: summary))
        let start = try #require(lines.firstIndex { $0.starts(with: Array("SUMMARY:".utf8)) })
        var end = start + 1
        while end < lines.count, lines[end].first == UInt8(ascii: " ") { end += 1 }
        let folded = Array(lines[start..<end])
        #expect(folded.count > 3)
        #expect(String(decoding: folded[0], as: UTF8.self) == "SUMMARY:" + kanji)
        #expect(folded[0].count == 74)
        for line in folded {
            #expect(line.count <= 75)
            // Each piece is whole UTF-8 on its own: no character was split.
            #expect(String(bytes: line, encoding: .utf8) != nil, "a piece of the fold is not valid UTF-8: \(line)")
        }
        for line in folded.dropFirst() { #expect(line.first == UInt8(ascii: " ")) }
        let unfolded = folded.enumerated().flatMap { $0.offset == 0 ? $0.element : Array($0.element.dropFirst()) }
        #expect(String(decoding: unfolded, as: UTF8.self) == "SUMMARY:" + summary)
        // Every line of the calendar keeps to 75 octets.
        #expect(lines.allSatisfy { $0.count <= 75 })
    }

    @Test func aLineOfExactly75OctetsIsNotFolded() {
        let summary = String(repeating: "x", count: 75 - "SUMMARY:".count)
        let text = calendar(summary: summary).serialized()
        #expect(text.contains("\r\nSUMMARY:\(summary)\r\nEND:VEVENT\r\n"))
        let longer = calendar(summary: summary + "y").serialized()
        #expect(longer.contains("\r\nSUMMARY:\(summary)\r\n y\r\nEND:VEVENT\r\n"))
    }

    @Test func textValuesEscapeBackslashSemicolonCommaAndNewline() {
        let event = ICalendarEvent(
            uid: "a;b,c@example.org", timestamp: Self.stamp, start: .utc(Self.stamp), summary: #"Walk; then rest, 10\20 min"#,
            notes: "First line\nSecond line\r\nThird line\rFourth", location: "Room 3, Building B",
            categories: ["Sleep, night", "", "A;B"]
        )
        let text = ICalendar(productIdentifier: "-//StudyKit//Tests//EN", timeZoneCoverage: DateInterval(start: Self.stamp, duration: 60), events: [event])
            .serialized()
        #expect(text.contains(#"UID:a\;b\,c@example.org"# + "\r\n"))
        #expect(text.contains(#"SUMMARY:Walk\; then rest\, 10\\20 min"# + "\r\n"))
        #expect(text.contains(#"DESCRIPTION:First line\nSecond line\nThird line\nFourth"# + "\r\n"))
        #expect(text.contains(#"LOCATION:Room 3\, Building B"# + "\r\n"))
        #expect(text.contains(#"CATEGORIES:Sleep\, night,A\;B"# + "\r\n"))
    }

    @Test(arguments: [
        "Walk\r\nX-INJECTED:1",
        "Walk\nEND:VEVENT\nBEGIN:VEVENT\nUID:evil",
        "Walk\rATTACH:http://evil.example",
        "Walk\u{0}X-INJECTED:1",
        "Walk\u{202E}\u{2066}\r\nX-INJECTED:1\u{2069}",
        "Walk\u{85}X-INJECTED:1\u{2028}X-INJECTED:2",
        "Walk\u{1B}[2J\u{7F}\u{9B}X-INJECTED:1",
    ])
    func controlCharactersInASummaryCannotStartAPropertyLine(_ summary: String) {
        let text = calendar(summary: summary, uid: "uid\r\nX-INJECTED:uid").serialized()
        let lines = text.components(separatedBy: "\r\n")
        #expect(!lines.contains { $0.hasPrefix("X-INJECTED") || $0.hasPrefix("ATTACH") || $0.hasPrefix("UID:evil") })
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 1 && lines.filter { $0 == "END:VEVENT" }.count == 1)
        let summaryLine = lines.first { $0.hasPrefix("SUMMARY:") } ?? ""
        #expect(!summaryLine.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(!summaryLine.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
        #expect(lines.contains(#"UID:uid\nX-INJECTED:uid"#))
        // Nothing but CRLF ends a line: no CR or LF, NEL or Unicode line separator is left in the text.
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").unicodeScalars.contains { [0x0A, 0x0D, 0x85, 0x2028, 0x2029].contains($0.value) })
    }

    @Test func lineBreaksAreKeptAsEscapedNewlinesAndOtherControlsRemoved() {
        let text = calendar(summary: "A\r\nB\u{0}C\u{202E}D\tE\u{2028}F").serialized()
        #expect(text.contains(#"SUMMARY:A\nBCD E\nF"# + "\r\n"))
    }
}
