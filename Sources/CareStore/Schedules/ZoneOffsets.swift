import Foundation
import StudyKitEnvironment
import Synchronization

/// The offsets from UTC of one time zone, learned as they are asked and shared by every schedule in that zone.
///
/// Each answer is the zone's own (`secondsFromGMT(for:)`), and holds from the instant asked until the zone's next
/// transition (`nextDaylightSavingTimeTransition(after:)`, which ICU gives for every change of offset, daylight
/// saving or not): an instant inside a span already learned is answered without asking the zone again. A reminder
/// round asks the offsets of tens of thousands of schedules in a few zones, and the zone answers under a lock of its
/// own, one thread at a time.
final class ZoneOffsets: Sendable {
    /// A span of instants (seconds since 1970) over which the zone's offset stays the same.
    private struct Span {
        var start: Double
        var end: Double
        var offset: Int
    }

    private let zone: TimeZone
    private let spans = Mutex<[Span]>([])
    /// Spans kept for one zone at most; past it, it starts afresh (a schedule reaches over a few years at most).
    private static let spanLimit = 64

    private init(_ zone: TimeZone) {
        self.zone = zone
    }

    private static let byZone = KeptValues<TimeZone, ZoneOffsets>(capacity: 1_024)

    /// The offsets of `zone`, shared by every caller.
    static func of(_ zone: TimeZone) -> ZoneOffsets {
        byZone.value(for: zone) { ZoneOffsets(zone) }
    }

    /// The zone's offset from UTC, in seconds, at `seconds` since 1970.
    func offset(at seconds: Double) -> Int {
        if let known = spans.withLock({ spans in spans.first { $0.start <= seconds && seconds < $0.end }?.offset }) { return known }
        let date = Date(timeIntervalSince1970: seconds)
        let offset = zone.secondsFromGMT(for: date)
        let end = zone.nextDaylightSavingTimeTransition(after: date)?.timeIntervalSince1970 ?? .infinity
        spans.withLock { spans in
            if let index = spans.firstIndex(where: { $0.end == end && $0.offset == offset }) {
                spans[index].start = min(spans[index].start, seconds)
            } else {
                if spans.count >= Self.spanLimit { spans.removeAll(keepingCapacity: true) }
                spans.append(Span(start: seconds, end: end, offset: offset))
            }
        }
        return offset
    }
}
