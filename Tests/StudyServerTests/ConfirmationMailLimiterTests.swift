import Foundation
import Testing
@testable import StudyServer

/// Links that confirm a reminder address: one per address in ten minutes (a double press sends one), five per
/// participant in an hour, counted again once the hour has passed.
@Suite("Confirmation mail limiter")
struct ConfirmationMailLimiterTests {
    let start = Date(timeIntervalSince1970: 1_806_000_000)

    @Test func theSameAddressGetsOneLinkInTenMinutes() {
        let limiter = ConfirmationMailLimiter()
        #expect(limiter.decide(participantID: "p1", address: "Ada@Example.org", at: start) == .send)
        #expect(limiter.decide(participantID: "p1", address: "ada@example.org", at: start.addingTimeInterval(1)) == .alreadySent)
        #expect(limiter.decide(participantID: "p1", address: "ada@example.org", at: start.addingTimeInterval(599)) == .alreadySent)
        #expect(limiter.decide(participantID: "p1", address: "ada@example.org", at: start.addingTimeInterval(600)) == .send)
        // Another participant's request is counted apart.
        #expect(limiter.decide(participantID: "p2", address: "ada@example.org", at: start.addingTimeInterval(2)) == .send)
    }

    @Test func aParticipantsAddressesGetFiveLinksAnHour() {
        let limiter = ConfirmationMailLimiter()
        for index in 0..<ConfirmationMailLimiter.perParticipantPerHour {
            #expect(limiter.decide(participantID: "p1", address: "a\(index)@example.org", at: start.addingTimeInterval(Double(index))) == .send)
        }
        #expect(limiter.decide(participantID: "p1", address: "a9@example.org", at: start.addingTimeInterval(60)) == .tooOften)
        #expect(limiter.decide(participantID: "p1", address: "a9@example.org", at: start.addingTimeInterval(3_599)) == .tooOften)
        // An hour after the first, one more may go.
        #expect(limiter.decide(participantID: "p1", address: "a9@example.org", at: start.addingTimeInterval(3_600)) == .send)
        #expect(limiter.decide(participantID: "p1", address: "a10@example.org", at: start.addingTimeInterval(3_600)) == .tooOften)
    }
}
