import CareStore
import Foundation
import Study
import Testing

@Suite("Participant change feed")
struct ParticipantChangeFeedTests {
    @Test func aCareChangeWakesTheParticipantsItTouchedAndNoOneElse() async throws {
        let feed = InProcessParticipantChangeFeed()
        let mine = feed.changes(of: "p1")
        let theirs = feed.changes(of: "p2")
        #expect(feed.subscriberCount == 2)
        feed.publish(CareChange(outcomeTaskIDs: ["p1/exercises", "p1/pain"]))
        feed.publish(CareChange(entities: [.contact: ["p3/physio"]]))
        feed.publish(CareChange(outcomeTaskIDs: ["no-slash", "/leading"]))
        #expect(feed.latest(of: "p1") == 1, "one change, however many tasks it touched")
        #expect(feed.latest(of: "p2") == 0)
        #expect(feed.latest(of: "p3") == 1)
        var iterator = mine.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        feed.publish(["p2"])
        var theirIterator = theirs.makeAsyncIterator()
        #expect(await theirIterator.next() == 1)
    }

    @Test func aSlowSubscriberGetsTheLatestNumberAndAGoneOneIsForgotten() async throws {
        let feed = InProcessParticipantChangeFeed()
        do {
            let stream = feed.changes(of: "p1")
            for _ in 0..<5 { feed.publish(["p1"]) }
            var iterator = stream.makeAsyncIterator()
            #expect(await iterator.next() == 5, "the numbers in between do not matter to a page that refreshes whole")
        }
        // The stream's termination runs when it is released; give it a moment.
        for _ in 0..<100 where feed.subscriberCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(feed.subscriberCount == 0)
        #expect(StudyCareIdentifiers.participantID(ofCareID: "p9/care-plan") == "p9")
        #expect(StudyCareIdentifiers.participantID(ofCareID: "p9") == nil)
    }
}
