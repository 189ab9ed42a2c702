import Foundation
import NIOCore
import PostgresNIO

/// A `Date` as PostgreSQL's `timestamptz`: whole microseconds since 2000-01-01 00:00 UTC.
///
/// postgres-nio's own `Date` coding truncates towards zero (a date a third of a second after a whole second is
/// stored a microsecond early); this one rounds to the nearest microsecond, and reads a microsecond back as the
/// `Date` nearest to it. A `Date` that is a whole number of microseconds (every date the tests' clocks make, whole
/// seconds and their decimal fractions down to a microsecond) comes back equal; any other is moved by less than
/// half a microsecond.
public struct PostgresTimestamp: PostgresNonThrowingEncodable, PostgresDecodable, Sendable, Hashable {
    /// The date.
    public var date: Date

    /// `date`, to be written as a `timestamptz`.
    public init(_ date: Date) { self.date = date }

    /// Microseconds from PostgreSQL's epoch (2000-01-01) to Foundation's reference date (2001-01-01): 366 days.
    private static let referenceDateMicroseconds: Int64 = 366 * 86_400 * 1_000_000

    /// `timestamptz`.
    public static var psqlType: PostgresDataType { .timestamptz }
    /// Binary: microseconds as a 64-bit integer.
    public static var psqlFormat: PostgresFormat { .binary }

    /// The microseconds since PostgreSQL's epoch nearest to `date`.
    static func microseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSinceReferenceDate * 1_000_000).rounded()) + referenceDateMicroseconds
    }

    /// The date nearest to `microseconds` since PostgreSQL's epoch.
    static func date(microseconds: Int64) -> Date {
        Date(timeIntervalSinceReferenceDate: Double(microseconds - referenceDateMicroseconds) / 1_000_000)
    }

    /// Writes the microseconds nearest to ``date``.
    public func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeInteger(Self.microseconds(date))
    }

    /// Reads a `timestamptz` (or `timestamp`) in binary.
    public init<JSONDecoder: PostgresJSONDecoder>(from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
                                           context: PostgresDecodingContext<JSONDecoder>) throws {
        guard type == .timestamptz || type == .timestamp, format == .binary else { throw PostgresDecodingError.Code.typeMismatch }
        guard buffer.readableBytes == 8, let microseconds = buffer.readInteger(as: Int64.self) else {
            throw PostgresDecodingError.Code.failure
        }
        date = Self.date(microseconds: microseconds)
    }
}
