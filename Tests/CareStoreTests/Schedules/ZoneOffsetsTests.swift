import Foundation
import Testing
@testable import CareStore

@Suite("Zone offsets learned as asked")
struct ZoneOffsetsTests {
    /// Zones whose offsets change in every way there is: daylight saving north and south, by half an hour (Lord Howe),
    /// at a quarter hour (Chatham), a whole day skipped (Apia, 2011), a standard offset changed for good (Pyongyang in
    /// 2015 and 2018, Volgograd in 2018 and 2020), and none at all (Kolkata).
    static let zones = ["Europe/Berlin", "Australia/Sydney", "Australia/Lord_Howe", "Pacific/Chatham", "Pacific/Apia",
                        "Asia/Pyongyang", "Europe/Volgograd", "America/St_Johns", "Asia/Kolkata"]

    @Test(arguments: zones)
    func everyAnswerIsTheZonesOwnWhateverOrderTheInstantsAreAskedIn(identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        let offsets = ZoneOffsets.of(zone)
        // Instants from 2010 to 2030 in an order that jumps back and forth (a fixed permutation), every 7 hours and 13
        // minutes, so that spans are learned from their middle and their ends.
        let start = 1_262_304_000.0, step = 26_000.0, count = 24_000
        var index = 0
        for _ in 0..<count {
            index = (index + 7_919) % count
            let seconds = start + Double(index) * step
            #expect(offsets.offset(at: seconds) == zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)),
                    "\(identifier) at \(Date(timeIntervalSince1970: seconds))")
        }
    }

    @Test func theInstantsEachSideOfATransitionHaveTheirOwnOffsets() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let offsets = ZoneOffsets.of(berlin)
        // 2026-03-29 01:00 UTC: 02:00 in Berlin becomes 03:00.
        let change = 1_774_746_000.0
        #expect(offsets.offset(at: change - 3_600) == 3_600)
        #expect(offsets.offset(at: change - 0.5) == 3_600)
        #expect(offsets.offset(at: change) == 7_200)
        #expect(offsets.offset(at: change - 1) == 3_600)
    }
}
