import Foundation

/// A reminder the reader's calendar shows: a `VALARM` with `ACTION:DISPLAY` (RFC 5545 §3.6.6).
///
/// ```swift
/// ICalendarAlarm(trigger: .beforeStart(.minutes(15)), message: "Daily check-in")  // TRIGGER:-PT15M
/// ICalendarAlarm(trigger: .relativeToStart(.hours(9)), message: "Diary")           // 09:00 on an all-day event's day
/// ICalendarAlarm(trigger: .at(deadline), message: "Last chance")                   // TRIGGER;VALUE=DATE-TIME:…Z
/// ```
public struct ICalendarAlarm: Hashable, Sendable {
    /// When the alarm goes off.
    public enum Trigger: Hashable, Sendable {
        /// This long after the start of each occurrence (before it, for a negative duration): `TRIGGER:-PT15M`.
        /// For an all-day event the start is the day's midnight in the reader's zone, so `PT9H` is 09:00 that day.
        case relativeToStart(ICalendarDuration)
        /// At this instant, written in UTC: `TRIGGER;VALUE=DATE-TIME:20270328T064500Z`. For a one-off event: every
        /// occurrence of a repeating event shares the one instant.
        case at(Date)

        /// `duration` before the start of each occurrence: `.beforeStart(.minutes(15))` is `TRIGGER:-PT15M`.
        public static func beforeStart(_ duration: ICalendarDuration) -> Trigger { .relativeToStart(-duration) }
    }

    /// When the alarm goes off.
    public var trigger: Trigger
    /// The text shown (`DESCRIPTION`).
    public var message: String

    /// An alarm showing `message` at `trigger`.
    public init(trigger: Trigger, message: String) {
        self.trigger = trigger
        self.message = message
    }

    /// The `VALARM` component's lines.
    func contentLines() -> [ContentLine] {
        var lines = [
            ContentLine(name: "BEGIN", value: "VALARM"),
            ContentLine(name: "ACTION", value: "DISPLAY"),
            ContentLine(name: "DESCRIPTION", value: ContentLine.text(message)),
        ]
        switch trigger {
        case .relativeToStart(let duration):
            lines.append(ContentLine(name: "TRIGGER", value: duration.serialized()))
        case .at(let date):
            lines.append(ContentLine(name: "TRIGGER", parameters: [.init(name: "VALUE", value: "DATE-TIME")], value: DateTimeText.utc(date)))
        }
        lines.append(ContentLine(name: "END", value: "VALARM"))
        return lines
    }
}
