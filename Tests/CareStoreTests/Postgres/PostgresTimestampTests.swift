import Foundation
import Testing
@testable import CareStorePostgres

@Suite("PostgresTimestamp")
struct PostgresTimestampTests {
    /// Dates round-trip through `timestamptz`'s microseconds exactly when they are whole microseconds, and within half
    /// of one otherwise (postgres-nio's own coding truncates, a microsecond early for a third of a second).
    @Test func keepsMicroseconds() {
        for seconds in [0, 1_774_008_000, 1_774_008_000.5, 1_774_008_000.123456, -86_400.25] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(PostgresTimestamp.date(microseconds: PostgresTimestamp.microseconds(date)) == date, "\(seconds)")
        }
        let third = Date(timeIntervalSinceReferenceDate: 1.0 / 3.0)
        #expect(abs(PostgresTimestamp.date(microseconds: PostgresTimestamp.microseconds(third)).timeIntervalSince(third)) <= 0.000_000_5)
        // PostgreSQL's epoch is 2000-01-01 00:00 UTC.
        #expect(PostgresTimestamp.microseconds(Date(timeIntervalSince1970: 946_684_800)) == 0)
    }
}
