import Foundation

/// A calendar to publish, written as RFC 5545 text: what a participant's calendar feed (`webcal://…`) serves.
///
/// ```swift
/// let calendar = ICalendar(productIdentifier: "-//StudyKit//Calendar Feed//EN", name: "Recover study",
///                          refreshInterval: .hours(6), timeZoneCoverage: DateInterval(start: today, end: eightWeeksLater),
///                          events: [checkIn])
/// let body = calendar.serializedUTF8()   // served as ICalendar.mediaType
/// ```
///
/// The text has `METHOD:PUBLISH`, the calendar's name and refresh interval when given, a `VTIMEZONE` for each zone the
/// events are written in (``timeZones``), and the events. Lines end with CRLF and are folded at 75 octets; every text
/// is escaped, and no value can start a line of its own.
public struct ICalendar: Hashable, Sendable {
    /// The media type of the serialized calendar, for a `Content-Type` header.
    public static let mediaType = "text/calendar; charset=utf-8"

    /// Who made the calendar (`PRODID`), conventionally `-//Organisation//Product//EN`.
    public var productIdentifier: String
    /// The name a reader shows for the calendar (`NAME`, RFC 7986, and `X-WR-CALNAME`, which older readers know).
    public var name: String?
    /// How often a reader should fetch the calendar again (`REFRESH-INTERVAL;VALUE=DURATION`, RFC 7986, and
    /// `X-PUBLISHED-TTL`, which older readers know).
    public var refreshInterval: ICalendarDuration?
    /// The interval the zones' `VTIMEZONE`s describe: the span of the events, repetitions included (today to eight weeks
    /// ahead, say, with a margin). Each zone's is widened to take in the instants written in it (starts, ends, excluded
    /// starts and ends of repetition).
    public var timeZoneCoverage: DateInterval
    /// The events, written in this order.
    public var events: [ICalendarEvent]

    /// A calendar of `events`; see the properties for each argument.
    public init(
        productIdentifier: String, name: String? = nil, refreshInterval: ICalendarDuration? = nil,
        timeZoneCoverage: DateInterval, events: [ICalendarEvent]
    ) {
        self.productIdentifier = productIdentifier
        self.name = name
        self.refreshInterval = refreshInterval
        self.timeZoneCoverage = timeZoneCoverage
        self.events = events
    }

    /// The `VTIMEZONE` of each zone the events are written in, in the order the events first use them.
    public var timeZones: [ICalendarTimeZone] {
        var order: [String] = []
        var zones: [String: (timeZone: TimeZone, start: Date, end: Date)] = [:]
        for case let (zone, instants)? in events.map(\.zonedInstants) {
            let identifier = zone.identifier
            var covered = zones[identifier] ?? (zone, timeZoneCoverage.start, timeZoneCoverage.end)
            if zones[identifier] == nil { order.append(identifier) }
            covered.start = instants.reduce(covered.start) { min($0, $1) }
            covered.end = instants.reduce(covered.end) { max($0, $1) }
            zones[identifier] = covered
        }
        return order.compactMap { identifier in
            zones[identifier].map { ICalendarTimeZone($0.timeZone, covering: DateInterval(start: $0.start, end: $0.end)) }
        }
    }

    /// The calendar as RFC 5545 text, lines ended by CRLF.
    public func serialized() -> String {
        var lines = [
            ContentLine(name: "BEGIN", value: "VCALENDAR"),
            ContentLine(name: "VERSION", value: "2.0"),
            ContentLine(name: "PRODID", value: ContentLine.text(productIdentifier)),
            ContentLine(name: "CALSCALE", value: "GREGORIAN"),
            ContentLine(name: "METHOD", value: "PUBLISH"),
        ]
        if let name {
            lines.append(ContentLine(name: "NAME", value: ContentLine.text(name)))
            lines.append(ContentLine(name: "X-WR-CALNAME", value: ContentLine.text(name)))
        }
        if let refreshInterval {
            lines.append(ContentLine(name: "REFRESH-INTERVAL", parameters: [.init(name: "VALUE", value: "DURATION")], value: refreshInterval.serialized()))
            lines.append(ContentLine(name: "X-PUBLISHED-TTL", value: refreshInterval.serialized()))
        }
        lines += timeZones.flatMap { $0.contentLines() }
        lines += events.flatMap { $0.contentLines() }
        lines.append(ContentLine(name: "END", value: "VCALENDAR"))
        return lines.map { $0.folded() }.joined()
    }

    /// The calendar as RFC 5545 text in UTF-8: the body to serve.
    public func serializedUTF8() -> Data {
        Data(serialized().utf8)
    }
}
