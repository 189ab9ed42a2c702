import Foundation

/// An event of a calendar: a `VEVENT` (RFC 5545 §3.6.1), once or repeating, with its reminders.
///
/// ```swift
/// let berlin = TimeZone(identifier: "Europe/Berlin")!
/// let checkIn = ICalendarEvent(
///     uid: "task-7f3a@study.example.org", timestamp: now,
///     start: .zoned(firstMorning, in: berlin), end: .duration(.minutes(15)),
///     summary: "Daily check-in",
///     recurrence: ICalendarRecurrence(frequency: .daily, end: .count(56)),
///     alarms: [ICalendarAlarm(trigger: .beforeStart(.minutes(15)), message: "Daily check-in")])
/// ```
///
/// `DTEND`, `EXDATE` and `UNTIL` are written in the form of ``start`` (the same `TZID`, UTC, or `VALUE=DATE`), as the RFC
/// asks; a value given in another form is converted (see ``ICalendarTime``), so the zone an event uses is its start's.
public struct ICalendarEvent: Hashable, Sendable {
    /// Whether the event takes place (`STATUS`).
    public enum Status: String, Hashable, Sendable {
        /// `TENTATIVE`.
        case tentative = "TENTATIVE"
        /// `CONFIRMED`.
        case confirmed = "CONFIRMED"
        /// `CANCELLED`: readers that already have the event show it cancelled.
        case cancelled = "CANCELLED"
    }

    /// Where the event ends.
    public enum End: Hashable, Sendable {
        /// At this time (`DTEND`, exclusive), written in the start's form.
        case time(ICalendarTime)
        /// This long after the start (`DURATION`).
        case duration(ICalendarDuration)
    }

    /// The event's identifier (`UID`): the same in every copy of the feed, so a reader updates the event instead of
    /// adding another. The caller makes it stable and unique (`task-7f3a@study.example.org`).
    public var uid: String
    /// When this copy of the event was made (`DTSTAMP`, in UTC): the feed's time of writing.
    public var timestamp: Date
    /// When the event (its first occurrence) starts (`DTSTART`).
    public var start: ICalendarTime
    /// When it ends. Nil is a moment for a start with a time, and the one day for an all-day start (written as
    /// `DTEND;VALUE=DATE` the next day).
    public var end: End?
    /// The title (`SUMMARY`).
    public var summary: String
    /// The longer text (`DESCRIPTION`).
    public var notes: String?
    /// A link to the task (`URL`).
    public var url: URL?
    /// Where it takes place (`LOCATION`).
    public var location: String?
    /// Whether it takes place (`STATUS`).
    public var status: Status?
    /// The revision of the event (`SEQUENCE`), raised by the caller each time its time changes.
    public var sequence: Int?
    /// When the event last changed (`LAST-MODIFIED`, in UTC).
    public var lastModified: Date?
    /// Categories (`CATEGORIES`), empty ones left out.
    public var categories: [String]
    /// How the event repeats (`RRULE`).
    public var recurrence: ICalendarRecurrence?
    /// Starts of occurrences that do not take place (`EXDATE`), written in the start's form.
    public var excludedStarts: [ICalendarTime]
    /// Reminders (`VALARM`).
    public var alarms: [ICalendarAlarm]

    /// An event `uid` from `start` to `end`; see the properties for each argument.
    public init(
        uid: String, timestamp: Date, start: ICalendarTime, end: End? = nil, summary: String, notes: String? = nil,
        url: URL? = nil, location: String? = nil, status: Status? = nil, sequence: Int? = nil, lastModified: Date? = nil,
        categories: [String] = [], recurrence: ICalendarRecurrence? = nil, excludedStarts: [ICalendarTime] = [],
        alarms: [ICalendarAlarm] = []
    ) {
        self.uid = uid
        self.timestamp = timestamp
        self.start = start
        self.end = end
        self.summary = summary
        self.notes = notes
        self.url = url
        self.location = location
        self.status = status
        self.sequence = sequence
        self.lastModified = lastModified
        self.categories = categories
        self.recurrence = recurrence
        self.excludedStarts = excludedStarts
        self.alarms = alarms
    }

    /// The instants this event writes as wall times of its start's zone (start, end, excluded starts, and the end of a
    /// recurrence), which that zone's `VTIMEZONE` must cover.
    var zonedInstants: (timeZone: TimeZone, instants: [Date])? {
        guard case .zoned(let startDate, let zone) = start else { return nil }
        var instants = [startDate]
        switch end {
        case .time(let time): instants += [time.inForm(of: start).instant].compactMap { $0 }
        case .duration(let duration):
            let calendar = DateTimeText.gregorian(in: zone)
            let later = calendar.date(byAdding: .day, value: duration.days, to: startDate).map { $0.addingTimeInterval(TimeInterval(duration.seconds)) }
            instants += [later].compactMap { $0 }
        case nil: break
        }
        instants += excludedStarts.compactMap { $0.inForm(of: start).instant }
        if case .until(let until) = recurrence?.end, let instant = until.inForm(of: start).instant { instants.append(instant) }
        return (zone, instants)
    }

    /// The `VEVENT` component's lines.
    func contentLines() -> [ContentLine] {
        var lines = [
            ContentLine(name: "BEGIN", value: "VEVENT"),
            ContentLine(name: "UID", value: ContentLine.text(uid)),
            ContentLine(name: "DTSTAMP", value: DateTimeText.utc(timestamp)),
            Self.line("DTSTART", start),
        ]
        switch end {
        case .time(let time): lines.append(Self.line("DTEND", time.inForm(of: start)))
        case .duration(let duration): lines.append(ContentLine(name: "DURATION", value: duration.serialized()))
        case nil:
            if case .allDay(let day) = start { lines.append(Self.line("DTEND", .allDay(day.adding(days: 1)))) }
        }
        if let recurrence { lines.append(ContentLine(name: "RRULE", value: recurrence.serialized(forStart: start))) }
        var written = Set<String>()
        for excluded in excludedStarts {
            let line = Self.line("EXDATE", excluded.inForm(of: start))
            if written.insert(line.value).inserted { lines.append(line) }
        }
        lines.append(ContentLine(name: "SUMMARY", value: ContentLine.text(summary)))
        if let notes { lines.append(ContentLine(name: "DESCRIPTION", value: ContentLine.text(notes))) }
        if let location { lines.append(ContentLine(name: "LOCATION", value: ContentLine.text(location))) }
        if let url { lines.append(ContentLine(name: "URL", value: url.absoluteString)) }
        let categories = categories.map(ContentLine.text).filter { !$0.isEmpty }
        if !categories.isEmpty { lines.append(ContentLine(name: "CATEGORIES", value: categories.joined(separator: ","))) }
        if let status { lines.append(ContentLine(name: "STATUS", value: status.rawValue)) }
        if let sequence { lines.append(ContentLine(name: "SEQUENCE", value: String(max(0, sequence)))) }
        if let lastModified { lines.append(ContentLine(name: "LAST-MODIFIED", value: DateTimeText.utc(lastModified))) }
        lines += alarms.flatMap { $0.contentLines() }
        lines.append(ContentLine(name: "END", value: "VEVENT"))
        return lines
    }

    /// A `DTSTART`, `DTEND` or `EXDATE` line of `time`.
    private static func line(_ name: String, _ time: ICalendarTime) -> ContentLine {
        let (parameters, value) = time.parametersAndValue
        return ContentLine(name: name, parameters: parameters, value: value)
    }
}
