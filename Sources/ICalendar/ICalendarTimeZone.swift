import Foundation

/// A zone as a `VTIMEZONE` (RFC 5545 §3.6.5), made from a Foundation `TimeZone` for an interval: the offset in effect
/// at the interval's start, and each of the zone's real transitions in the interval, as explicit `STANDARD` and
/// `DAYLIGHT` components (no `RRULE`, so nothing is predicted that Foundation did not say).
///
/// ```swift
/// let berlin = ICalendarTimeZone(TimeZone(identifier: "Europe/Berlin")!, covering: DateInterval(start: march, end: may))
/// // BEGIN:VTIMEZONE / TZID:Europe/Berlin
/// // BEGIN:STANDARD  DTSTART:20261025T030000 TZOFFSETFROM:+0200 TZOFFSETTO:+0100 …
/// // BEGIN:DAYLIGHT  DTSTART:20270328T020000 TZOFFSETFROM:+0100 TZOFFSETTO:+0200 …
/// ```
///
/// ``ICalendar`` makes one for each zone its events use; this type is public so that a caller can see what is written.
public struct ICalendarTimeZone: Hashable, Sendable {
    /// One offset of the zone and when it starts: a `STANDARD` or `DAYLIGHT` sub-component.
    public struct Observance: Hashable, Sendable {
        /// Whether the offset is the zone's standard time or its daylight-saving time.
        public enum Kind: String, Hashable, Sendable {
            /// `STANDARD`.
            case standard = "STANDARD"
            /// `DAYLIGHT`.
            case daylight = "DAYLIGHT"
        }

        /// Standard or daylight-saving time, as Foundation's `isDaylightSavingTime(for:)` says at ``onset``.
        public let kind: Kind
        /// The instant the offset takes effect.
        public let onset: Date
        /// The offset before ``onset``, in seconds east of UTC (`TZOFFSETFROM`).
        public let offsetFrom: Int
        /// The offset from ``onset`` on, in seconds east of UTC (`TZOFFSETTO`).
        public let offsetTo: Int
        /// The abbreviation Foundation gives for the new offset (`TZNAME`), if any.
        public let name: String?

        /// The onset as RFC 5545 writes it in `DTSTART`: the wall time just before the change, in the offset before it
        /// (`20270328T020000` for Berlin's change at 01:00 UTC from +01:00).
        public var localOnset: String {
            DateTimeText.local(onset.addingTimeInterval(TimeInterval(offsetFrom)), in: DateTimeText.utc)
        }
    }

    /// The zone's identifier, written as `TZID` (`Europe/Berlin`).
    public let identifier: String
    /// The zone's offsets, oldest first: the one in effect at the interval's start, then one per transition in it.
    public let observances: [Observance]

    /// How far before the interval's start the zone's last transition is looked for: more than a year, so that a zone
    /// with daylight-saving time always has its last change found.
    private static let lookBack: TimeInterval = 400 * 86_400

    /// The zone `timeZone` for `interval`: the offset in effect at its start, with the transition that began it (the
    /// last one in the 400 days before; for a zone without one, the offset from 1970-01-01 00:00 local time on), and
    /// every transition Foundation reports up to its end (`nextDaylightSavingTimeTransition(after:)`), leaving out
    /// transitions that keep the offset.
    public init(_ timeZone: TimeZone, covering interval: DateInterval) {
        identifier = timeZone.identifier
        var transitions: [Observance] = []
        var cursor = interval.start.addingTimeInterval(-Self.lookBack)
        while let transition = timeZone.nextDaylightSavingTimeTransition(after: cursor), transition > cursor, transition <= interval.end {
            cursor = transition
            let before = timeZone.secondsFromGMT(for: transition.addingTimeInterval(-1))
            let after = timeZone.secondsFromGMT(for: transition)
            guard before != after else { continue }
            transitions.append(Observance(timeZone, onset: transition, offsetFrom: before))
        }
        let earlier = transitions.filter { $0.onset <= interval.start }
        let initial: Observance
        if let last = earlier.last {
            initial = last
        } else {
            let offset = timeZone.secondsFromGMT(for: interval.start)
            initial = Observance(timeZone, onset: Date(timeIntervalSince1970: TimeInterval(-offset)), offsetFrom: offset, sampledAt: interval.start)
        }
        observances = [initial] + transitions.filter { $0.onset > interval.start }
    }

    /// The `VTIMEZONE` component's lines.
    func contentLines() -> [ContentLine] {
        var lines = [ContentLine(name: "BEGIN", value: "VTIMEZONE"), ContentLine(name: "TZID", value: ContentLine.text(identifier))]
        for observance in observances {
            lines.append(ContentLine(name: "BEGIN", value: observance.kind.rawValue))
            lines.append(ContentLine(name: "DTSTART", value: observance.localOnset))
            lines.append(ContentLine(name: "TZOFFSETFROM", value: DateTimeText.utcOffset(observance.offsetFrom)))
            lines.append(ContentLine(name: "TZOFFSETTO", value: DateTimeText.utcOffset(observance.offsetTo)))
            if let name = observance.name, !name.isEmpty { lines.append(ContentLine(name: "TZNAME", value: ContentLine.text(name))) }
            lines.append(ContentLine(name: "END", value: observance.kind.rawValue))
        }
        lines.append(ContentLine(name: "END", value: "VTIMEZONE"))
        return lines
    }
}

extension ICalendarTimeZone.Observance {
    /// The offset of `timeZone` from `onset` on, after `offsetFrom`, described as Foundation describes it at `sample`
    /// (the onset itself, unless that is before what the offset is known for).
    init(_ timeZone: TimeZone, onset: Date, offsetFrom: Int, sampledAt sample: Date? = nil) {
        let sample = sample ?? onset
        self.init(
            kind: timeZone.isDaylightSavingTime(for: sample) ? .daylight : .standard, onset: onset, offsetFrom: offsetFrom,
            offsetTo: timeZone.secondsFromGMT(for: sample), name: timeZone.abbreviation(for: sample)
        )
    }
}
